//===- GPUCompiler.cpp - compile a model for NVIDIA GPUs -------------------===//
#include "dlc/Driver/GPUCompiler.h"
#include "dlc/Transforms/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
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

llvm::Error dlc::printLoweredForGPU(ModuleOp module, StringRef pipeline, GPUPhase phase,
                                    const GPUTarget &target, llvm::raw_ostream &os) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager graph(module.getContext());
  if (llvm::Error e = buildPipeline(pipeline, graph))
    return e;
  if (failed(graph.run(*copy)))
    return llvm::createStringError("the graph pipeline '" + pipeline.str() + "' failed");
  PassManager pm(module.getContext());
  buildGPULoweringPipeline(pm, phase, target);
  if (failed(pm.run(*copy)))
    return llvm::createStringError("lowering for the GPU (" + target.chip + ") failed");
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
