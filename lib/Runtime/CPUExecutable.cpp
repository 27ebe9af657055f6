//===- CPUExecutable.cpp - run machine code compiled for the host CPU ------===//
//
// What runs compiled models: objects loaded into a JIT of their own, host
// buffers for weights, inputs and outputs, calls and benchmarks. Compiling
// (graph passes, lowering, code generation, the cache) is lib/Driver's.
//
//===----------------------------------------------------------------------===//
#include "dlc/Runtime/CPUExecutable.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Environment.h"
#include "dlc/Support/Memory.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace dlc;

namespace dlc {
/// A host buffer in the element type's native format, 64-byte aligned.
struct Buffer {
  explicit Buffer(size_t bytes)
      : data(static_cast<char *>(std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64))) {
    // Sizes were checked against the host's memory at compile time.
    if (!data)
      llvm::report_fatal_error("dlc: out of memory allocating " +
                                   llvm::Twine(formatBytes(bytes)),
                               /*gen_crash_diag=*/false);
  }
  /// Keeps `owned` and reads its bytes where they are.
  explicit Buffer(AsmResourceBlob &&owned)
      : data(const_cast<char *>(owned.getData().data())), blob(std::move(owned)) {}
  /// Reads `bytes` where they are, holding `keepAlive`, which keeps them.
  Buffer(ArrayRef<char> bytes, std::shared_ptr<const void> keepAlive)
      : data(const_cast<char *>(bytes.data())), keepAlive(std::move(keepAlive)) {}
  ~Buffer() {
    if (!blob && !keepAlive)
      std::free(data);
  }
  Buffer(const Buffer &) = delete;
  Buffer(Buffer &&o) noexcept
      : data(o.data), blob(std::move(o.blob)), keepAlive(std::move(o.keepAlive)) {
    o.data = nullptr;
    o.blob.reset();
  }
  char *data;
  std::optional<AsmResourceBlob> blob;
  std::shared_ptr<const void> keepAlive;
};

/// A memref descriptor {allocated, aligned, offset, sizes[], strides[]}.
static std::vector<int64_t> descriptor(char *data, ArrayRef<int64_t> shape) {
  std::vector<int64_t> d{reinterpret_cast<int64_t>(data),
                         reinterpret_cast<int64_t>(data), 0};
  Shape strides = rowMajorStrides(shape);
  d.insert(d.end(), shape.begin(), shape.end());
  d.insert(d.end(), strides.begin(), strides.end());
  return d;
}

/// Memref element width: i1 is stored as a byte.
static int64_t width(DType t) { return dtypeBytes(t); }
} // namespace dlc

/// malloc for JIT-compiled models: exits with a message when out of memory.
static void *checkedMalloc(size_t bytes) {
  void *p = std::malloc(bytes);
  if (!p && bytes)
    llvm::report_fatal_error("dlc: the compiled model could not allocate " +
                                 llvm::Twine(formatBytes(bytes)) + " (out of memory)",
                             /*gen_crash_diag=*/false);
  return p;
}

/// memref.copy between strided views calls memrefCopy from MLIR's C runner
/// utilities (part of libmlir-22-dev); OpenMP's runtime (libomp-22-dev)
/// runs thread-split loops.
static const llvm::StringRef kRuntimeLibs[] = {
    "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so", "/usr/lib/llvm-22/lib/libomp.so"};

