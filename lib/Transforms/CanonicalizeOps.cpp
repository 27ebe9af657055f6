//===- CanonicalizeOps.cpp - bias_add to broadcast add ---------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_CANONICALIZEOPSPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {

/// bias_add(x, b, axis) -> add(x, expand_dims(b, trailing ones))
struct BiasAddToAdd : OpRewritePattern<BiasAddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BiasAddOp op, PatternRewriter &rewriter) const override {
    int64_t rank = op.getType().getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    StagedOps ops(rewriter);
    Value bias = op.getBias();
    if (axis < rank - 1) {
      SmallVector<int64_t> axes;
      for (int64_t i = 1; i < rank - axis; ++i)
        axes.push_back(i);
      bias = ops.create<ExpandDimsOp>(
          op.getLoc(), bias,
          {rewriter.getNamedAttr("axes", rewriter.getDenseI64ArrayAttr(axes))});
    }
    Value y = ops.create<AddOp>(op.getLoc(), {op.getInput(), bias});
    if (!y || y.getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "type changes");
    ops.commit();
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct CanonicalizeOpsPass
    : dlc::impl::CanonicalizeOpsPassBase<CanonicalizeOpsPass> {
  void runOnOperation() override {
    if (failed(applyAndRecordPatterns(getOperation(), getArgument(), "rewrites",
                                      populateCanonicalizeOpsPatterns)))
      signalPassFailure();
  }
};

} // namespace

void dlc::populateCanonicalizeOpsPatterns(RewritePatternSet &patterns) {
  patterns.add<BiasAddToAdd>(patterns.getContext());
}
