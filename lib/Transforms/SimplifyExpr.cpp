//===- SimplifyExpr.cpp - algebraic simplifications ------------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Support/Layout.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

#include <cmath>

namespace dlc {
#define GEN_PASS_DEF_SIMPLIFYEXPRPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

static bool isConst(Value v) { return v.getDefiningOp<ConstantOp>() != nullptr; }

/// (x, c) from a binary op with exactly one constant operand; `constFirst`
/// tells where the constant was.
static bool splitConst(Operation *op, Value &x, Value &c, bool &constFirst) {
  Value a = op->getOperand(0), b = op->getOperand(1);
  if (isConst(a) == isConst(b))
    return false;
  constFirst = isConst(a);
  x = constFirst ? b : a;
  c = constFirst ? a : b;
  return true;
}

namespace {

/// x + x -> x * 2
struct SimplifyAdd : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &rewriter) const override {
    if (op.getLhs() != op.getRhs())
      return failure();
    Type et = op.getType().getElementType();
    auto type = RankedTensorType::get({}, et);
    Attribute two = isa<FloatType>(et) ? Attribute(FloatAttr::get(et, 2.0))
                                       : Attribute(IntegerAttr::get(et, 2));
    Value c = ConstantOp::create(rewriter, op.getLoc(), DenseElementsAttr::get(type, two));
    // A scalar of x's element type: the product has x's type.
    rewriter.replaceOpWithNewOp<MulOp>(op, op.getLhs(), c);
    return success();
  }
};

/// x / sqrt(y) -> x * rsqrt(y)
struct SimplifyRSqrt : OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivOp op, PatternRewriter &rewriter) const override {
    auto sqrt = op.getRhs().getDefiningOp<SqrtOp>();
    if (!sqrt)
      return failure();
    StagedOps ops(rewriter);
    Value r = ops.create<RsqrtOp>(sqrt.getLoc(), sqrt.getInput());
    Value y = ops.create<MulOp>(op.getLoc(), {op.getLhs(), r});
    if (!y || y.getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "type changes");
    ops.commit();
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// The graph dialect's identity folders (x + 0, x * 1, reshapes, transposes,
/// casts and layout transforms that change nothing), counted as rewrites.
struct FoldIdentity : RewritePattern {
  FoldIdentity(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), 1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isa<AddOp, SubOp, MulOp, DivOp, ReshapeOp, ExpandDimsOp, SqueezeOp,
             TransposeOp, CastOp, LayoutTransformOp>(op))
      return failure();
    // These folders only ever return an existing value.
    SmallVector<OpFoldResult> folded;
    if (failed(op->fold(folded)) || folded.size() != 1 || !isa<Value>(folded[0]))
      return failure();
    rewriter.replaceOp(op, cast<Value>(folded[0]));
    return success();
  }
};

/// Every value of `from` is exactly representable in `to`.
static bool holdsAllValues(Type from, Type to) {
  if (from == to || from.isInteger(1))
    return true;
  unsigned fb = from.getIntOrFloatBitWidth(), tb = to.getIntOrFloatBitWidth();
  if (isa<FloatType>(from) && isa<FloatType>(to)) // f16/bf16 -> f32
    return tb > fb && to.isF32();
  if (from.isInteger() && to.isInteger())
    return tb > fb;
  if (from.isInteger() && isa<FloatType>(to)) { // mantissa bits + 1
    int mantissa = to.isF32() ? 24 : to.isF16() ? 11 : 8;
    return static_cast<int>(fb) <= mantissa;
  }
  return false;
}

/// cast(cast(x, B), C) -> cast(x, C) when B holds every value of x's type.
struct SimplifyCast : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<CastOp>();
    if (!inner)
      return failure();
    Type a = inner.getInput().getType().getElementType();
    Type b = inner.getType().getElementType();
    if (!holdsAllValues(a, b))
      return rewriter.notifyMatchFailure(op, "the first cast loses values");
    rewriter.replaceOpWithNewOp<CastOp>(op, op.getType(), inner.getInput());
    return success();
  }
};

