//===- CombineParallelDense.cpp - dense layers of one input as one ---------===//
#include "CombineParallel.h"
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_COMBINEPARALLELDENSEPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {
struct DenseCombiner : ParallelOpCombiner {
  explicit DenseCombiner(bool toBatchMatmul) : toBatchMatmul(toBatchMatmul) {}

  bool isRoot(Operation *op) const override { return isa<DenseOp>(op); }
  Value sharedInput(Operation *root) const override { return cast<DenseOp>(root).getInput(); }

  /// Batch mode stacks the weights: equal shapes. Concatenate mode needs
  /// the same input features only. Bias on both or neither.
  bool compatible(Operation *a, Operation *b) const override {
    auto x = cast<DenseOp>(a), y = cast<DenseOp>(b);
    auto wx = tensorType(x.getWeight()), wy = tensorType(y.getWeight());
    if (wx.getElementType() != wy.getElementType() || !x.getBias() != !y.getBias())
      return false;
    return toBatchMatmul ? wx.getShape() == wy.getShape() : wx.getDimSize(1) == wy.getDimSize(1);
  }

  std::optional<CombinedValue> combine(OpBuilder &b, ArrayRef<Operation *> roots) const override {
    Location loc =
        b.getFusedLoc(llvm::map_to_vector(roots, [](Operation *op) { return op->getLoc(); }));
    auto first = cast<DenseOp>(roots.front());
    SmallVector<Value> weights, biases;
    for (Operation *op : roots) {
      weights.push_back(cast<DenseOp>(op).getWeight());
      if (Value bias = cast<DenseOp>(op).getBias())
        biases.push_back(bias);
    }
    CombinedValue c;
    if (!toBatchMatmul) {
      // One dense with the weights (and biases) concatenated along out.
      for (Value w : weights)
        c.sizes.push_back(tensorType(w).getDimSize(0));
      Value bias = biases.empty() ? Value() : concat(b, loc, biases, 0);
      c.value = DenseOp::create(b, loc, first.getInput(), concat(b, loc, weights, 0), bias);
      c.axis = tensorType(c.value).getRank() - 1;
      return c;
    }
    // The inputs x [..., K] stacked [n, M, K], as TVM does, times the
    // weights stacked [n, K, N]: [n, M, N]. TVM stacks the weights [n, N, K]
    // and multiplies by their transpose; stacking the transposes (folded at
    // compile time for constant weights) gives the same product without a
    // transposed operand, which the CPU's product kernel wants (as it wants
    // no broadcast batch, so x is stacked, not broadcast).
    auto x = tensorType(first.getInput());
    auto w = tensorType(first.getWeight());
    int64_t k = w.getDimSize(1), n = w.getDimSize(0), m = x.getNumElements() / k;
    for (Value &v : weights)
      v = reshape(b, loc, TransposeOp::create(b, loc, v, ArrayRef<int64_t>{1, 0}), {1, k, n});
    Value row = reshape(b, loc, first.getInput(), {1, m, k});
    Value lhs = concat(b, loc, SmallVector<Value>(roots.size(), row), 0);
    Value y = BatchMatmulOp::create(b, loc, lhs, concat(b, loc, weights, 0), /*transpose_a=*/false,
                                    /*transpose_b=*/false);
    if (!biases.empty()) {
      for (Value &v : biases)
        v = reshape(b, loc, v, {1, 1, n});
      y = AddOp::create(b, loc, y, concat(b, loc, biases, 0));
    }
    c.value = y;
    c.axis = 0;
    c.sizes.assign(roots.size(), 1);
    return c;
  }

  bool toBatchMatmul;
};

struct CombineParallelDensePass
    : dlc::impl::CombineParallelDensePassBase<CombineParallelDensePass> {
  using CombineParallelDensePassBase::CombineParallelDensePassBase;
  void runOnOperation() override {
    recordCombineCounts(
        getArgument(),
        combineParallelOps(getOperation(), DenseCombiner(toBatchMatmul), minNumBranches));
  }
};
} // namespace
