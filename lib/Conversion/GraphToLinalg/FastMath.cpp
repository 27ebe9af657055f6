//===- FastMath.cpp - FastMath's cheap approximations ----------------------===//
#include "FastMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace {
/// Builds f32 arithmetic at one location.
struct F32 {
  OpBuilder &b;
  Location loc;
  Value c(double v) { return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v)); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value fma(Value x, Value y, Value z) { return math::FmaOp::create(b, loc, x, y, z); }
  Value clamp(Value x, double lo, double hi) {
    return arith::MinimumFOp::create(b, loc, arith::MaximumFOp::create(b, loc, x, c(lo)), c(hi));
  }
  /// sum coeffs[i] * x^(n-1-i), highest degree first (Horner).
  Value horner(Value x, ArrayRef<double> coeffs) {
    Value p = c(coeffs.front());
    for (double k : coeffs.drop_front())
      p = fma(p, x, c(k));
    return p;
  }
  /// x * p(x^2) / q(x^2), the odd rational form of erf and tanh.
  Value oddRational(Value x, ArrayRef<double> num, ArrayRef<double> den) {
    Value x2 = mul(x, x);
    return div(mul(x, horner(x2, num)), horner(x2, den));
  }
};
} // namespace

Value dlc::fastExp(OpBuilder &b, Location loc, Value x) {
  if (!x.getType().isF32())
    return math::ExpOp::create(b, loc, x);
  F32 f{b, loc};
  // exp(x) = 2^n * exp(r), n = round(x / ln 2), r = x - n ln 2 in one step
  // (no Cody-Waite split: the cheap part), exp(r) by Cephes' polynomial.
  // Beyond the clamp the result saturates near FLT_MAX (exp itself reaches
  // it at 88.72) or 0; n stays at most 127 (x log2 e + 1/2 rounds up to 128
  // in f32 at the upper clamp, and 2^128 is infinite).
  Value xc = f.clamp(x, -88.3762626647949, 88.3762626647950);
  Value n = math::FloorOp::create(b, loc, f.fma(xc, f.c(1.44269504088896341), f.c(0.5)));
  n = arith::MinimumFOp::create(b, loc, n, f.c(127.0));
  Value r = f.sub(xc, f.mul(n, f.c(0.6931471805599453)));
  Value p = f.horner(r, {1.9875691500E-4, 1.3981999507E-3, 8.3334519073E-3, 4.1665795894E-2,
                         1.6666665459E-1, 5.0000001201E-1});
  Value y = f.add(f.fma(f.mul(p, r), r, r), f.c(1.0));
  // 2^n from the exponent bits.
  Type i32 = b.getI32Type();
  Value e = arith::AddIOp::create(b, loc, arith::FPToSIOp::create(b, loc, i32, n),
                                  arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(127)));
  e = arith::ShLIOp::create(b, loc, e, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(23)));
  Value scale = arith::BitcastOp::create(b, loc, b.getF32Type(), e);
  return arith::MaximumFOp::create(b, loc, f.mul(scale, y), x);
}

Value dlc::fastErf(OpBuilder &b, Location loc, Value x) {
  if (!x.getType().isF32())
    return math::ErfOp::create(b, loc, x);
  F32 f{b, loc};
  // Beyond +-4, erf is +-1 in f32.
  return f.oddRational(f.clamp(x, -4.0, 4.0),
                       {-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
                        -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
                        -1.60960333262415e-02},
                       {-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
                        -7.37332916720468e-03, -1.42647390514189e-02});
}

Value dlc::fastTanh(OpBuilder &b, Location loc, Value x) {
  if (!x.getType().isF32())
    return math::TanhOp::create(b, loc, x);
  F32 f{b, loc};
  // Beyond +-9, tanh is +-1 in f32.
  return f.oddRational(f.clamp(x, -9.0, 9.0),
                       {-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11,
                        5.12229709037114e-08, 1.48572235717979e-05, 6.37261928875436e-04,
                        4.89352455891786e-03},
                       {1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03,
                        4.89352518554385e-03});
}
