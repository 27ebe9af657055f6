//===- CPUTransposeDenseWeights.cpp - dense as x * W' with W' stored [k, n] ===//
#include "../../Transforms/PassUtils.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/Graph/GraphOps.h"

namespace dlc {
#define GEN_PASS_DEF_CPUTRANSPOSEDENSEWEIGHTSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

/// `w` [n, k] as [k, n].
static Tensor transposed(const Tensor &w) {
  int64_t n = w.shape[0], k = w.shape[1];
  Tensor t(w.dtype, {k, n});
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j)
      t.data[j * n + i] = w.data[i * k + j];
  return t;
}

namespace {
struct CPUTransposeDenseWeightsPass
    : dlc::impl::CPUTransposeDenseWeightsPassBase<CPUTransposeDenseWeightsPass> {
  void runOnOperation() override {
    SmallVector<graph::DenseOp> denses;
    getOperation().walk([&](graph::DenseOp op) {
      if (op.getWeight().getDefiningOp<graph::ConstantOp>() &&
          op.getType().getElementType().isF32())
        denses.push_back(op);
    });
    OpBuilder b(&getContext());
    int64_t rewritten = 0;
    for (graph::DenseOp op : denses) {
      std::optional<Tensor> w = constantValue(op.getWeight());
      if (!w)
        continue;
      b.setInsertionPoint(op);
      Location loc = op.getLoc();
      Value wt = createConstant(b, loc, transposed(*w), "transposed_weight");
      Value y = graph::MatmulOp::create(b, loc, op.getInput(), wt);
      if (Value bias = op.getBias())
        y = graph::AddOp::create(b, loc, y, bias);
      op.replaceAllUsesWith(y);
      Operation *weight = op.getWeight().getDefiningOp();
      op.erase();
      if (weight->use_empty())
        weight->erase();
      ++rewritten;
    }
    recordPassStat(getArgument(), "transposed", rewritten);
  }
};
} // namespace
