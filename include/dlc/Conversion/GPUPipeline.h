//===- GPUPipeline.h - graph dialect to NVPTX kernels ------------*- C++ -*-===//
#ifndef DLC_CONVERSION_GPUPIPELINE_H
#define DLC_CONVERSION_GPUPIPELINE_H

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace dlc {

/// Where GPU lowering stops (`--compile-to` with `--target=cuda`).
enum class GPUPhase { Graph, Linalg, GPU, NVVM, PTX, LLVM };
std::optional<GPUPhase> parseGPUPhase(llvm::StringRef name);

/// The sides of the output tiles a tiled matrix product may take on the GPU,
/// from the largest.
inline constexpr int64_t kGPUTileSides[] = {128, 64, 32};
/// The reduction elements a tiled product may stage in shared memory per
/// step (0: chosen, see dlc-gpu-map-to-threads' tile-depth).
inline constexpr int64_t kGPUTileDepths[] = {0, 16, 32};
/// The fewest and the most blocks a tiled product may split its reduction
/// towards (dlc-gpu-map-to-threads' split-blocks; 0 there: chosen).
inline constexpr int64_t kGPUFewestSplitBlocks = 32, kGPUMostSplitBlocks = 4096;
/// The fewest and the most stages of shared memory a tiled product may copy
/// its inputs into with cp.async (dlc-gpu-map-to-threads' copy-stages; 0
/// there: none).
inline constexpr int64_t kGPUFewestCopyStages = 2, kGPUMostCopyStages = 4;
/// The attribute marking a buffer (a memref.alloc) that must be zeroed when
/// its kernels first run and that they leave zeroed (a split product's
/// counts of finished slices, dlc-gpu-map-to-threads' last-block-sums):
/// dlc-gpu-host-buffers keeps it in device memory for the process instead
/// of allocating it per call. Sound because the runtime runs a model's
/// launches on one stream, one after another.
inline constexpr llvm::StringLiteral kGPUZeroedBufferAttr = "dlc.gpu.zeroed";

/// The NVIDIA GPU compiled for.
struct GPUTarget {
  /// The compute capability, "sm_80", "sm_90a", ...
  std::string chip = "sm_80";
  /// The CUDA toolkit's root (libdevice, ptxas); empty: MLIR's own search.
  std::string toolkit;
  /// Matrix products on tensor cores in TF32 (sm_80 and later).
  bool tf32 = false;
  /// The most rows and columns of a tiled product's output tile, one of
  /// kGPUTileSides (dlc-gpu-map-to-threads' max-tile).
  int64_t maxTile = 128;
  /// The reduction elements a tiled product stages per step, one of
  /// kGPUTileDepths (dlc-gpu-map-to-threads' tile-depth; 0: chosen).
  int64_t tileDepth = 0;
  /// The blocks a tiled product of fewer splits its reduction towards,
  /// from kGPUFewestSplitBlocks to kGPUMostSplitBlocks
  /// (dlc-gpu-map-to-threads' split-blocks; 0:
  /// chosen).
  int64_t splitBlocks = 0;
  /// The stages of shared memory a tiled product on tensor cores (f16,
  /// bf16, TF32) copies its inputs contiguous along the reduction into with
  /// cp.async,
  /// kGPUFewestCopyStages to kGPUMostCopyStages (dlc-gpu-map-to-threads'
  /// copy-stages; 0: none). None by default: on an H200 3 stages made
  /// BERT-base and ResNet-50 faster (0.80x to 0.92x the time in f16) and
  /// MobileNetV2's 1x1 convolutions of few channels slower (1.6x at batch
  /// 32; bench/gpu/h200-flags).
  int64_t copyStages = 0;
  /// A reduction's kernel also computes the elementwise ops around it
  /// (dlc-gpu-map-to-threads' fuse-reductions). On by default since the
  /// H200 run bench/gpu/h200-flags (BERT-base TF32 at batch 1: 0.95x the
  /// time; other models level).
  bool fuseReductions = true;
  /// Runs of row-wise ops (a layer norm, a softmax) one kernel each, a warp
  /// per row (dlc-gpu-merge-row-kernels, dlc-gpu-map-to-threads'
  /// row-kernels). On by default since bench/gpu/h200-flags (BERT-base at
  /// batch 1: 0.82x the time in f16, 0.88x in TF32).
  bool rowKernels = true;
  /// A product's kernel also computes the elementwise or layout function
  /// after it (a conversion, BERT's head transposes; dlc-gpu-merge-epilogues).
  /// On by default since bench/gpu/h200-flags (BERT-base at batch 1: 0.92x
  /// the time in f16, 0.97x in TF32).
  bool mergeEpilogues = true;
  /// A product that splits its reduction adds the slices in its own kernel,
  /// the last block to finish each tile, instead of a second kernel
  /// (dlc-gpu-map-to-threads' last-block-sums). Off by default: measured
  /// slower on an H200 (bench/gpu/h200-flags: up to 1.5x the time at
  /// batch 1, never less).
  bool lastBlockSums = false;
  /// A tiled product on tensor cores (f16, bf16, TF32) loads the fragments
  /// of its inputs with ldmatrix (ldmatrix.trans for f16 or bf16 inputs not
  /// contiguous along the reduction; dlc-gpu-map-to-threads' ldmatrix). Off
  /// by default until a GPU has timed it (emulated and assembled only so
  /// far).
  bool ldmatrix = false;
  /// A tiled product on tensor cores stages the inputs it could copy with
  /// cp.async but does not (copyStages 0) through registers 16 bytes a
  /// load and a store (dlc-gpu-map-to-threads' vector-loads). Off by
  /// default until a GPU has timed it (emulated and assembled only so far).
  bool vectorLoads = false;

  /// The target for `--gpu-arch=ARCH`, or an error naming the supported
  /// ones.
  static llvm::Expected<GPUTarget> get(llvm::StringRef arch);
  /// The PTX ISA version the chip needs ("+ptx80", ...).
  std::string ptxFeatures() const;
  /// Whether the chip has sm_80's tensor cores (mma.sync on TF32, and
  /// m16n8k16 on f16 and bf16): sm_80 and later. Products of f16 or bf16
  /// values then run on them always, f32 ones with `tf32`.
  bool hasTensorCores() const;
};

/// Adds the passes that lower a graph-dialect module (after its graph
/// passes) to NVIDIA GPU kernels, stopping after `stopAfter`:
///   linalg: convert-graph-to-linalg, elementwise fusion (as on the CPU);
///   gpu:    one-shot bufferization (results become out-parameters), every
///           loop nest a kernel (dlc-gpu-map-to-threads), the kernel
///           functions inlined into their callers, buffers in device memory
///           (dlc-gpu-host-buffers), the kernels outlined into one gpu.module;
///   nvvm:   the kernels in the NVVM and LLVM dialects, for `target`;
///   ptx:    the kernels compiled to PTX (a gpu.binary of one object);
///   llvm:   instead of ptx, the kernels assembled by ptxas (a cubin in a
///           gpu.binary) and the host code in the LLVM dialect, launching
///           them asynchronously on one stream through the mgpu* calls
///           (DLCCUDARuntime), synchronized where a function returns.
void buildGPULoweringPipeline(mlir::OpPassManager &pm, GPUPhase stopAfter,
                              const GPUTarget &target);

/// Dialects and interfaces the GPU pipeline needs (GPU, NVVM, their LLVM IR
/// translation and the NVVM target), on top of the CPU pipeline's.
void registerGPUCompilerDialects(mlir::DialectRegistry &registry);

} // namespace dlc

#endif // DLC_CONVERSION_GPUPIPELINE_H
