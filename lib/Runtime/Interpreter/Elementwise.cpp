//===- Elementwise.cpp - activations and elementwise arithmetic -----------===//
//
// Unary math, clip and GELU; binary arithmetic, maximum and minimum with
// numpy broadcasting (broadcastBinary in Eval.h); comparisons, select, cast
// and inference-time dropout.
//
//===----------------------------------------------------------------------===//
#include "Eval.h"

#include "dlc/Dialect/Graph/GraphOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::interp;

namespace {

/// y = c ? t : f with numpy broadcasting of the three.
void broadcastSelect(const Tensor &c, const Tensor &t, const Tensor &f, Tensor &y) {
  Shape sc = broadcastStrides(c.shape, y.shape), st = broadcastStrides(t.shape, y.shape),
        sf = broadcastStrides(f.shape, y.shape);
  forEachIndex(y.shape, [&](ArrayRef<int64_t> idx, int64_t i) {
    y.data[i] = c.data[dot(idx, sc)] != 0 ? t.data[dot(idx, st)] : f.data[dot(idx, sf)];
  });
}

double gelu(double x, bool tanhApprox) {
  if (tanhApprox)
    return 0.5 * x *
           (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
}

} // namespace

EvalResult interp::evalElementwise(Operation *op, Inputs in, Outputs out) {
  auto unary = [&](auto f) {
    Tensor &y = out[0];
    for (int64_t i = 0; i < y.size(); ++i)
      y.data[i] = f(in[0]->data[i]);
    return success();
  };
  auto binary = [&](auto f) {
    broadcastBinary(*in[0], *in[1], out[0], f);
    return success();
  };
  bool isInt = !isFloat(out[0].dtype);
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](ReluOp) { return unary([](double x) { return nanMax(x, 0.0); }); })
      .Case([&](SigmoidOp) {
        return unary([](double x) { return 1.0 / (1.0 + std::exp(-x)); });
      })
      // FastMath's forms are approximations of the same functions: the
      // reference is the function itself.
      .Case<TanhOp, FastTanhOp>([&](auto) { return unary([](double x) { return std::tanh(x); }); })
      .Case<ErfOp, FastErfOp>([&](auto) { return unary([](double x) { return std::erf(x); }); })
      .Case<ExpOp, FastExpOp>([&](auto) { return unary([](double x) { return std::exp(x); }); })
      .Case([&](LogOp) { return unary([](double x) { return std::log(x); }); })
      .Case([&](SqrtOp) { return unary([](double x) { return std::sqrt(x); }); })
      .Case([&](RsqrtOp) {
        return unary([](double x) { return 1.0 / std::sqrt(x); });
      })
      .Case([&](NegOp) { return unary([](double x) { return -x; }); })
      .Case([&](AbsOp) { return unary([](double x) { return std::fabs(x); }); })
      .Case([&](SinOp) { return unary([](double x) { return std::sin(x); }); })
      .Case([&](CosOp) { return unary([](double x) { return std::cos(x); }); })
      .Case([&](TanOp) { return unary([](double x) { return std::tan(x); }); })
      .Case([&](AsinOp) { return unary([](double x) { return std::asin(x); }); })
      .Case([&](AcosOp) { return unary([](double x) { return std::acos(x); }); })
      .Case([&](AtanOp) { return unary([](double x) { return std::atan(x); }); })
      .Case([&](SinhOp) { return unary([](double x) { return std::sinh(x); }); })
      .Case([&](CoshOp) { return unary([](double x) { return std::cosh(x); }); })
      .Case([&](AsinhOp) { return unary([](double x) { return std::asinh(x); }); })
      .Case([&](AcoshOp) { return unary([](double x) { return std::acosh(x); }); })
      .Case([&](AtanhOp) { return unary([](double x) { return std::atanh(x); }); })
      .Case([&](FloorOp) { return unary([](double x) { return std::floor(x); }); })
      .Case([&](CeilOp) { return unary([](double x) { return std::ceil(x); }); })
      // nearbyint rounds halves to even in the default rounding mode.
      .Case([&](RoundOp) { return unary([](double x) { return std::nearbyint(x); }); })
      .Case([&](GeluOp c) {
        bool approx = c.getApproximate() == "tanh";
        return unary([&](double x) { return gelu(x, approx); });
      })
      .Case([&](ClipOp c) {
        double lo = c.getMin().convertToDouble(), hi = c.getMax().convertToDouble();
        return unary([&](double x) { return nanMin(nanMax(x, lo), hi); });
      })
      .Case([&](AddOp) { return binary([](double a, double b) { return a + b; }); })
      .Case([&](SubOp) { return binary([](double a, double b) { return a - b; }); })
      .Case([&](MulOp) { return binary([](double a, double b) { return a * b; }); })
      .Case([&](DivOp c) -> LogicalResult {
        bool divByZero = false;
        broadcastBinary(*in[0], *in[1], out[0], [&](double a, double b) {
          if (!isInt)
            return a / b;
          if (b == 0) {
            divByZero = true;
            return 0.0;
          }
          return std::trunc(a / b);
        });
        if (divByZero)
          return c.emitError("div: integer division by zero");
        return success();
      })
      .Case([&](PowOp) {
        return binary([](double a, double b) { return std::pow(a, b); });
      })
      .Case([&](MaximumOp) {
        return binary(nanMax);
      })
      .Case([&](CompareOp c) {
        // IEEE: NaN is unequal to everything, and ordered with nothing.
        StringRef p = c.getPredicate();
        return binary([p](double a, double b) -> double {
          return p == "eq"   ? a == b
                 : p == "ne" ? a != b
                 : p == "lt" ? a < b
                 : p == "le" ? a <= b
                 : p == "gt" ? a > b
                             : a >= b;
        });
      })
      .Case([&](SelectOp) {
        broadcastSelect(*in[0], *in[1], *in[2], out[0]);
        return success();
      })
      .Case([&](MinimumOp) {
        return binary(nanMin);
      })
      .Case([&](DropoutOp) { // inference: the identity
        out[0].data = in[0]->data;
        return success();
      })
      .Case([&](CastOp) {
        out[0].data = in[0]->data;
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}