/// clip(clip(x, a, b), c, d) -> clip(x, max(a, c), min(b, d)); a clip over
/// an integer type's whole range -> x
struct SimplifyClip : OpRewritePattern<ClipOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ClipOp op, PatternRewriter &rewriter) const override {
    double lo = op.getMin().convertToDouble(), hi = op.getMax().convertToDouble();
    Type et = op.getType().getElementType();
    if (et.isInteger() && !et.isInteger(1)) {
      unsigned bits = et.getIntOrFloatBitWidth();
      if (lo <= -std::ldexp(1.0, bits - 1) && hi >= std::ldexp(1.0, bits - 1) - 1) {
        rewriter.replaceOp(op, op.getInput());
        return success();
      }
    }
    auto inner = op.getInput().getDefiningOp<ClipOp>();
    if (!inner)
      return failure();
    double nlo = std::max(lo, inner.getMin().convertToDouble());
    double nhi = std::min(hi, inner.getMax().convertToDouble());
    if (nlo > nhi)
      return rewriter.notifyMatchFailure(op, "the ranges do not intersect");
    rewriter.replaceOpWithNewOp<ClipOp>(op, inner.getInput(),
                                        rewriter.getF64FloatAttr(nlo),
                                        rewriter.getF64FloatAttr(nhi));
    return success();
  }
};

/// (x + c1) * c2 -> x * c2 + c1 * c2
struct SwitchAddMultiply : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op, PatternRewriter &rewriter) const override {
    Value y, c2;
    bool constFirst;
    if (!splitConst(op, y, c2, constFirst))
      return failure();
    auto add = y.getDefiningOp<AddOp>();
    Value x, c1;
    if (!add || !add->hasOneUse() || !splitConst(add, x, c1, constFirst))
      return failure();
    Location loc = op.getLoc();
    StagedOps ops(rewriter);
    Value r = ops.create<AddOp>(loc, {ops.create<MulOp>(loc, {x, c2}),
                                      ops.create<MulOp>(loc, {c1, c2})});
    if (!r || r.getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "type changes");
    ops.commit();
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// (x * c1) * c2 -> x * (c1 * c2); (x + c1) + c2 -> x + (c1 + c2)
template <typename OpTy>
struct AdjacentMultiplyOrAdd : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    Value y, c2;
    bool constFirst;
    if (!splitConst(op, y, c2, constFirst))
      return failure();
    auto inner = y.getDefiningOp<OpTy>();
    Value x, c1;
    if (!inner || !inner->hasOneUse() || !splitConst(inner, x, c1, constFirst))
      return failure();
    Location loc = op.getLoc();
    StagedOps ops(rewriter);
    Value r = ops.create<OpTy>(loc, {x, ops.create<OpTy>(loc, {c1, c2})});
    if (!r || r.getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "type changes");
    ops.commit();
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct SimplifyExprPass : dlc::impl::SimplifyExprPassBase<SimplifyExprPass> {
  void runOnOperation() override {
    if (failed(applyAndRecordPatterns(getOperation(), getArgument(), "rewrites",
                                      populateSimplifyExprPatterns)))
      signalPassFailure();
  }
};

} // namespace

void dlc::populateSimplifyExprPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<SimplifyAdd, SimplifyRSqrt, FoldIdentity, SimplifyCast,
               SimplifyClip, SwitchAddMultiply, AdjacentMultiplyOrAdd<MulOp>,
               AdjacentMultiplyOrAdd<AddOp>>(ctx);
  // Reshape and transpose chains are canonicalizations.
  ReshapeOp::getCanonicalizationPatterns(patterns, ctx);
  ExpandDimsOp::getCanonicalizationPatterns(patterns, ctx);
  SqueezeOp::getCanonicalizationPatterns(patterns, ctx);
  TransposeOp::getCanonicalizationPatterns(patterns, ctx);
}
