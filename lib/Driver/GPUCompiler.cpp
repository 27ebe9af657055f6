//===- GPUCompiler.cpp - compile a model for NVIDIA GPUs -------------------===//
#include "dlc/Driver/GPUCompiler.h"
#include "dlc/Driver/TemporaryPayloads.h"
#include "CodeGen.h"
#include "ModelExports.h"
#include "dlc/Conversion/CPUPipeline.h"
#include "dlc/Runtime/OutputCheck.h"
#include "dlc/Transforms/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace mlir;
using namespace dlc;

llvm::Expected<std::string> dlc::findCUDAToolkit(llvm::StringRef cudaPath) {
  std::vector<std::string> candidates;
  if (!cudaPath.empty())
    candidates.push_back(cudaPath.str());
  else {
    for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
      if (std::optional<std::string> v = llvm::sys::Process::GetEnv(var); v && !v->empty())
        candidates.push_back(*v);
    candidates.push_back("/usr/local/cuda");
  }
  std::string looked;
  for (const std::string &root : candidates) {
    llvm::SmallString<128> libdevice(root);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(libdevice))
      return root;
    looked += (looked.empty() ? "" : ", ") + root;
  }
  return llvm::createStringError(
      "no CUDA toolkit with libdevice (nvvm/libdevice/libdevice.10.bc) in " + looked +
      (cudaPath.empty() ? "; give --cuda-path or set CUDA_ROOT" : ""));
}

/// Runs the graph pipeline on `module`, then the GPU lowering to `phase`.
static llvm::Error lowerForGPU(ModuleOp module, StringRef pipeline, GPUPhase phase,
                               const GPUTarget &target) {
  PassManager graph(module.getContext());
  if (llvm::Error e = buildPipeline(pipeline, graph, "cuda"))
    return e;
  if (failed(graph.run(module)))
    return llvm::createStringError("the graph pipeline '" + pipeline.str() + "' failed");
  // Partitions (PartitionGraph): dlc's own kernels, or cuBLAS's products
  // (dlc-gpu-external-products).
  if (llvm::Error e = checkPartitionBackends(module, {"cuda", "cublas"}, "GPU"))
    return e;
  // Public functions get C entry points (_mlir_ciface_NAME).
  for (auto f : module.getOps<func::FuncOp>())
    if (f.isPublic() && !f.isExternal())
      f->setAttr("llvm.emit_c_interface", UnitAttr::get(module.getContext()));
  PassManager pm(module.getContext());
  buildGPULoweringPipeline(pm, phase, target);
  if (failed(runLoweringPipeline(pm, module)))
    return llvm::createStringError("lowering for the GPU (" + target.chip + ") failed");
  return llvm::Error::success();
}

llvm::Error dlc::printLoweredForGPU(ModuleOp module, StringRef pipeline, GPUPhase phase,
                                    const GPUTarget &target, llvm::raw_ostream &os) {
  TemporaryPayloads payloads(module.getContext()); // the weights written into the copy
  OwningOpRef<ModuleOp> copy = module.clone();
  if (llvm::Error e = lowerForGPU(*copy, pipeline, phase, target))
    return e;
  if (phase != GPUPhase::PTX) {
    copy->print(os);
    return llvm::Error::success();
  }
  for (auto binary : copy->getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects()) {
      os << "// gpu.binary @" << binary.getName() << " for " << target.chip << "\n";
      os << cast<gpu::ObjectAttr>(object).getObject().getValue();
    }
  return llvm::Error::success();
}

llvm::Expected<std::vector<Tensor>> dlc::emulateForGPU(ModuleOp module, StringRef entry,
                                                      StringRef pipeline, const GPUTarget &target,
                                                      llvm::ArrayRef<Tensor> inputs,
                                                      const GPUEmulatorOptions &options,
                                                      GPUEmulatorStats *stats) {
  TemporaryPayloads payloads(module.getContext()); // the weights the copy reads
  OwningOpRef<ModuleOp> copy = module.clone();
  if (llvm::Error e = lowerForGPU(*copy, pipeline, GPUPhase::GPU, target))
    return std::move(e);
  return emulateGPU(*copy, entry, inputs, options, stats);
}

