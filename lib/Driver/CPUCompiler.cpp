//===- CPUCompiler.cpp - compile a model for the host CPU and run it -----===//
#include "dlc/Driver/CPUCompiler.h"
#include "dlc/Driver/TemporaryPayloads.h"
#include "CodeGen.h"
#include "dlc/Analysis/Fingerprint.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Memory.h"
#include "dlc/Transforms/PassLedger.h"
#include "dlc/Transforms/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"

#include <chrono>
#include <sys/resource.h>

using namespace mlir;
using namespace dlc;

/// Whether `bytes` lie in one of `source`'s buffers.
static bool inBuffers(const llvm::SourceMgr &source, ArrayRef<char> bytes) {
  for (unsigned id = 1; id <= source.getNumBuffers(); ++id) {
    const llvm::MemoryBuffer *buffer = source.getMemoryBuffer(id);
    if (bytes.begin() >= buffer->getBufferStart() && bytes.end() <= buffer->getBufferEnd())
      return true;
  }
  return false;
}

/// Runs the graph pipeline on `module`.
static llvm::Error runGraphPipeline(ModuleOp module, StringRef pipeline,
                                    CompileTimes *times, PassLedger *ledger = nullptr) {
  auto start = std::chrono::steady_clock::now();
  PassManager graph(module.getContext());
  // The ledger records one pass at a time; lowering threads again after.
  bool threaded = module.getContext()->isMultithreadingEnabled();
  llvm::scope_exit rethread([&] {
    if (threaded && !module.getContext()->isMultithreadingEnabled())
      module.getContext()->enableMultithreading();
  });
  if (ledger)
    ledger->attach(graph);
  if (llvm::Error e = buildPipeline(pipeline, graph))
    return e;
  if (failed(graph.run(module)))
    return llvm::createStringError("the graph pipeline '" + pipeline.str() +
                                   "' failed");
  // Public functions get C entry points (_mlir_ciface_NAME); set after the
  // graph passes, which see the model as its file has it (the tuned
  // pipeline finds its record by the model's fingerprint).
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      func->setAttr("llvm.emit_c_interface", UnitAttr::get(module.getContext()));
  if (times)
    times->graphPassesMs = msSince(start);
  return llvm::Error::success();
}

/// Runs on `module` the part of the CPU lowering `build` adds; its time adds
/// to the lowering's.
static llvm::Error runLowering(ModuleOp module, llvm::function_ref<void(OpPassManager &)> build,
                               CompileTimes *times) {
  // Partitions (PartitionGraph) of targets another backend compiles.
  if (llvm::Error e = checkPartitionBackends(module, {"cpu"}, "CPU"))
    return e;
  auto start = std::chrono::steady_clock::now();
  PassManager pm(module.getContext());
  build(pm);
  if (failed(runLoweringPipeline(pm, module)))
    return llvm::createStringError("lowering for the CPU failed");
  if (times)
    times->loweringMs += msSince(start);
  return llvm::Error::success();
}

/// The payloads a compile's lowering may overwrite: those written under
/// `payloads`, the scope of its copy of the model.
static PayloadPredicate writtenUnder(const TemporaryPayloads &payloads) {
  return [&payloads](DenseResourceElementsAttr attr) { return payloads.created(attr); };
}

/// Runs the graph pipeline, then the CPU lowering to `phase`, on `module`,
/// a copy made under `payloads`.
static llvm::Error lower(ModuleOp module, StringRef pipeline, Phase phase,
                         const TemporaryPayloads &payloads, int64_t threads) {
  if (llvm::Error e = runGraphPipeline(module, pipeline, nullptr))
    return e;
  return runLowering(
      module,
      [&](OpPassManager &pm) {
        buildCPULoweringPipeline(pm, phase, threads, writtenUnder(payloads));
      },
      nullptr);
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
  TemporaryPayloads payloads(module.getContext()); // the weights written into the copy
  OwningOpRef<ModuleOp> copy = module.clone();
  if (llvm::Error e = lower(*copy, pipeline, phase, payloads, threads))
    return e;
  copy->print(os);
  return llvm::Error::success();
}


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

