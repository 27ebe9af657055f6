//===- GPUEmulator.h - run GPU kernels on the CPU ---------------*- C++ -*-===//
//
// dlc's GPU emulator: runs a model lowered to the `gpu` phase of the GPU
// pipeline (host functions launching the kernels of a gpu.module) on the
// CPU, so that the kernels dlc generates are checked against the reference
// interpreter on machines without a GPU. Every GPU thread is a fiber; a
// block's fibers run one after another up to each synchronization (block
// barriers, warp shuffles, tensor-core products, warp barriers), which the
// emulator then performs for the threads it joins. Blocks run one after
// another. Memory is the host's: buffers the model allocates and shared
// memory start filled with 0xff bytes (NaN in every float type), as a GPU's
// hold what was there before, so that reading memory nothing wrote shows in
// the outputs; cp.async copies land when a wait_group completes them, not
// before. It interprets the IR, not the PTX LLVM makes of it: what it checks
// is dlc's kernel generation (indices, synchronization, fragment layouts),
// not LLVM's NVPTX backend or ptxas.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_GPUEMULATOR_H
#define DLC_RUNTIME_GPUEMULATOR_H

#include "dlc/Runtime/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace dlc {

/// What an emulated run did.
struct GPUEmulatorStats {
  int64_t launches = 0, blocks = 0, threads = 0;
  int64_t ops = 0; ///< ops run, host code's and every thread's
  /// Each kernel's launches and the ops its threads ran, in the order of
  /// their first launch: what the kernels cost in IR ops, a GPU's time
  /// aside; and the most ops one thread ran, the length of a kernel whose
  /// threads are few and long (each class's NMS, a loop on one thread).
  struct Kernel {
    std::string name;
    int64_t launches = 0, threads = 0, ops = 0, longestThread = 0;
  };
  std::vector<Kernel> kernels;
};

/// How to order what a GPU runs in any order.
struct GPUEmulatorOptions {
  /// A grid's blocks last first, and a block's threads last first up to
  /// each synchronization: kernels whose result depends on which block
  /// finishes last (a split product's sums), or that read another thread's
  /// write with no barrier between, meet the other order.
  bool reverse = false;
};

/// Runs `entry` of `module` (lowered to the `gpu` phase: its arguments are
/// the inputs' buffers, then the outputs') on `inputs` and returns the
/// outputs. An op the emulator does not know, a deadlock (threads of a block
/// waiting at different synchronizations, a barrier some threads exited
/// before), a division by zero or an access outside a buffer is an error
/// naming the op, its kernel and its thread.
llvm::Expected<std::vector<Tensor>>
emulateGPU(mlir::ModuleOp module, llvm::StringRef entry,
           llvm::ArrayRef<Tensor> inputs, const GPUEmulatorOptions &options = {},
           GPUEmulatorStats *stats = nullptr);

} // namespace dlc

#endif // DLC_RUNTIME_GPUEMULATOR_H