/// dlc's CUDA runtime archive: beside the running program (its ../lib, as
/// in the build tree and an installation), where dlc is installed, or in the
/// build tree it was built in; an error naming where it looked.
static llvm::Expected<std::string> findCUDARuntimeArchive() {
  std::vector<std::string> candidates;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!self.empty()) {
    llvm::SmallString<256> beside(llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)));
    llvm::sys::path::append(beside, "lib", llvm::sys::path::filename(DLC_CUDA_RUNTIME_ARCHIVE));
    candidates.push_back(std::string(beside));
  }
  candidates.push_back(DLC_CUDA_RUNTIME_INSTALLED);
  candidates.push_back(DLC_CUDA_RUNTIME_ARCHIVE);
  for (const std::string &c : candidates)
    if (llvm::sys::fs::exists(c))
      return c;
  return llvm::createStringError("dlc's CUDA runtime archive is in none of " +
                                 llvm::join(candidates, ", ") + " (is dlc installed whole?)");
}

llvm::Expected<uint64_t> dlc::emitForGPU(ModuleOp module, StringRef entry, StringRef pipeline,
                            const GPUTarget &target, StringRef objectPath, StringRef headerPath,
                            StringRef sharedPath, StringRef weightsPath, bool weightRecipes) {
  TemporaryPayloads payloads(module.getContext()); // the weights written into the copy
  OwningOpRef<ModuleOp> copy = module.clone();
  auto entryFunc = copy->lookupSymbol<func::FuncOp>(entry);
  if (!entryFunc)
    return llvm::createStringError("no function @" + entry.str());
  entryFunc.setPublic();
  FunctionType signature = entryFunc.getFunctionType();
  std::vector<DetectionOutputs> detections = findDetectionOutputs(entryFunc);
  SmallVector<std::optional<std::pair<int64_t, int64_t>>> inputRanges;
  for (unsigned i = 0; i < signature.getNumInputs(); ++i) {
    auto r = entryFunc.getArgAttrOfType<DenseI64ArrayAttr>(i, "dlc.input_range");
    inputRanges.push_back(r && r.size() == 2 ? std::optional(std::make_pair(r[0], r[1]))
                                             : std::nullopt);
  }
  // Exported symbols are prefixed so that a model's @main cannot clash with
  // the program's main.
  std::string symbol = "dlc_" + entry.str();
  if (failed(SymbolTable(*copy).rename(entryFunc, StringAttr::get(copy->getContext(), symbol))))
    return llvm::createStringError("cannot rename @" + entry.str());
  if (llvm::Error e = lowerForGPU(*copy, pipeline, GPUPhase::LLVM, target))
    return e;
  addSignatureExport(*copy, symbol, signature, inputRanges, detections);
  uint64_t weightBytes = 0;
  if (!weightsPath.empty()) {
    llvm::Expected<WeightsWritten> written =
        externalizeWeights(*copy, symbol, weightsPath, kMinExternalWeightBytes, weightRecipes);
    if (!written)
      return written.takeError();
    weightBytes = written->bytes;
  }
  if (llvm::Error e = writeObject(*copy, objectPath))
    return e;
  if (llvm::Error e = writeCHeader(headerPath, entry, symbol, signature,
                                  "Buffers are device memory (mgpuMemAlloc), contiguous, "
                                  "row-major; the call returns once the GPU is done"))
    return e;
  if (sharedPath.empty())
    return weightBytes;
  // dlc's CUDA runtime, whole: the library exports its mgpu* calls for the
  // program that feeds the model.
  llvm::Expected<std::string> runtime = findCUDARuntimeArchive();
  if (!runtime)
    return runtime.takeError();
  if (llvm::Error e = linkShared(sharedPath, objectPath,
                                 {"-Wl,--whole-archive", *runtime, "-Wl,--no-whole-archive",
                                  "-lstdc++", "-ldl", "-lpthread"}))
    return std::move(e);
  return weightBytes;
}
