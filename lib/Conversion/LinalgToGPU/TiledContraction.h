//===- TiledContraction.h - matrix products tiled in shared memory -*- C++ -*-===//
//
// The GPU kernel of a matrix product (dense layers, attention, convolutions
// after im2col): blocks of output tiles staged through shared memory, each
// thread accumulating several outputs in registers.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CONVERSION_LINALGTOGPU_TILEDCONTRACTION_H
#define DLC_CONVERSION_LINALGTOGPU_TILEDCONTRACTION_H

#include "ProductFusion.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {

/// Threads per block of dlc's kernels, and lanes per warp.
inline constexpr int64_t kGPUBlockThreads = 256, kGPUWarpSize = 32;
/// The shared memory a block may take: 48 KiB without opting in (static
/// buffers), 96 KiB of dynamic shared memory, which the runtime opts in to
/// (from sm_80 on, every chip allows a block 99 KB or more).
inline constexpr int64_t kGPUStaticSharedBytes = 48 << 10, kGPUMostSharedBytes = 96 << 10;

/// The bytes of a buffer of `type` (static shape, elements of whole bytes).
inline int64_t bytesOf(mlir::MemRefType type) {
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// Names `kernel` `name` (for profiles) unless it is empty and ends its
/// body, leaving the insertion point at the body's start.
void startKernel(mlir::RewriterBase &rewriter, mlir::gpu::LaunchOp kernel, llvm::StringRef name);

/// The op by which `acc` (the accumulator of a loop or of a linalg op's
/// body) takes each element, if a warp can combine its lanes' partial
/// results by it: `yielded`'s definition, in the accumulator's block, of
/// two operands and one result, the accumulator's one use, with a neutral
/// element, on f32 or i32 (a warp shuffles 32-bit values). Null otherwise.
mlir::Operation *warpCombiner(mlir::BlockArgument acc, mlir::Value yielded);

/// `combiner` (warpCombiner of `acc`) applied to `accumulated`, in the
/// accumulator's place, and `other`.
mlir::Value combine(mlir::OpBuilder &b, mlir::Operation *combiner, mlir::Value acc,
                    mlir::Value accumulated, mlir::Value other);

/// `partial`, a lane's, combined with the other lanes' of its warp by
/// `combiner` (warpCombiner of `acc`): a butterfly of shuffles, which gives
/// every lane the total.
mlir::Value combineLanes(mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *combiner,
                         mlir::Value acc, mlir::Value partial);

/// The tiles a product may take: at most `maxTile` rows and columns (one of
/// kGPUTileSides, GPUPipeline.h), `depth` reduction elements staged per
/// step (one of kGPUTileDepths; 0: chosen by the product's input types);
/// and the blocks a product of fewer tiles splits its reduction towards
/// (`splitBlocks`, kGPUFewestSplitBlocks to kGPUMostSplitBlocks; 0: chosen
/// by where its products run); and the stages of shared memory a product on
/// f16 or bf16 values copies its inputs into with cp.async (`stages`, up to
/// kGPUMostCopyStages; 0: none, each thread loads its elements a step ahead
/// into registers). With `lastBlockSums`, a product that splits its
/// reduction adds the slices in its own kernel (the last block to finish
/// a tile) rather than in a second one. With `ldmatrix`, a product on
/// tensor cores loads the fragments of its inputs from shared memory with
/// ldmatrix (ldmatrix.trans for f16 or bf16 inputs not contiguous along
/// the reduction), four 8 x 8 matrices a warp's instruction, instead of a
/// word a lane at a time. With `vectorLoads`, a product on tensor cores
/// whose inputs could be copied with cp.async but are not (`stages` 0, or
/// too little shared memory for two) stages them through registers 16
/// bytes a load and a store, in the tiles the copies would fill, instead
/// of an element at a time.
struct TileLimits {
  int64_t maxTile = 128, depth = 0, splitBlocks = 0, stages = 0;
  bool lastBlockSums = false, ldmatrix = false, vectorLoads = false;
};

/// Whether `op` is a product the tiled kernel computes within `limits`: on
/// buffers of static shapes, f32, `out += a * b` over one reduction
/// dimension, inputs and output indexed by projected permutations, at least
/// 16 rows and 16 columns (smaller products go to a warp per output).
bool isTiledContraction(mlir::linalg::LinalgOp op, const TileLimits &limits);

/// Which products of a tiled kernel run on tensor cores (mma.sync, f32
/// accumulation; sm_80 and later): with `narrow`, those whose inputs are
/// f16 or bf16 values (widened to f32 by fused conversions), on those values
/// (nothing rounded); with `tf32`, the others, in TF32 (inputs rounded to
/// 10-bit mantissas).
struct TensorCores {
  bool narrow = false, tf32 = false;
};

/// What launchTiledContraction built: kernels, inputs copied into shared
/// memory with cp.async, split reductions summed by their last block,
/// inputs whose fragments ldmatrix loads, and inputs staged 16 bytes a
/// load.
struct TiledKernelCounts {
  int64_t kernels = 0, copiedInputs = 0, lastBlockSums = 0, ldmatrixInputs = 0,
          vectorInputs = 0;
};

/// Replaces `op` (isTiledContraction with `limits`) and the ops of `fusion`
/// with its tiled gpu.launch, named `name` unless empty. When the product
/// splits its reduction to occupy the GPU, the slices' sums are added in
/// order (the same result on every run) by a second kernel (`name`_sum),
/// or with `limits.lastBlockSums` by the last block to finish each tile,
/// which also applies the epilogue. The products run on tensor cores as
/// `cores` allows, else on each thread in f32.
TiledKernelCounts launchTiledContraction(mlir::IRRewriter &rewriter, mlir::linalg::LinalgOp op,
                               llvm::StringRef name, const TileLimits &limits,
                               const TensorCores &cores,
                               const ProductFusion &fusion);

} // namespace dlc

#endif // DLC_CONVERSION_LINALGTOGPU_TILEDCONTRACTION_H
