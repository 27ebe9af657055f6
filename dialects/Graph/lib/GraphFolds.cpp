//===- GraphFolds.cpp - folders and canonicalizers of graph ops ------------===//
//
// The identities every pipeline wants (x + 0, x * 1, reshape of reshape,
// transpose of transpose, casts and layout transforms that change nothing).
// `canonicalize` applies them; SimplifyExpr applies them too and counts them.
//
//===----------------------------------------------------------------------===//
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Support/Shape.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

/// The operand's constant is a splat of `x`.
static bool isSplatOf(Attribute operand, double x) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(operand);
  if (!dense || !dense.isSplat())
    return false;
  Type et = dense.getElementType();
  if (isa<FloatType>(et))
    return dense.getSplatValue<APFloat>().convertToDouble() == x;
  if (et.isInteger(1))
    return false;
  if (et.isInteger())
    return dense.getSplatValue<APInt>().getSExtValue() == static_cast<int64_t>(x);
  return false;
}

/// `x op c` is x when c is a splat of the op's identity (and on the left,
/// `c op x`, when the op commutes); never when c broadcasts x to a new type.
template <typename OpTy>
static OpFoldResult foldIdentity(OpTy op, typename OpTy::FoldAdaptor adaptor,
                                 double identity, bool commutes) {
  if (op.getLhs().getType() == op.getType() && isSplatOf(adaptor.getRhs(), identity))
    return op.getLhs();
  if (commutes && op.getRhs().getType() == op.getType() &&
      isSplatOf(adaptor.getLhs(), identity))
    return op.getRhs();
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) { return foldIdentity(*this, adaptor, 0.0, true); }
OpFoldResult SubOp::fold(FoldAdaptor adaptor) { return foldIdentity(*this, adaptor, 0.0, false); }
OpFoldResult MulOp::fold(FoldAdaptor adaptor) { return foldIdentity(*this, adaptor, 1.0, true); }
OpFoldResult DivOp::fold(FoldAdaptor adaptor) { return foldIdentity(*this, adaptor, 1.0, false); }

OpFoldResult CastOp::fold(FoldAdaptor) {
  return getInput().getType() == getType() ? getInput() : Value();
}

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

static bool isReshapeLike(Operation *op) {
  return op && isa<ReshapeOp, ExpandDimsOp, SqueezeOp>(op);
}

/// A reshape to the type it already has is its input.
static OpFoldResult foldSameType(Operation *op) {
  Value input = op->getOperand(0);
  return input.getType() == op->getResult(0).getType() ? input : Value();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) { return foldSameType(*this); }
OpFoldResult ExpandDimsOp::fold(FoldAdaptor) { return foldSameType(*this); }
OpFoldResult SqueezeOp::fold(FoldAdaptor) { return foldSameType(*this); }

namespace {
/// reshape-like(reshape-like(x)) -> reshape(x)
template <typename OpTy>
struct ComposeReshapes : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    Operation *inner = op.getInput().getDefiningOp();
    if (!isReshapeLike(inner))
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner->getOperand(0));
    return success();
  }
};
} // namespace

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *ctx) {
  patterns.add<ComposeReshapes<ReshapeOp>>(ctx);
}
void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *ctx) {
  patterns.add<ComposeReshapes<ExpandDimsOp>>(ctx);
}
void SqueezeOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *ctx) {
  patterns.add<ComposeReshapes<SqueezeOp>>(ctx);
}

//===----------------------------------------------------------------------===//
// Transposes
//===----------------------------------------------------------------------===//

/// The permutation with negative axes normalized (the verifier checked it).
static SmallVector<int64_t> normalizedPerm(TransposeOp op) {
  int64_t rank = op.getType().getRank();
  SmallVector<int64_t> perm;
  for (int64_t p : op.getPerm())
    perm.push_back(*normalizeAxis(p, rank));
  return perm;
}

static bool isIdentityPerm(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != static_cast<int64_t>(i))
      return false;
  return true;
}

/// transpose(transpose(x, p), q) permutes x by p . q.
static SmallVector<int64_t> composedPerm(TransposeOp outer, TransposeOp inner) {
  SmallVector<int64_t> in = normalizedPerm(inner), composed;
  for (int64_t p : normalizedPerm(outer))
    composed.push_back(in[p]);
  return composed;
}

/// An identity transpose is its input, and so is a transpose undoing
/// another one.
OpFoldResult TransposeOp::fold(FoldAdaptor) {
  if (isIdentityPerm(normalizedPerm(*this)))
    return getInput();
  auto inner = getInput().getDefiningOp<TransposeOp>();
  if (inner && isIdentityPerm(composedPerm(*this, inner)))
    return inner.getInput();
  return {};
}

namespace {
/// transpose(transpose(x, p), q) -> transpose(x, p . q)
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(), inner.getInput(),
                                             composedPerm(op, inner));
    return success();
  }
};
} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *ctx) {
  patterns.add<ComposeTransposes>(ctx);
}

//===----------------------------------------------------------------------===//
// Layout transforms
//===----------------------------------------------------------------------===//

/// A transform to the same layout is its input; a transform back to where
/// its input came from cancels both.
OpFoldResult LayoutTransformOp::fold(FoldAdaptor) {
  if (getSrcLayout() == getDstLayout() && getInput().getType() == getType())
    return getInput();
  auto inner = getInput().getDefiningOp<LayoutTransformOp>();
  if (inner && inner.getDstLayout() == getSrcLayout() &&
      inner.getSrcLayout() == getDstLayout() && inner.getInput().getType() == getType())
    return inner.getInput();
  return {};
}
