//===- SimplifyFCTranspose.cpp - dense of a transposed constant weight -----===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_SIMPLIFYFCTRANSPOSEPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {
/// dense(x, transpose(w, [1, 0])) with a constant w -> dense(x, w^T), w^T a
/// constant computed now.
struct DenseOfTransposedWeight : OpRewritePattern<DenseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DenseOp op, PatternRewriter &rewriter) const override {
    auto transpose = op.getWeight().getDefiningOp<TransposeOp>();
    if (!transpose || transpose.getPerm() != ArrayRef<int64_t>{1, 0})
      return rewriter.notifyMatchFailure(op, "weight is not a 2-D transpose");
    std::optional<Tensor> w = constantValue(transpose.getInput());
    if (!w)
      return rewriter.notifyMatchFailure(op, "transposed weight is not a constant");
    FailureOr<std::vector<Tensor>> wt = evaluateOp(transpose, {*w});
    if (failed(wt))
      return rewriter.notifyMatchFailure(op, "cannot evaluate the transpose");
    rewriter.setInsertionPoint(transpose);
    Value weight = createConstant(rewriter, transpose.getLoc(), wt->front(), "fc_transposed");
    rewriter.modifyOpInPlace(op, [&] { op.getWeightMutable().assign(weight); });
    if (transpose->use_empty())
      rewriter.eraseOp(transpose);
    return success();
  }
};

struct SimplifyFCTransposePass : dlc::impl::SimplifyFCTransposePassBase<SimplifyFCTransposePass> {
  void runOnOperation() override {
    if (failed(applyAndRecordPatterns(
            getOperation(), getArgument(), "rewrites", [](RewritePatternSet &patterns) {
              patterns.add<DenseOfTransposedWeight>(patterns.getContext());
            })))
      signalPassFailure();
  }
};
} // namespace
