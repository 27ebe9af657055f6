//===- CPUCompiler.cpp - compile a model for the host CPU and run it -----===//
#include "dlc/Driver/CPUCompiler.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Memory.h"
#include "dlc/Transforms/Pipelines.h"
#include "dlc/Transforms/TargetDescription.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "dlc/Analysis/Fingerprint.h"
#include "dlc/Transforms/PassLedger.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/SplitModule.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cstring>
#include <mutex>
#include <sys/resource.h>

using namespace mlir;
using namespace dlc;

static double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

/// The host target's code generators, once per process.
static void initializeHostTarget() {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

/// LLVM's optimizer at O3 for `tm`, with full-width vectors (x86 tunings
/// such as znver4/5 prefer 256-bit vectors, which splits the register tiles
/// of the vectorized kernels in two and spills them) and without loop
/// unrolling: dlc's kernels come out of MLIR already register-tiled and
/// unrolled where it pays, and LLVM's unroller turned their loops into basic
/// blocks so large that the machine scheduler's quadratic dependency graphs
/// took most of the compile time (ResNet-50: 6.6 s -> 1.6 s cold, latency
/// unchanged; bench/compile_time.py).
static std::function<llvm::Error(llvm::Module *)>
optimizer(llvm::TargetMachine *tm) {
  return [tm](llvm::Module *m) {
    for (llvm::Function &f : *m)
      if (!f.isDeclaration()) {
        f.addFnAttr("prefer-vector-width", "512");
        f.addFnAttr("min-legal-vector-width", "512");
      }
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = false;
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(tm, tuning);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    mpm.run(*m, mam);
    return llvm::Error::success();
  };
}

/// Runs the graph pipeline on `module`.
static llvm::Error runGraphPipeline(ModuleOp module, StringRef pipeline,
                                    CompileTimes *times) {
  // Public functions get C entry points (_mlir_ciface_NAME).
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      func->setAttr("llvm.emit_c_interface", UnitAttr::get(module.getContext()));
  auto start = std::chrono::steady_clock::now();
  PassManager graph(module.getContext());
  if (llvm::Error e = buildPipeline(pipeline, graph))
    return e;
  // The CPU's weight layout, decided while the weights are still constants
  // (large ones become arguments before lowering).
  graph.addNestedPass<func::FuncOp>(createCPUTransposeDenseWeightsPass());
  if (failed(graph.run(module)))
    return llvm::createStringError("the graph pipeline '" + pipeline.str() +
                                   "' failed");
  if (times)
    times->graphPassesMs = msSince(start);
  return llvm::Error::success();
}

/// Runs the CPU lowering to `phase` on `module`.
static llvm::Error runLowering(ModuleOp module, Phase phase, CompileTimes *times,
                               int64_t threads) {
  // Partitions (PartitionGraph) of targets another backend compiles.
  for (auto func : module.getOps<func::FuncOp>())
    if (auto backend = func->getAttrOfType<StringAttr>(kBackendAttr); backend && backend != "cpu")
      return llvm::createStringError("function @" + func.getSymName().str() +
                                     " is a partition for backend '" + backend.getValue().str() +
                                     "'; the CPU backend compiles only 'cpu' partitions");
  auto start = std::chrono::steady_clock::now();
  PassManager pm(module.getContext());
  buildCPULoweringPipeline(pm, phase, threads);
  if (failed(pm.run(module)))
    return llvm::createStringError("lowering for the CPU failed");
  if (times)
    times->loweringMs = msSince(start);
  return llvm::Error::success();
}

/// Runs the graph pipeline, then the CPU lowering to `phase`, on `module`.
static llvm::Error lower(ModuleOp module, StringRef pipeline, Phase phase,
                         CompileTimes *times, int64_t threads) {
  if (llvm::Error e = runGraphPipeline(module, pipeline, times))
    return e;
  return runLowering(module, phase, times, threads);
}

/// The native bytes of a constant payload, if it has them (dense_resource
/// blobs and non-splat dense attributes).
static std::optional<ArrayRef<char>> rawBytes(ElementsAttr attr) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return blob->getData();
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    if (!dense.isSplat() && !dense.getElementType().isInteger(1))
      return dense.getRawData();
  return std::nullopt;
}

