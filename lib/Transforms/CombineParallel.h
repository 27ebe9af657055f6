//===- CombineParallel.h - TVM's parallel-op combiner -----------*- C++ -*-===//
//
// The shared part of CombineParallelConv2D, CombineParallelDense and
// CombineParallelBatchMatmul (TVM's ParallelOpCombiner): ops that read the
// same input are grouped by compatibility; a group of at least
// `minBranches` becomes one op whose result holds the branches side by side
// along one axis; the elementwise ops that follow every branch alike are
// combined level by level; the branches are split back out at the end.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_TRANSFORMS_COMBINEPARALLEL_H
#define DLC_LIB_TRANSFORMS_COMBINEPARALLEL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace dlc {

/// Where the branches are in a combined value: side by side along `axis`,
/// branch i of size `sizes[i]`; each branch's slice is reshaped to the
/// branch's own type (the identity unless the combined op stacks branches
/// on a new axis).
struct CombinedValue {
  mlir::Value value;
  int64_t axis;
  llvm::SmallVector<int64_t> sizes;
};

/// One family of parallel ops.
class ParallelOpCombiner {
public:
  virtual ~ParallelOpCombiner() = default;
  /// Whether `op` can be a branch's root at all.
  virtual bool isRoot(mlir::Operation *op) const = 0;
  /// The operand the branches share (an op's data input).
  virtual mlir::Value sharedInput(mlir::Operation *root) const = 0;
  /// Whether two roots can be in one combined op.
  virtual bool compatible(mlir::Operation *a, mlir::Operation *b) const = 0;
  /// Builds the combined op of `roots` (all compatible, same input), or a
  /// null value (nothing created) when it cannot.
  virtual std::optional<CombinedValue> combine(mlir::OpBuilder &b,
                                               llvm::ArrayRef<mlir::Operation *> roots) const = 0;
};

struct CombineCounts {
  int64_t groups = 0;    ///< combined ops made
  int64_t branches = 0;  ///< ops replaced by them
  int64_t followers = 0; ///< elementwise ops combined after them
};

/// Combines every group of at least `minBranches` compatible roots in `func`.
CombineCounts combineParallelOps(mlir::func::FuncOp func, const ParallelOpCombiner &combiner,
                                 int64_t minBranches);

/// Records `counts` as `pass`'s counters: combined, branches, followers.
void recordCombineCounts(llvm::StringRef pass, const CombineCounts &counts);

/// `values` (ranked tensors) concatenated along `axis`.
mlir::Value concat(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange values, int64_t axis);

/// `v` reshaped to `shape` (no op if it already has it).
mlir::Value reshape(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                    llvm::ArrayRef<int64_t> shape);

} // namespace dlc

#endif // DLC_LIB_TRANSFORMS_COMBINEPARALLEL_H
