//===- Normalization.cpp - normalization and softmax ----------------------===//
//
// Batch and layer normalization and softmax (max-shifted; fast_softmax
// with FastMath's exp).
//
//===----------------------------------------------------------------------===//
#include "Lowerings.h"
#include "FastMath.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::lowering;

namespace {

struct BatchNormLowering : GraphPattern<BatchNormOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(BatchNormOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    int64_t axis = *normalizeAxis(op.getAxis(), op.getType().getRank());
    double eps = op.getEpsilon().convertToDouble();
    r.replaceOp(op, channelwise(r, op.getLoc(), op.getType(), axis, a.getInput(),
                                {a.getGamma(), a.getBeta(), a.getMean(), a.getVariance()},
                                [&](OpBuilder &b, Location l, ValueRange v) {
                                  Value e = scalar(b, l, v[0].getType(), eps);
                                  Value sd = math::SqrtOp::create(b, l, add(b, l, v[4], e));
                                  Value n = div(b, l, sub(b, l, v[0], v[3]), sd);
                                  return add(b, l, mul(b, l, n, v[1]), v[2]);
                                }));
    return success();
  }
};

/// softmax, and fast_softmax with FastMath's exp.
template <typename OpTy> struct SoftmaxLowering : GraphPattern<OpTy> {
  using GraphPattern<OpTy>::GraphPattern;
  using Adaptor = typename GraphPattern<OpTy>::Adaptor;
  LogicalResult matchAndRewrite(OpTy op, Adaptor a, ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t axis = *normalizeAxis(op.getAxis(), type.getRank());
    Value x = a.getInput();
    Value mx = reduce(r, loc, x, {axis}, true, lowest(type.getElementType()),
                      [](OpBuilder &b, Location l, Value acc, Value v) { return max(b, l, acc, v); });
    Value e = elementwise(r, loc, type, {x, mx}, [](OpBuilder &b, Location l, ValueRange v) {
      Value d = sub(b, l, v[0], v[1]);
      return std::is_same_v<OpTy, FastSoftmaxOp> ? fastExp(b, l, d)
                                                 : (Value)math::ExpOp::create(b, l, d);
    });
    Value s = reduce(r, loc, e, {axis}, true, 0.0,
                     [](OpBuilder &b, Location l, Value acc, Value v) { return add(b, l, acc, v); });
    r.replaceOp(op, elementwise(r, loc, type, {e, s}, [](OpBuilder &b, Location l, ValueRange v) {
      return div(b, l, v[0], v[1]);
    }));
    return success();
  }
};

struct LayerNormLowering : GraphPattern<LayerNormOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(LayerNormOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank(), axis = *normalizeAxis(op.getAxis(), rank);
    SmallVector<int64_t> axes;
    int64_t n = 1;
    for (int64_t i = axis; i < rank; ++i) {
      axes.push_back(i);
      n *= type.getDimSize(i);
    }
    double eps = op.getEpsilon().convertToDouble();
    auto sum = [](OpBuilder &b, Location l, Value acc, Value v) { return add(b, l, acc, v); };
    Value x = a.getInput();
    Value mean = reduce(r, loc, x, axes, true, 0.0, sum);
    Value centered = elementwise(r, loc, type, {x, mean}, [&](OpBuilder &b, Location l, ValueRange v) {
      return sub(b, l, v[0], div(b, l, v[1], scalar(b, l, v[1].getType(), (double)n)));
    });
    Value sq = elementwise(r, loc, type, centered, [](OpBuilder &b, Location l, ValueRange v) {
      return mul(b, l, v[0], v[0]);
    });
    Value var = reduce(r, loc, sq, axes, true, 0.0, sum);
    r.replaceOp(op, elementwise(r, loc, type, {centered, var, a.getGamma(), a.getBeta()},
                                [&](OpBuilder &b, Location l, ValueRange v) {
                                  Type t = v[0].getType();
                                  Value vr = div(b, l, v[1], scalar(b, l, t, (double)n));
                                  Value sd = math::SqrtOp::create(b, l, add(b, l, vr, scalar(b, l, t, eps)));
                                  return add(b, l, mul(b, l, div(b, l, v[0], sd), v[2]), v[3]);
                                }));
    return success();
  }
};

} // namespace

void dlc::populateNormalizationLoweringPatterns(RewritePatternSet &p) {
  p.add<BatchNormLowering, SoftmaxLowering<SoftmaxOp>, SoftmaxLowering<FastSoftmaxOp>,
        LayerNormLowering>(p.getContext());
}