llvm::Error dlc::printLowered(ModuleOp module, StringRef pipeline, Phase phase,
                              llvm::raw_ostream &os, int64_t threads) {
  OwningOpRef<ModuleOp> copy = module.clone();
  if (llvm::Error e = lower(*copy, pipeline, phase, nullptr, threads))
    return e;
  copy->print(os);
  return llvm::Error::success();
}

/// Constants of at least this many elements are fed as arguments (JIT).
static constexpr int64_t kHoistElements = 4096;

/// The entry function of the compiled copy, public (it gets the C entry
/// point), after checking that no tensor of the module is too large for this
/// machine: the compiled code allocates them without a way to report it.
static llvm::Expected<func::FuncOp> entryOf(ModuleOp copy, StringRef entry) {
  auto func = copy.lookupSymbol<func::FuncOp>(entry);
  if (!func)
    return llvm::createStringError("no function @" + entry.str());
  func.setPublic();
  std::string error;
  copy.walk([&](Operation *op) {
    for (Value v : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      std::optional<DType> dtype = type ? dtypeOf(type.getElementType()) : std::nullopt;
      if (!dtype || !type.hasStaticShape())
        continue;
      std::string tooLarge = checkFitsInMemory(
          static_cast<uint64_t>(type.getNumElements()) * dtypeBytes(*dtype));
      if (!tooLarge.empty()) {
        llvm::raw_string_ostream os(error);
        os << "'" << op->getName() << "' at " << op->getLoc() << ": result "
           << type << " " << tooLarge;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (!error.empty())
    return llvm::createStringError(error);
  return func;
}

/// For every C entry point `_mlir_ciface_NAME`, `_mlir__mlir_ciface_NAME(void
/// **args)`: calls it with `*args[i]` as argument i (what MLIR's
/// ExecutionEngine calls packed arguments).
static void addPackedEntryPoints(llvm::Module &m) {
  SmallVector<llvm::Function *> entries;
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && f.getName().starts_with("_mlir_ciface_"))
      entries.push_back(&f);
  llvm::IRBuilder<> b(m.getContext());
  llvm::Type *ptr = b.getPtrTy();
  for (llvm::Function *f : entries) {
    auto *wrapper = llvm::Function::Create(
        llvm::FunctionType::get(b.getVoidTy(), {ptr}, /*isVarArg=*/false),
        llvm::GlobalValue::ExternalLinkage, "_mlir_" + f->getName(), m);
    b.SetInsertPoint(llvm::BasicBlock::Create(m.getContext(), "entry", wrapper));
    SmallVector<llvm::Value *> args;
    for (auto [i, arg] : llvm::enumerate(f->args())) {
      llvm::Value *slot = b.CreateGEP(ptr, wrapper->getArg(0), b.getInt64(i));
      args.push_back(b.CreateLoad(arg.getType(), b.CreateLoad(ptr, slot)));
    }
    llvm::Value *result = b.CreateCall(f, args);
    if (!result->getType()->isVoidTy()) {
      llvm::Value *slot = b.CreateGEP(ptr, wrapper->getArg(0), b.getInt64(f->arg_size()));
      b.CreateStore(result, b.CreateLoad(ptr, slot));
    }
    b.CreateRetVoid();
  }
}

/// Machine code for a module lowered to the LLVM dialect: relocatable
/// objects (with packed entry points, addPackedEntryPoints) made on up to
/// `threads` threads, the functions split round robin between them, each
/// part optimized and compiled in an LLVM context of its own.
static llvm::Expected<std::vector<std::string>> generateObjects(ModuleOp module,
                                                                unsigned threads) {
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return tmBuilder.takeError();
  tmBuilder->setRelocationModel(llvm::Reloc::PIC_);
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto tm = tmBuilder->createTargetMachine();
  if (!tm)
    return tm.takeError();
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> whole = translateModuleToLLVMIR(module, context, "dlc");
  if (!whole)
    return llvm::createStringError("translation to LLVM IR failed");
  whole->setDataLayout((*tm)->createDataLayout());
  whole->setTargetTriple((*tm)->getTargetTriple());
  addPackedEntryPoints(*whole);

  // The parts travel as bitcode: an LLVM context is one thread's.
  std::vector<llvm::SmallString<0>> parts;
  auto keep = [&](const llvm::Module &part) {
    llvm::raw_svector_ostream os(parts.emplace_back());
    llvm::WriteBitcodeToFile(part, os);
  };
  int64_t functions = llvm::count_if(*whole, [](llvm::Function &f) { return !f.isDeclaration(); });
  unsigned n = std::max<int64_t>(1, std::min<int64_t>(threads, functions));
  if (n == 1)
    keep(*whole);
  else
    llvm::SplitModule(*whole, n, [&](std::unique_ptr<llvm::Module> part) { keep(*part); },
                      /*PreserveLocals=*/false, /*RoundRobin=*/true);

  std::vector<std::string> objects(parts.size());
  std::vector<std::string> errors(parts.size());
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(n));
  for (size_t i = 0; i < parts.size(); ++i)
    pool.async([&, i] {
      llvm::LLVMContext partContext;
      auto part = llvm::parseBitcodeFile(
          llvm::MemoryBufferRef(parts[i].str(), "part"), partContext);
      auto partTM = tmBuilder->createTargetMachine();
      if (!part || !partTM) {
        errors[i] = !part ? llvm::toString(part.takeError()) : llvm::toString(partTM.takeError());
        return;
      }
      if (llvm::Error e = optimizer(partTM->get())(part->get())) {
        errors[i] = llvm::toString(std::move(e));
        return;
      }
      llvm::raw_string_ostream os(objects[i]);
      llvm::buffer_ostream out(os);
      llvm::legacy::PassManager codegen;
      if ((*partTM)->addPassesToEmitFile(codegen, out, nullptr,
                                         llvm::CodeGenFileType::ObjectFile)) {
        errors[i] = "the target cannot emit object files";
        return;
      }
      codegen.run(**part);
    });
  pool.wait();
  for (const std::string &e : errors)
    if (!e.empty())
      return llvm::createStringError("code generation: " + e);
  return objects;
}

/// Objects in one cache entry: their count, then each one's size and bytes.
static std::string packObjects(ArrayRef<std::string> objects) {
  std::string out = std::to_string(objects.size()) + "\n";
  for (const std::string &o : objects)
    out += std::to_string(o.size()) + "\n" + o;
  return out;
}

static std::optional<std::vector<std::string>> unpackObjects(StringRef bytes) {
  auto number = [&](uint64_t &n) {
    auto [digits, rest] = bytes.split('\n');
    bytes = rest;
    return !digits.getAsInteger(10, n);
  };
  uint64_t count;
  if (!number(count))
    return std::nullopt;
  std::vector<std::string> objects;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t size;
    if (!number(size) || bytes.size() < size)
      return std::nullopt;
    objects.push_back(bytes.take_front(size).str());
    bytes = bytes.drop_front(size);
  }
  return objects;
}

llvm::Expected<std::unique_ptr<CPUExecutable>>
dlc::compileForCPU(ModuleOp module, StringRef entry, StringRef pipeline, int64_t threads,
                   const CacheOptions *cache, unsigned compileThreads) {
  initializeHostTarget();
  CompileTimes times;
  OwningOpRef<ModuleOp> copy = module.clone();
  llvm::Expected<func::FuncOp> entryFunc = entryOf(*copy, entry);
  if (!entryFunc)
    return entryFunc.takeError();
  func::FuncOp func = *entryFunc;
  FunctionType signature = func.getFunctionType();
  if (llvm::Error e = runGraphPipeline(*copy, pipeline, &times))
    return e;
  // Large weights become extra arguments fed from host buffers: embedded in
  // LLVM IR they would make code generation slow and memory-hungry.
  func = copy->lookupSymbol<func::FuncOp>(entry);
  SmallVector<graph::ConstantOp> weights;
  func.walk([&](graph::ConstantOp c) {
    if (c.getType().getNumElements() >= kHoistElements && c->getParentOp() == func &&
        rawBytes(c.getValue()))
      weights.push_back(c);
  });
  // The payloads stay alive in the context (attributes outlive their ops).
  SmallVector<CPUExecutable::Weight> hoisted;
  for (graph::ConstantOp c : weights) {
    hoisted.push_back({*rawBytes(c.getValue()), SmallVector<int64_t>(c.getType().getShape())});
    BlockArgument arg = func.getBody().addArgument(c.getType(), c.getLoc());
    c.replaceAllUsesWith(arg);
    c.erase();
  }
  func.setType(FunctionType::get(copy->getContext(), func.getBody().getArgumentTypes(),
                                 func.getFunctionType().getResults()));

  // The machine code depends on the graph as it is now (large weights are
  // arguments: models that differ only in them share code), the host, the
  // compiler and the thread count.
  std::optional<CompileCache> store;
  std::string key;
  std::optional<std::vector<std::string>> objects;
  if (cache && cache->enabled) {
    auto start = std::chrono::steady_clock::now();
    store.emplace(*cache);
    std::string features;
    for (const auto &f : llvm::sys::getHostCPUFeatures())
      if (f.second)
        features += f.first().str() + ",";
    key = cacheKey({structuralFingerprint(*copy), llvm::sys::getHostCPUName().str(), features,
                    compilerIdentity(), "threads=" + std::to_string(threads)});
    if (std::optional<std::string> entry = store->load(key))
      objects = unpackObjects(*entry);
    times.cache = objects ? CompileTimes::Cache::Hit : CompileTimes::Cache::Miss;
    times.cacheMs += msSince(start);
  }
  if (!objects) {
    PassCounts before = passStats();
    if (llvm::Error e = runLowering(*copy, Phase::LLVM, &times, threads))
      return e;
    PassCounts after = passStats();
    auto delta = [&](StringRef counter) {
      return after["dlc-outline-kernels"][counter.str()] -
             before["dlc-outline-kernels"][counter.str()];
    };
    times.kernels = delta("kernels");
    times.distinctKernels = delta("distinct");
    auto start = std::chrono::steady_clock::now();
    unsigned parallel = compileThreads ? compileThreads : llvm::hardware_concurrency().compute_thread_count();
    llvm::Expected<std::vector<std::string>> compiled = generateObjects(*copy, parallel);
    if (!compiled)
      return compiled.takeError();
    objects = std::move(*compiled);
    times.codegenMs = msSince(start);
    if (store)
      if (llvm::Error e = store->store(key, packObjects(*objects)))
        llvm::WithColor::warning(llvm::errs(), "dlc") << llvm::toString(std::move(e)) << "\n";
  }
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) == 0)
    times.peakMemoryMiB = usage.ru_maxrss / 1024.0;
  return CPUExecutable::load(*objects, entry, signature, hoisted, times);
}

