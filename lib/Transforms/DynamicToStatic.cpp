//===- DynamicToStatic.cpp - dynamic ops with constant shapes to static ----===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_DYNAMICTOSTATICPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {

/// dynamic_reshape(x, constant shape) -> reshape(x)
struct StaticReshape : OpRewritePattern<DynamicReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DynamicReshapeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Tensor> shape = constantValue(op.getShape());
    if (!shape)
      return rewriter.notifyMatchFailure(op, "shape is not constant");
    ArrayRef<int64_t> in = op.getInput().getType().getShape();
    SmallVector<int64_t> target;
    int64_t inferAt = -1, known = 1;
    for (auto [i, v] : llvm::enumerate(shape->data)) {
      int64_t d = static_cast<int64_t>(v);
      if (d == 0 && i < in.size())
        d = in[i];
      if (d == -1 && inferAt < 0)
        inferAt = i;
      else if (d < 0)
        return rewriter.notifyMatchFailure(op, "invalid shape values");
      else
        known *= d;
      target.push_back(d);
    }
    if (inferAt >= 0)
      target[inferAt] = known ? numElements(in) / known : 0;
    if (ArrayRef<int64_t>(target) != op.getType().getShape())
      return rewriter.notifyMatchFailure(op, "shape disagrees with the result type");
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput());
    return success();
  }
};

struct DynamicToStaticPass
    : dlc::impl::DynamicToStaticPassBase<DynamicToStaticPass> {
  void runOnOperation() override {
    int64_t before = 0, after = 0;
    getOperation().walk([&](DynamicReshapeOp) { ++before; });
    // As in TVM, shape operands are folded first (with the other patterns).
    RewritePatternSet patterns(&getContext());
    populateDynamicToStaticPatterns(patterns);
    populateFoldConstantPatterns(patterns);
    if (failed(applyCountedPatterns(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation().walk([&](DynamicReshapeOp) { ++after; });
    recordPassStat(getArgument(), "rewrites", before - after);
  }
};

} // namespace

void dlc::populateDynamicToStaticPatterns(RewritePatternSet &patterns) {
  patterns.add<StaticReshape>(patterns.getContext());
}
