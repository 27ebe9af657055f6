//===- GPUCompiler.h - compile a model for NVIDIA GPUs ----------*- C++ -*-===//
//
// The compiler driver behind `dlc-run --target=cuda`: graph passes, then
// lowering through linalg to GPU kernels, NVVM and PTX (GPUPipeline.h).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DRIVER_GPUCOMPILER_H
#define DLC_DRIVER_GPUCOMPILER_H

#include "dlc/Conversion/GPUPipeline.h"
#include "dlc/Runtime/GPUEmulator.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace dlc {

/// The CUDA toolkit to compile with: `cudaPath` if given, else $CUDA_ROOT,
/// $CUDA_HOME, $CUDA_PATH, then /usr/local/cuda, the first that has
/// libdevice (nvvm/libdevice/libdevice.10.bc); an error naming where it
/// looked if none has.
llvm::Expected<std::string> findCUDAToolkit(llvm::StringRef cudaPath = "");

/// Prints a copy of `module` after the graph pipeline `pipeline` and the GPU
/// lowering to `phase` for `target`; at the PTX phase, the kernels' PTX
/// (one module of every kernel). Errors say which phase failed; diagnostics
/// go to the context's handler.
llvm::Error printLoweredForGPU(mlir::ModuleOp module, llvm::StringRef pipeline,
                               GPUPhase phase, const GPUTarget &target, llvm::raw_ostream &os);

/// Ahead-of-time output for the GPU: compiles `entry` of a copy of `module`
/// (graph pipeline `pipeline`, lowering for `target` to the `llvm` phase,
/// kernels as an embedded cubin) to a host object at `objectPath` and writes
/// `headerPath`, the C header of `int <entry>_run(void *const inputs[],
/// void *const outputs[])`, whose buffers are device memory. With
/// `sharedPath`, links the object and dlc's CUDA runtime (no LLVM, no MLIR)
/// into a shared library there: loading it loads the kernels, so it exits
/// with a diagnostic where there is no GPU. The object exports
/// `dlc_<entry>_signature` (ModelExports.h), what dlc-cuda-run reads. With
/// `weightsPath`, weights of kMinExternalWeightBytes or more are written
/// there instead of into the object, which exports a table of them to be
/// filled before the first call; with `weightRecipes`, the zoo's parameters
/// that graph passes left as they were are written as recipes to
/// regenerate them (ModelExports.h). Returns the bytes of the weights
/// written to `weightsPath` (0 without it).
llvm::Expected<uint64_t> emitForGPU(mlir::ModuleOp module, llvm::StringRef entry, llvm::StringRef pipeline,
                                    const GPUTarget &target, llvm::StringRef objectPath,
                                    llvm::StringRef headerPath, llvm::StringRef sharedPath = "",
                                    llvm::StringRef weightsPath = "", bool weightRecipes = true);

/// Compiles `entry` of a copy of `module` (graph pipeline `pipeline`,
/// lowering for `target` to the `gpu` phase) and runs it on `inputs` in
/// dlc's GPU emulator (GPUEmulator.h) on the CPU; returns the outputs.
llvm::Expected<std::vector<Tensor>> emulateForGPU(mlir::ModuleOp module, llvm::StringRef entry,
                                                  llvm::StringRef pipeline,
                                                  const GPUTarget &target,
                                                  llvm::ArrayRef<Tensor> inputs,
                                                  const GPUEmulatorOptions &options = {},
                                                  GPUEmulatorStats *stats = nullptr);

/// The smallest weight `emitForGPU` keeps outside the object.
inline constexpr uint64_t kMinExternalWeightBytes = 1024;

} // namespace dlc

#endif // DLC_DRIVER_GPUCOMPILER_H
