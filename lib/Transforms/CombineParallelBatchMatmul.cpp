//===- CombineParallelBatchMatmul.cpp - batch_matmuls of one lhs as one ----===//
#include "CombineParallel.h"
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_COMBINEPARALLELBATCHMATMULPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {
struct BatchMatmulCombiner : ParallelOpCombiner {
  /// TVM combines only lhs x rhs^T with a 3-D rhs.
  bool isRoot(Operation *op) const override {
    auto mm = dyn_cast<BatchMatmulOp>(op);
    return mm && !mm.getTransposeA() && mm.getTransposeB() &&
           tensorType(mm.getRhs()).getRank() == 3;
  }
  Value sharedInput(Operation *root) const override { return cast<BatchMatmulOp>(root).getLhs(); }

  /// Equal batch and reduction sizes and element types.
  bool compatible(Operation *a, Operation *b) const override {
    auto x = tensorType(cast<BatchMatmulOp>(a).getRhs());
    auto y = tensorType(cast<BatchMatmulOp>(b).getRhs());
    return x.getElementType() == y.getElementType() && x.getDimSize(0) == y.getDimSize(0) &&
           x.getDimSize(2) == y.getDimSize(2);
  }

  /// The right-hand sides concatenated along N: results side by side on
  /// the last axis.
  std::optional<CombinedValue> combine(OpBuilder &b, ArrayRef<Operation *> roots) const override {
    Location loc =
        b.getFusedLoc(llvm::map_to_vector(roots, [](Operation *op) { return op->getLoc(); }));
    SmallVector<Value> rhs;
    CombinedValue c;
    for (Operation *op : roots) {
      rhs.push_back(cast<BatchMatmulOp>(op).getRhs());
      c.sizes.push_back(tensorType(rhs.back()).getDimSize(1));
    }
    c.value = BatchMatmulOp::create(b, loc, cast<BatchMatmulOp>(roots.front()).getLhs(),
                                    concat(b, loc, rhs, 1), /*transpose_a=*/false,
                                    /*transpose_b=*/true);
    c.axis = 2;
    return c;
  }
};

struct CombineParallelBatchMatmulPass
    : dlc::impl::CombineParallelBatchMatmulPassBase<CombineParallelBatchMatmulPass> {
  using CombineParallelBatchMatmulPassBase::CombineParallelBatchMatmulPassBase;
  void runOnOperation() override {
    recordCombineCounts(getArgument(),
                        combineParallelOps(getOperation(), BatchMatmulCombiner(), minNumBranches));
  }
};
} // namespace
