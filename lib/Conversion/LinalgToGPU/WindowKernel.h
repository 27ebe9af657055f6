//===- WindowKernel.h - window reductions, a thread per output -*- C++ -*-===//
//
// The GPU kernel of a reduction over windows of its input (a depthwise or
// grouped convolution, a pooling): a thread per output element, consecutive
// threads on consecutive elements of the output, each running the window's
// loops with its accumulator in a register. The kernel computes the ops
// around it that ProductFusion finds too: the input's padding, the output's
// initial values and the epilogue.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CONVERSION_LINALGTOGPU_WINDOWKERNEL_H
#define DLC_CONVERSION_LINALGTOGPU_WINDOWKERNEL_H

#include "ProductFusion.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {

/// Whether `op` is a window reduction the kernel computes: on buffers of
/// static shapes, one output indexed by a permutation of its parallel
/// loops, reduction loops, and an input indexed by a sum of loops (a
/// window's position and an offset in it).
bool isWindowReduction(mlir::linalg::LinalgOp op);

/// Replaces `op` (isWindowReduction) and the ops of `fusion` with its
/// gpu.launch, named `name` unless empty.
void launchWindowReduction(mlir::IRRewriter &rewriter, mlir::linalg::LinalgOp op,
                           llvm::StringRef name, const ProductFusion &fusion);

} // namespace dlc

#endif // DLC_CONVERSION_LINALGTOGPU_WINDOWKERNEL_H
