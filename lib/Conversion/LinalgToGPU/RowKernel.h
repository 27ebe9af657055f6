//===- RowKernel.h - a chain of row-wise ops as one kernel, a warp per row -*- C++ -*-===//
//
// A layer norm or a softmax is a chain of ops over the rows of a matrix:
// reductions along each row (a sum, a maximum) and elementwise ops reading
// whole rows and the rows' reductions. Where every op works on each row
// apart from the others, the whole chain runs as one kernel: a warp per
// row runs the ops in turn, its lanes striding over the row's elements,
// each reduction combined by a butterfly of shuffles, the warp synchronized
// between ops (its lanes read what the others wrote). The chain launches
// one kernel instead of one or more per op.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CONVERSION_LINALGTOGPU_ROWKERNEL_H
#define DLC_CONVERSION_LINALGTOGPU_ROWKERNEL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {

/// An op of a row kernel: its first `leading` loops run over the rows (the
/// warp's row is their linear index), the one after them, if any, over a
/// row's elements (the lanes').
struct RowOp {
  mlir::Operation *op;
  unsigned leading;
};

/// The ops of a function's body as a row kernel.
struct RowKernel {
  /// The rows, the number the reductions fix; 0: the ops have no
  /// reduction (they could run as a row kernel of any number of rows, not
  /// checked).
  int64_t rows = 0;
  /// The ops in order (linalg ops on buffers, memref.copy).
  llvm::SmallVector<RowOp> ops;
};

/// The row kernel the body of `func` is, if it is one: its ops but views,
/// allocations, constants and the return are linalg ops on buffers of
/// static shapes (or copies) whose loops (one or more) are parallel but
/// the last, which may reduce by an associative combination with a neutral
/// element (f32 or i32) over at least a warp's elements, reading its
/// inputs row by row; their bodies write no memory; every reduction is
/// over rows of the same number; each buffer the body writes (with any
/// argument of its element type and number, which a caller may pass for
/// it, unless `func` has kDistinctArguments, KernelCalls.h) is accessed
/// row by row only (at row x width + the position along the row, or + 0,
/// through reshapes), read by no op's body, and read by an op writing it
/// only where the op writes it.
std::optional<RowKernel> findRowKernel(mlir::func::FuncOp func);

/// Replaces the ops of `kernel` (findRowKernel, with rows, linalg ops
/// only) by its gpu.launch, named `name` unless empty.
void launchRowKernel(mlir::IRRewriter &rewriter, const RowKernel &kernel, llvm::StringRef name);

} // namespace dlc

#endif // DLC_CONVERSION_LINALGTOGPU_ROWKERNEL_H
