//===- SimplifyInference.cpp - normalizations to arithmetic ----------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_SIMPLIFYINFERENCEPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {

/// batch_norm(x) = x * scale + shift, scale = gamma / sqrt(var + eps),
/// shift = beta - mean * scale, broadcast along the channel axis.
struct BatchNormToArithmetic : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    int64_t rank = type.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    Type et = type.getElementType();
    StagedOps ops(rewriter);
    Value eps = ops.scalar(loc, et, op.getEpsilon().convertToDouble());
    Value stddev = ops.create<SqrtOp>(loc, ops.create<AddOp>(loc, {op.getVariance(), eps}));
    Value scale = ops.create<DivOp>(loc, {op.getGamma(), stddev});
    Value shift = ops.create<SubOp>(
        loc, {op.getBeta(), ops.create<MulOp>(loc, {op.getMean(), scale})});
    // [C] -> [C, 1, ..., 1] so that it broadcasts along `axis`.
    SmallVector<int64_t> shape{type.getDimSize(axis)};
    shape.append(rank - axis - 1, 1);
    auto paramType = RankedTensorType::get(shape, et);
    if (shape.size() > 1) {
      scale = ops.create<ReshapeOp>(loc, scale, {}, paramType);
      shift = ops.create<ReshapeOp>(loc, shift, {}, paramType);
    }
    Value y = ops.create<AddOp>(loc, {ops.create<MulOp>(loc, {op.getInput(), scale}), shift});
    if (!y || y.getType() != type)
      return rewriter.notifyMatchFailure(op, "cannot build x * scale + shift");
    ops.commit();
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// layer_norm(x) = (x - mean) / sqrt(var + eps) * gamma + beta over the
/// trailing axes from `axis`.
struct LayerNormToArithmetic : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    int64_t rank = type.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    SmallVector<int64_t> axes;
    for (int64_t i = axis; i < rank; ++i)
      axes.push_back(i);
    SmallVector<NamedAttribute> reduce{
        rewriter.getNamedAttr("axes", rewriter.getDenseI64ArrayAttr(axes)),
        rewriter.getNamedAttr("keepdims", rewriter.getBoolAttr(true))};
    Value x = op.getInput();
    StagedOps ops(rewriter);
    Value mean = ops.create<ReduceMeanOp>(loc, x, reduce);
    Value centered = ops.create<SubOp>(loc, {x, mean});
    Value var = ops.create<ReduceMeanOp>(loc, ops.create<MulOp>(loc, {centered, centered}),
                                         reduce);
    Value eps = ops.scalar(loc, type.getElementType(), op.getEpsilon().convertToDouble());
    Value stddev = ops.create<SqrtOp>(loc, ops.create<AddOp>(loc, {var, eps}));
    Value normalized = ops.create<DivOp>(loc, {centered, stddev});
    Value y = ops.create<AddOp>(
        loc, {ops.create<MulOp>(loc, {normalized, op.getGamma()}), op.getBeta()});
    if (!y || y.getType() != type)
      return rewriter.notifyMatchFailure(op, "cannot build the arithmetic");
    ops.commit();
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct RemoveDropout : OpRewritePattern<DropoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DropoutOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, op.getInput());
    return success();
  }
};

struct SimplifyInferencePass
    : dlc::impl::SimplifyInferencePassBase<SimplifyInferencePass> {
  void runOnOperation() override {
    int64_t bn = 0, ln = 0, drop = 0;
    getOperation().walk([&](Operation *op) {
      bn += isa<BatchNormOp>(op);
      ln += isa<LayerNormOp>(op);
      drop += isa<DropoutOp>(op);
    });
    RewritePatternSet patterns(&getContext());
    populateSimplifyInferencePatterns(patterns);
    if (failed(applyCountedPatterns(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Count what is gone (a rewrite that could not apply leaves the op).
    getOperation().walk([&](Operation *op) {
      bn -= isa<BatchNormOp>(op);
      ln -= isa<LayerNormOp>(op);
      drop -= isa<DropoutOp>(op);
    });
    recordPassStat(getArgument(), "batch-norms", bn);
    recordPassStat(getArgument(), "layer-norms", ln);
    recordPassStat(getArgument(), "dropouts", drop);
  }
};

} // namespace

void dlc::populateSimplifyInferencePatterns(RewritePatternSet &patterns) {
  patterns.add<BatchNormToArithmetic, LayerNormToArithmetic, RemoveDropout>(
      patterns.getContext());
}
