//===- Elementwise.cpp - activations and elementwise arithmetic -----------===//
//
// One linalg.generic per op with numpy broadcasting maps and a scalar body:
// unary math, clip, GELU, binary arithmetic, comparisons, select, casts.
//
//===----------------------------------------------------------------------===//
#include "Lowerings.h"
#include "FastMath.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::lowering;

namespace {

/// Unary elementwise ops: one scalar function each.
template <typename OpTy>
struct UnaryLowering : GraphPattern<OpTy> {
  UnaryLowering(MLIRContext *ctx, std::function<Value(OpBuilder &, Location, Value, OpTy)> fn)
      : GraphPattern<OpTy>(ctx), fn(std::move(fn)) {}
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Value y = elementwise(r, op.getLoc(), cast<RankedTensorType>(op.getType()),
                          a.getOperands().take_front(1),
                          [&](OpBuilder &b, Location l, ValueRange v) { return fn(b, l, v[0], op); });
    r.replaceOp(op, y);
    return success();
  }
  std::function<Value(OpBuilder &, Location, Value, OpTy)> fn;
};

/// Binary elementwise ops with numpy broadcasting.
template <typename OpTy>
struct BinaryLowering : GraphPattern<OpTy> {
  BinaryLowering(MLIRContext *ctx, std::function<Value(OpBuilder &, Location, Value, Value)> fn)
      : GraphPattern<OpTy>(ctx), fn(std::move(fn)) {}
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Value y = elementwise(r, op.getLoc(), op.getType(), {a.getLhs(), a.getRhs()},
                          [&](OpBuilder &b, Location l, ValueRange v) { return fn(b, l, v[0], v[1]); });
    r.replaceOp(op, y);
    return success();
  }
  std::function<Value(OpBuilder &, Location, Value, Value)> fn;
};

struct CastLowering : GraphPattern<CastOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(CastOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    Type to = op.getType().getElementType();
    r.replaceOp(op, elementwise(r, op.getLoc(), op.getType(), a.getInput(),
                                [&](OpBuilder &b, Location l, ValueRange v) {
                                  return convertScalar(b, l, v[0], to);
                                }));
    return success();
  }
};

struct CompareLowering : GraphPattern<CompareOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(CompareOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    StringRef p = op.getPredicate();
    r.replaceOp(op, elementwise(r, op.getLoc(), op.getType(), {a.getLhs(), a.getRhs()},
                                [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                                  if (isFloatType(v[0].getType())) {
                                    // Ordered, except ne: NaN is unequal to all.
                                    auto fp = llvm::StringSwitch<arith::CmpFPredicate>(p)
                                                  .Case("eq", arith::CmpFPredicate::OEQ)
                                                  .Case("ne", arith::CmpFPredicate::UNE)
                                                  .Case("lt", arith::CmpFPredicate::OLT)
                                                  .Case("le", arith::CmpFPredicate::OLE)
                                                  .Case("gt", arith::CmpFPredicate::OGT)
                                                  .Default(arith::CmpFPredicate::OGE);
                                    return arith::CmpFOp::create(b, l, fp, v[0], v[1]);
                                  }
                                  auto ip = llvm::StringSwitch<arith::CmpIPredicate>(p)
                                                .Case("eq", arith::CmpIPredicate::eq)
                                                .Case("ne", arith::CmpIPredicate::ne)
                                                .Case("lt", arith::CmpIPredicate::slt)
                                                .Case("le", arith::CmpIPredicate::sle)
                                                .Case("gt", arith::CmpIPredicate::sgt)
                                                .Default(arith::CmpIPredicate::sge);
                                  return arith::CmpIOp::create(b, l, ip, v[0], v[1]);
                                }));
    return success();
  }
};

struct SelectLowering : GraphPattern<SelectOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(SelectOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    r.replaceOp(op, elementwise(r, op.getLoc(), op.getType(),
                                {a.getCondition(), a.getTrueValue(), a.getFalseValue()},
                                [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                                  return arith::SelectOp::create(b, l, v[0], v[1], v[2]);
                                }));
    return success();
  }
};

/// Elementwise scalar bodies of the unary ops.
template <typename OpTy>
void addUnary(RewritePatternSet &p, std::function<Value(OpBuilder &, Location, Value, OpTy)> fn) {
  p.add<UnaryLowering<OpTy>>(p.getContext(), std::move(fn));
}

template <typename OpTy>
void addBinary(RewritePatternSet &p, std::function<Value(OpBuilder &, Location, Value, Value)> fn) {
  p.add<BinaryLowering<OpTy>>(p.getContext(), std::move(fn));
}

Value gelu(OpBuilder &b, Location l, Value x, bool tanhApprox) {
  Type t = x.getType();
  Value half = scalar(b, l, t, 0.5), one = scalar(b, l, t, 1.0);
  Value inner;
  if (tanhApprox) {
    Value x3 = mul(b, l, mul(b, l, x, x), x);
    inner = math::TanhOp::create(
        b, l, mul(b, l, scalar(b, l, t, std::sqrt(2.0 / M_PI)),
                  add(b, l, x, mul(b, l, scalar(b, l, t, 0.044715), x3))));
  } else {
    inner = math::ErfOp::create(b, l, mul(b, l, x, scalar(b, l, t, 1.0 / std::sqrt(2.0))));
  }
  return mul(b, l, mul(b, l, half, x), add(b, l, one, inner));
}

} // namespace