static const char *cType(DType t) {
  switch (t) {
  case DType::F32: return "float";
  case DType::F64: return "double";
  case DType::F16:
  case DType::BF16: return "uint16_t";
  case DType::I8:
  case DType::I1: return "int8_t";
  case DType::I32: return "int32_t";
  case DType::I64: return "int64_t";
  }
  return "void";
}

llvm::Error dlc::emitAOT(ModuleOp module, StringRef entry, StringRef pipeline,
                         StringRef objectPath, StringRef headerPath,
                         StringRef sharedPath, int64_t threads) {
  initializeHostTarget();
  OwningOpRef<ModuleOp> copy = module.clone();
  llvm::Expected<func::FuncOp> entryFunc = entryOf(*copy, entry);
  if (!entryFunc)
    return entryFunc.takeError();
  func::FuncOp func = *entryFunc;
  FunctionType signature = func.getFunctionType();
  // Exported symbols are prefixed so that a model's @main cannot clash with
  // the program's main.
  std::string symbol = "dlc_" + entry.str();
  SymbolTable symbols(*copy);
  if (failed(symbols.rename(func, StringAttr::get(copy->getContext(), symbol))))
    return llvm::createStringError("cannot rename @" + entry.str());
  if (llvm::Error e = lower(*copy, pipeline, Phase::LLVM, nullptr, threads))
    return e;
  // One object: the program links it whole.
  llvm::Expected<std::vector<std::string>> objects = generateObjects(*copy, 1);
  if (!objects)
    return objects.takeError();
  std::error_code ec;
  llvm::raw_fd_ostream obj(objectPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(objectPath.str() + ": cannot write: " + ec.message());
  obj << objects->front();
  obj.close();

  // The C header: descriptors built from plain buffers.
  llvm::raw_fd_ostream h(headerPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(headerPath.str() + ": cannot write: " + ec.message());
  std::string name = entry.str();
  h << "/* Generated by dlc: the C entry point of @" << name << ". */\n"
    << "#pragma once\n#include <stdint.h>\n\n";
  SmallVector<Type> all(signature.getInputs());
  llvm::append_range(all, signature.getResults());
  h << "/* Buffers are contiguous, row-major:\n";
  for (auto [i, type] : llvm::enumerate(all)) {
    auto rt = cast<RankedTensorType>(type);
    DType dt = *dtypeOf(rt.getElementType());
    h << " *   " << (i < signature.getNumInputs() ? "input " : "output ")
      << (i < signature.getNumInputs() ? i : i - signature.getNumInputs()) << ": "
      << cType(dt) << "[" << rt.getNumElements() << "]  (" << dtypeName(dt) << " "
      << formatShape(rt.getShape()) << ")\n";
  }
  h << " */\n";
  h << "enum { " << name << "_num_inputs = " << signature.getNumInputs() << ", "
    << name << "_num_outputs = " << signature.getNumResults() << " };\n\n";
  h << "void _mlir_ciface_" << symbol << "(";
  for (size_t i = 0; i < all.size(); ++i)
    h << (i ? ", " : "") << "void *";
  h << ");\n\n";
  h << "static inline int " << name << "_run(void *const inputs[], void *const outputs[]) {\n";
  for (auto [i, type] : llvm::enumerate(all)) {
    auto rt = cast<RankedTensorType>(type);
    int64_t rank = rt.getRank();
    bool isIn = i < signature.getNumInputs();
    std::string ptr = isIn ? "inputs[" + std::to_string(i) + "]"
                           : "outputs[" + std::to_string(i - signature.getNumInputs()) + "]";
    h << "  struct { void *allocated, *aligned; int64_t offset";
    if (rank)
      h << ", sizes[" << rank << "], strides[" << rank << "]";
    h << "; } d" << i << " = {" << ptr << ", " << ptr << ", 0";
    if (rank) {
      h << ", {";
      for (int64_t d = 0; d < rank; ++d)
        h << (d ? ", " : "") << rt.getDimSize(d);
      h << "}, {";
      Shape strides = rowMajorStrides(rt.getShape());
      for (int64_t d = 0; d < rank; ++d)
        h << (d ? ", " : "") << strides[d];
      h << "}";
    }
    h << "};\n";
  }
  h << "  _mlir_ciface_" << symbol << "(";
  for (size_t i = 0; i < all.size(); ++i)
    h << (i ? ", " : "") << "&d" << i;
  h << ");\n  return 0;\n}\n";
  h.close();

  if (sharedPath.empty())
    return llvm::Error::success();
  auto cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return llvm::createStringError("--emit=shared needs a C compiler (cc) on PATH");
  std::string err;
  SmallVector<StringRef> args{*cc, "-shared", "-o", sharedPath, objectPath,
                              "-L/usr/lib/llvm-22/lib", "-lmlir_c_runner_utils", "-lomp",
                              "-Wl,-rpath,/usr/lib/llvm-22/lib", "-lm"};
  if (llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0, &err) != 0)
    return llvm::createStringError("linking " + sharedPath.str() + " failed: " + err);
  return llvm::Error::success();
}