/// Appends `g`'s functions to /tmp/perf-PID.map ("address size name"), the
/// file through which Linux `perf report` names JIT code. A kernel
/// (dlc_kernel_DIGEST) is named with the summary its object carries
/// (dlc_summary_DIGEST, CodeGen.cpp): "dlc_kernel_DIGEST conv2d+add -> 1x..".
static llvm::Error appendToPerfMap(llvm::jitlink::LinkGraph &g) {
  llvm::StringMap<std::string> summaries;
  for (llvm::jitlink::Symbol *sym : g.defined_symbols())
    if (sym->hasName() && (*sym->getName()).starts_with("dlc_summary_")) {
      llvm::ArrayRef<char> text =
          sym->getBlock().getContent().slice(sym->getOffset(), sym->getSize());
      summaries[(*sym->getName()).substr(strlen("dlc_summary_"))] =
          std::string(text.begin(), text.end());
    }
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  std::error_code ec;
  llvm::raw_fd_ostream os(
      ("/tmp/perf-" + llvm::Twine(llvm::sys::Process::getProcessId()) + ".map").str(), ec,
      llvm::sys::fs::OF_Append);
  if (ec) // a profiling aid: without its file the model still runs
    return llvm::Error::success();
  auto line = [&](uint64_t address, uint64_t size, llvm::StringRef name) {
    os << llvm::format("%llx %llx ", (unsigned long long)address, (unsigned long long)size)
       << name;
    if (name.consume_front("dlc_kernel_"))
      if (auto it = summaries.find(name.take_until([](char c) { return c == '.'; }));
          it != summaries.end())
        os << " " << it->second;
    os << "\n";
  };
  // The code a block holds beyond its named functions (a kernel's loops
  // that OpenMP outlined into a local function, which carries no name into
  // the JIT) is named after the block's first function, with ".outlined".
  llvm::DenseMap<llvm::jitlink::Block *, SmallVector<llvm::jitlink::Symbol *>> named;
  for (llvm::jitlink::Symbol *sym : g.defined_symbols())
    if (sym->hasName() && sym->isCallable() && sym->getSize())
      named[&sym->getBlock()].push_back(sym);
  for (auto &[block, syms] : named) {
    llvm::sort(syms, [](auto *a, auto *b) { return a->getOffset() < b->getOffset(); });
    uint64_t covered = 0;
    std::string outlined = (*syms.front()->getName() + ".outlined").str();
    for (llvm::jitlink::Symbol *sym : syms) {
      if (sym->getOffset() > covered)
        line(block->getAddress().getValue() + covered, sym->getOffset() - covered, outlined);
      line(sym->getAddress().getValue(), sym->getSize(), *sym->getName());
      covered = std::max<uint64_t>(covered, sym->getOffset() + sym->getSize());
    }
    if (covered < block->getSize())
      line(block->getAddress().getValue() + covered, block->getSize() - covered, outlined);
  }
  return llvm::Error::success();
}

/// With DLC_PERF_MAP set (and not 0), every object the JIT links goes to
/// the perf map.
struct PerfMapPlugin : llvm::orc::ObjectLinkingLayer::Plugin {
  void modifyPassConfig(llvm::orc::MaterializationResponsibility &, llvm::jitlink::LinkGraph &,
                        llvm::jitlink::PassConfiguration &config) override {
    config.PostFixupPasses.push_back(appendToPerfMap);
  }
  llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility &) override {
    return llvm::Error::success();
  }
  llvm::Error notifyRemovingResources(llvm::orc::JITDylib &, llvm::orc::ResourceKey) override {
    return llvm::Error::success();
  }
  void notifyTransferringResources(llvm::orc::JITDylib &, llvm::orc::ResourceKey,
                                   llvm::orc::ResourceKey) override {}
};

/// A JIT of its own holding `objects`, with the runtime libraries and the
/// checked malloc to link against. What goes wrong while it links them
/// (memory for the code and the workspace, a missing symbol) is appended to
/// `linkErrors` rather than printed.
static llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
loadObjects(ArrayRef<std::string> objects, std::shared_ptr<std::string> linkErrors) {
  static std::once_flag librariesLoaded;
  std::call_once(librariesLoaded, [] {
    for (StringRef lib : kRuntimeLibs)
      llvm::sys::DynamicLibrary::LoadLibraryPermanently(lib.str().c_str());
  });
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  if (envSwitch("DLC_PERF_MAP"))
    if (auto *linker = dyn_cast<llvm::orc::ObjectLinkingLayer>(&(*jit)->getObjLinkingLayer()))
      linker->addPlugin(std::make_shared<PerfMapPlugin>());
  (*jit)->getExecutionSession().setErrorReporter([linkErrors](llvm::Error e) {
    *linkErrors += (linkErrors->empty() ? "" : "; ") + llvm::toString(std::move(e));
  });
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  // The compiled code's buffers come from this malloc: an allocation the
  // host cannot serve is a message, not a null pointer written through.
  if (llvm::Error e = main.define(llvm::orc::absoluteSymbols(
          {{(*jit)->mangleAndIntern("malloc"),
            {llvm::orc::ExecutorAddr::fromPtr(&checkedMalloc),
             llvm::JITSymbolFlags::Exported}}})))
    return std::move(e);
  for (const std::string &object : objects)
    if (llvm::Error e = (*jit)->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(object)))
      return std::move(e);
  return jit;
}

CPUExecutable::~CPUExecutable() = default;