void dlc::populateElementwiseLoweringPatterns(RewritePatternSet &p) {
  p.add<CastLowering, CompareLowering, SelectLowering>(p.getContext());
  addUnary<ReluOp>(p, [](OpBuilder &b, Location l, Value x, ReluOp) {
    return max(b, l, x, scalar(b, l, x.getType(), 0));
  });
  addUnary<SigmoidOp>(p, [](OpBuilder &b, Location l, Value x, SigmoidOp) {
    Value one = scalar(b, l, x.getType(), 1.0);
    return div(b, l, one, add(b, l, one, math::ExpOp::create(b, l, arith::NegFOp::create(b, l, x))));
  });
  addUnary<TanhOp>(p, [](OpBuilder &b, Location l, Value x, TanhOp) { return math::TanhOp::create(b, l, x); });
  addUnary<ErfOp>(p, [](OpBuilder &b, Location l, Value x, ErfOp) { return math::ErfOp::create(b, l, x); });
  addUnary<ExpOp>(p, [](OpBuilder &b, Location l, Value x, ExpOp) { return math::ExpOp::create(b, l, x); });
  addUnary<FastExpOp>(p, [](OpBuilder &b, Location l, Value x, FastExpOp) { return fastExp(b, l, x); });
  addUnary<FastErfOp>(p, [](OpBuilder &b, Location l, Value x, FastErfOp) { return fastErf(b, l, x); });
  addUnary<FastTanhOp>(p, [](OpBuilder &b, Location l, Value x, FastTanhOp) { return fastTanh(b, l, x); });
  addUnary<LogOp>(p, [](OpBuilder &b, Location l, Value x, LogOp) { return math::LogOp::create(b, l, x); });
  addUnary<SqrtOp>(p, [](OpBuilder &b, Location l, Value x, SqrtOp) { return math::SqrtOp::create(b, l, x); });
  addUnary<RsqrtOp>(p, [](OpBuilder &b, Location l, Value x, RsqrtOp) {
    return div(b, l, scalar(b, l, x.getType(), 1.0), math::SqrtOp::create(b, l, x));
  });
  addUnary<NegOp>(p, [](OpBuilder &b, Location l, Value x, NegOp) {
    return isFloatType(x.getType()) ? (Value)arith::NegFOp::create(b, l, x)
                                    : sub(b, l, scalar(b, l, x.getType(), 0), x);
  });
  addUnary<AbsOp>(p, [](OpBuilder &b, Location l, Value x, AbsOp) {
    if (isFloatType(x.getType()))
      return (Value)math::AbsFOp::create(b, l, x);
    Value zero = scalar(b, l, x.getType(), 0);
    Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x, zero);
    return (Value)arith::SelectOp::create(b, l, neg, sub(b, l, zero, x), x);
  });
  // Float math with a math dialect op of its own (intrinsics or libm).
  auto math1 = [&p](auto tag, auto mathTag) {
    using OpTy = decltype(tag);
    using MathOp = decltype(mathTag);
    addUnary<OpTy>(p, [](OpBuilder &b, Location l, Value x, OpTy) -> Value {
      return MathOp::create(b, l, x);
    });
  };
  math1(SinOp(), math::SinOp());
  math1(CosOp(), math::CosOp());
  math1(TanOp(), math::TanOp());
  math1(AsinOp(), math::AsinOp());
  math1(AcosOp(), math::AcosOp());
  math1(AtanOp(), math::AtanOp());
  math1(SinhOp(), math::SinhOp());
  math1(CoshOp(), math::CoshOp());
  math1(AsinhOp(), math::AsinhOp());
  math1(AcoshOp(), math::AcoshOp());
  math1(AtanhOp(), math::AtanhOp());
  math1(FloorOp(), math::FloorOp());
  math1(CeilOp(), math::CeilOp());
  math1(RoundOp(), math::RoundEvenOp());
  addUnary<GeluOp>(p, [](OpBuilder &b, Location l, Value x, GeluOp op) {
    return gelu(b, l, x, op.getApproximate() == "tanh");
  });
  addUnary<ClipOp>(p, [](OpBuilder &b, Location l, Value x, ClipOp op) {
    Type t = x.getType();
    double lo = op.getMin().convertToDouble(), hi = op.getMax().convertToDouble();
    if (!isFloatType(t)) { // clamp the bounds into the integer range
      lo = std::max(lo, lowest(t));
      hi = std::min(hi, -lowest(t) - 1);
    }
    return min(b, l, max(b, l, x, scalar(b, l, t, lo)), scalar(b, l, t, hi));
  });
  addUnary<DropoutOp>(p, [](OpBuilder &, Location, Value x, DropoutOp) { return x; });
  using Scalar2 = Value (*)(OpBuilder &, Location, Value, Value);
  addBinary<AddOp>(p, static_cast<Scalar2>(add));
  addBinary<SubOp>(p, static_cast<Scalar2>(sub));
  addBinary<MulOp>(p, static_cast<Scalar2>(mul));
  addBinary<DivOp>(p, static_cast<Scalar2>(div));
  addBinary<MaximumOp>(p, static_cast<Scalar2>(max));
  addBinary<MinimumOp>(p, static_cast<Scalar2>(min));
  addBinary<PowOp>(p, [](OpBuilder &b, Location l, Value x, Value y) -> Value {
    if (isFloatType(x.getType()))
      return math::PowFOp::create(b, l, x, y);
    return math::IPowIOp::create(b, l, x, y);
  });
}