/// A model's cache entry: the keys of its objects, one per line (objects are
/// entries of their own, shared by the models that contain them).
static std::string objectKey(const ObjectPart &part) {
  return cacheKey({"object", part.irDigest, hostTargetIdentity(), compilerIdentity()});
}

/// The objects a model entry lists, if the cache still has all of them.
static std::optional<std::vector<std::string>> loadObjects(CompileCache &store,
                                                           StringRef manifest) {
  SmallVector<StringRef> keys;
  manifest.split(keys, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::vector<std::string> objects;
  for (StringRef key : keys) {
    std::optional<std::string> object = store.load(key);
    if (!object)
      return std::nullopt;
    objects.push_back(std::move(*object));
  }
  return objects;
}

llvm::Expected<std::unique_ptr<CPUExecutable>>
dlc::compileForCPU(ModuleOp module, StringRef entry, StringRef pipeline, int64_t threads,
                   const CacheOptions *cache, unsigned compileThreads, PassLedger *ledger,
                   const std::shared_ptr<const llvm::SourceMgr> &weightsSource) {
  CompileTimes times;
  TemporaryPayloads payloads(module.getContext()); // the weights written into the copy
  OwningOpRef<ModuleOp> copy = module.clone();
  llvm::Expected<func::FuncOp> entryFunc = entryOf(*copy, entry);
  if (!entryFunc)
    return entryFunc.takeError();
  func::FuncOp func = *entryFunc;
  FunctionType signature = func.getFunctionType();
  if (llvm::Error e = runGraphPipeline(*copy, pipeline, &times, ledger))
    return e;
  PassCounts before = passStats();
  if (llvm::Error e = runLowering(
          *copy,
          [&](OpPassManager &pm) {
            buildCPUKernelsPipeline(pm, threads, writtenUnder(payloads));
          },
          &times))
    return e;
  times.weightBytesPackedInPlace = passStats()["dlc-cpu-pack-weights"]["in-place-bytes"] -
                                   before["dlc-cpu-pack-weights"]["in-place-bytes"];
  // Large weights (packed ones too) become extra arguments fed from host
  // buffers: embedded in LLVM IR they would make code generation slow and
  // memory-hungry.
  func = copy->lookupSymbol<func::FuncOp>(entry);
  SmallVector<arith::ConstantOp> weights;
  func.walk([&](arith::ConstantOp c) {
    auto value = dyn_cast<ElementsAttr>(c.getValue());
    if (value && value.getNumElements() >= kWeightArgumentElements && c->getParentOp() == func &&
        rawBytes(value))
      weights.push_back(c);
  });
  // The payloads stay alive in the context (attributes outlive their ops);
  // those this compile wrote (packed, folded) go to the executable instead
  // of being copied, unless another constant holds them too.
  llvm::DenseMap<Attribute, int64_t> holders;
  copy->walk([&](arith::ConstantOp c) { ++holders[c.getValue()]; });
  SmallVector<CPUExecutable::Weight> hoisted;
  for (arith::ConstantOp c : weights) {
    auto value = cast<ElementsAttr>(c.getValue());
    CPUExecutable::Weight &w = hoisted.emplace_back();
    w.bytes = *rawBytes(value);
    w.shape.assign(value.getShapedType().getShape().begin(), value.getShapedType().getShape().end());
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(value); resource && holders[value] == 1)
      w.owned = payloads.take(resource);
    if (w.owned) {
      times.weightBytesWritten += w.bytes.size();
    } else if (weightsSource && inBuffers(*weightsSource, w.bytes) &&
               llvm::isAddrAligned(llvm::Align(64), w.bytes.data())) {
      w.keepAlive = weightsSource;
      times.weightBytesInPlace += w.bytes.size();
    } else {
      times.weightBytesCopied += w.bytes.size();
    }
    BlockArgument arg = func.getBody().addArgument(c.getType(), c.getLoc());
    c.replaceAllUsesWith(arg);
    c.erase();
  }
  func.setType(FunctionType::get(copy->getContext(), func.getBody().getArgumentTypes(),
                                 func.getFunctionType().getResults()));

  // The machine code depends on the kernels as they are now (large weights
  // are arguments: models that differ only in them share code), the host, the
  // compiler and the thread count: the model's entry, keyed by those, lists
  // its objects, each an entry keyed by its own IR.
  std::optional<CompileCache> store;
  std::string key;
  std::optional<std::vector<std::string>> objects;
  std::vector<std::pair<std::string, std::string>> toStore; // key, object
  if (cache && cache->enabled) {
    auto start = std::chrono::steady_clock::now();
    store.emplace(*cache);
    key = cacheKey({structuralFingerprint(*copy), hostTargetIdentity(), compilerIdentity(),
                    "threads=" + std::to_string(threads)});
    if (std::optional<std::string> manifest = store->load(key))
      objects = loadObjects(*store, *manifest);
    times.cache = objects ? CompileTimes::Cache::Hit : CompileTimes::Cache::Miss;
    times.cacheMs += msSince(start);
  }
  if (!objects) {
    if (llvm::Error e = runLowering(
            *copy, [&](OpPassManager &pm) { buildCPUCodePipeline(pm, Phase::LLVM, threads); },
            &times))
      return e;
    PassCounts after = passStats();
    auto delta = [&](StringRef pass, StringRef counter) {
      return after[pass.str()][counter.str()] - before[pass.str()][counter.str()];
    };
    times.kernels = delta("dlc-outline-kernels", "kernels");
    times.distinctKernels = delta("dlc-outline-kernels", "distinct");
    times.bufferBytes = delta("dlc-cpu-plan-buffers", "buffer-bytes");
    times.workspaceBytes = delta("dlc-cpu-plan-buffers", "workspace-bytes");
    auto start = std::chrono::steady_clock::now();
    llvm::Expected<std::vector<ObjectPart>> parts = splitForCodegen(*copy, /*perKernel=*/true);
    if (!parts)
      return parts.takeError();
    times.codegenMs = msSince(start);
    // Objects another model (or an earlier build of this one) compiled.
    if (store) {
      start = std::chrono::steady_clock::now();
      for (ObjectPart &part : *parts)
        if (std::optional<std::string> object = store->load(objectKey(part))) {
          part.object = std::move(*object);
          ++times.objectsFromCache;
        }
      times.cacheMs += msSince(start);
    }
    times.objects = parts->size();
    start = std::chrono::steady_clock::now();
    unsigned parallel = compileThreads ? compileThreads : llvm::hardware_concurrency().compute_thread_count();
    if (llvm::Error e = compileParts(*parts, parallel))
      return e;
    times.codegenMs += msSince(start);
    objects.emplace();
    for (ObjectPart &part : *parts) {
      toStore.emplace_back(objectKey(part), part.object);
      objects->push_back(std::move(part.object));
    }
  }
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) == 0)
    times.peakMemoryMiB = usage.ru_maxrss / 1024.0;
  auto exe = CPUExecutable::load(*objects, entry, signature, hoisted, times);
  // Stored once they loaded: code that does not link is never cached.
  if (exe && store && !toStore.empty()) {
    std::string manifest;
    for (const auto &[partKey, object] : toStore) {
      manifest += partKey + "\n";
      if (llvm::Error e = store->store(partKey, object))
        llvm::WithColor::warning(llvm::errs(), "dlc") << llvm::toString(std::move(e)) << "\n";
    }
    if (llvm::Error e = store->store(key, manifest))
      llvm::WithColor::warning(llvm::errs(), "dlc") << llvm::toString(std::move(e)) << "\n";
  }
  return exe;
}

llvm::Error dlc::emitAOT(ModuleOp module, StringRef entry, StringRef pipeline,
                         StringRef objectPath, StringRef headerPath,
                         StringRef sharedPath, int64_t threads) {
  TemporaryPayloads payloads(module.getContext()); // the weights written into the copy
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
  if (llvm::Error e = lower(*copy, pipeline, Phase::LLVM, payloads, threads))
    return e;
  if (llvm::Error e = writeObject(*copy, objectPath))
    return e;

  if (llvm::Error e = writeCHeader(headerPath, entry, symbol, signature,
                                  "Buffers are contiguous, row-major"))
    return e;

  if (sharedPath.empty())
    return llvm::Error::success();
  return linkShared(sharedPath, objectPath,
                    {"-L/usr/lib/llvm-22/lib", "-lmlir_c_runner_utils", "-lomp",
                     "-Wl,-rpath,/usr/lib/llvm-22/lib", "-lm"});
}