llvm::Expected<std::unique_ptr<CPUExecutable>>
CPUExecutable::load(ArrayRef<std::string> objects, StringRef symbol, FunctionType signature,
                    MutableArrayRef<Weight> weights, const CompileTimes &times) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<CPUExecutable> exe(new CPUExecutable());
  exe->signature = signature;
  exe->symbol = symbol.str();
  exe->times = times;
  std::vector<size_t> copies;
  for (Weight &w : weights) {
    if (w.owned) {
      exe->weights.emplace_back(std::move(*w.owned));
    } else if (w.keepAlive) {
      exe->weights.emplace_back(w.bytes, std::move(w.keepAlive));
    } else {
      copies.push_back(exe->weights.size());
      exe->weights.emplace_back(w.bytes.size());
    }
    exe->weightShapes.push_back(w.shape);
  }
  // The others copied on all cores: the copy is memory-bound (page faults on
  // fresh pages) and BERT-base's 420 MB took 0.26 s on one.
  llvm::parallelFor(0, copies.size(), [&](size_t i) {
    size_t w = copies[i];
    std::memcpy(exe->weights[w].data, weights[w].bytes.data(), weights[w].bytes.size());
  });
  auto linkErrors = std::make_shared<std::string>();
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit = loadObjects(objects, linkErrors);
  if (!jit)
    return jit.takeError();
  exe->jit = std::move(*jit);
  auto fn = exe->jit->lookup("_mlir__mlir_ciface_" + exe->symbol);
  if (!fn) {
    // The lookup's own error only names the symbols; the cause is what
    // linking reported.
    std::string why = *linkErrors;
    if (why.empty())
      why = llvm::toString(fn.takeError());
    else
      llvm::consumeError(fn.takeError());
    std::string workspace =
        times.workspaceBytes ? "; its workspace, kept between runs, is " +
                                   formatBytes(times.workspaceBytes)
                             : "";
    return llvm::createStringError("the compiled model could not be loaded (" + why + ")" +
                                   workspace);
  }
  exe->entryFn = fn->toPtr<void (*)(void **)>();
  exe->times.cacheMs += msSince(start);
  return exe;
}

struct CPUExecutable::Call {
  std::vector<Buffer> buffers;
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<void *> pointers, args;
  std::vector<Tensor> outputs;
  size_t numInputs = 0;
};

llvm::Expected<std::unique_ptr<CPUExecutable::Call>>
CPUExecutable::prepare(ArrayRef<Tensor> inputs) {
  if (llvm::Error e = checkInputs(signature, inputs))
    return std::move(e);
  auto call = std::make_unique<Call>();
  call->numInputs = inputs.size();
  for (const Tensor &t : inputs) {
    call->buffers.emplace_back(t.size() * width(t.dtype));
    for (int64_t i = 0; i < t.size(); ++i)
      encodeElement(t.dtype, t.data[i], call->buffers.back().data + i * width(t.dtype));
    call->descriptors.push_back(descriptor(call->buffers.back().data, t.shape));
  }
  for (auto [w, shape] : llvm::zip(weights, weightShapes))
    call->descriptors.push_back(descriptor(w.data, shape));
  for (Type type : signature.getResults()) {
    auto rt = cast<RankedTensorType>(type);
    call->outputs.emplace_back(*dtypeOf(rt.getElementType()), rt.getShape());
    call->buffers.emplace_back(call->outputs.back().size() * width(call->outputs.back().dtype));
    call->descriptors.push_back(descriptor(call->buffers.back().data, rt.getShape()));
  }
  for (auto &d : call->descriptors)
    call->pointers.push_back(d.data());
  for (auto &p : call->pointers)
    call->args.push_back(&p);
  return call;
}

llvm::Error CPUExecutable::invoke(Call &call) {
  entryFn(call.args.data());
  return llvm::Error::success();
}

llvm::Expected<std::vector<Tensor>> CPUExecutable::run(ArrayRef<Tensor> inputs) {
  auto call = prepare(inputs);
  if (!call)
    return call.takeError();
  if (llvm::Error e = invoke(**call))
    return std::move(e);
  std::vector<Tensor> outputs = std::move((*call)->outputs);
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor &t = outputs[i];
    const char *data = (*call)->buffers[(*call)->numInputs + i].data;
    for (int64_t j = 0; j < t.size(); ++j)
      t.data[j] = decodeElement(t.dtype, data + j * width(t.dtype));
  }
  return outputs;
}

llvm::Expected<LatencyStats> CPUExecutable::benchmark(ArrayRef<Tensor> inputs,
                                                      int64_t warmup, int64_t runs,
                                                      double minWarmupMs) {
  auto call = prepare(inputs);
  if (!call)
    return call.takeError();
  return dlc::benchmark([&] { return invoke(**call); }, warmup, runs, minWarmupMs);
}

/// The C type of an element type in the generated header.
