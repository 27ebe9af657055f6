//===- Quantization.cpp - quantization ------------------------------------===//
//
// Quantize (round half to even, saturate) and dequantize, per tensor or
// per axis.
//
//===----------------------------------------------------------------------===//
#include "Lowerings.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::lowering;

namespace {

template <typename OpTy>
struct QuantLowering : GraphPattern<OpTy> {
  using GraphPattern<OpTy>::GraphPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    RankedTensorType type = op.getType();
    Location loc = op.getLoc();
    Value scale = a.getScale(), zp = a.getZeroPoint();
    // Scalars broadcast as numpy does; per-axis vectors along `axis`.
    int64_t axis = *normalizeAxis(op.getAxis(), type.getRank());
    bool perAxis = typeOf(scale).getNumElements() != 1 || typeOf(scale).getRank() > 1;
    if (!perAxis) {
      auto one = [&](Value v) {
        return reshapeTo(r, loc, v, RankedTensorType::get({}, typeOf(v).getElementType()));
      };
      scale = one(scale);
      zp = one(zp);
    }
    auto body = [&](OpBuilder &b, Location l, ValueRange v) -> Value {
      Type ft = v[1].getType();
      Value z = arith::SIToFPOp::create(b, l, ft, v[2]);
      if constexpr (std::is_same_v<OpTy, QuantizeOp>) {
        Type it = type.getElementType();
        unsigned bits = it.getIntOrFloatBitWidth();
        Value q = math::RoundEvenOp::create(b, l, div(b, l, v[0], v[1]));
        q = add(b, l, q, z);
        q = max(b, l, q, scalar(b, l, ft, -std::ldexp(1.0, bits - 1)));
        q = min(b, l, q, scalar(b, l, ft, std::ldexp(1.0, bits - 1) - 1));
        return arith::FPToSIOp::create(b, l, it, q);
      } else {
        Value x = arith::SIToFPOp::create(b, l, ft, v[0]);
        return mul(b, l, sub(b, l, x, z), v[1]);
      }
    };
    Value y = perAxis ? channelwise(r, loc, type, axis, a.getInput(), {scale, zp}, body)
                      : elementwise(r, loc, type, {a.getInput(), scale, zp}, body);
    r.replaceOp(op, y);
    return success();
  }
};

} // namespace

void dlc::populateQuantizationLoweringPatterns(RewritePatternSet &p) {
  p.add<QuantLowering<QuantizeOp>, QuantLowering<DequantizeOp>>(p.getContext());
}
