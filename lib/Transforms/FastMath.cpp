//===- FastMath.cpp - exp, erf, tanh, softmax to FastMath's forms ----------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

#include <cmath>

namespace dlc {
#define GEN_PASS_DEF_FASTMATHPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {
/// An op replaced by its fast form, same operands and attributes.
template <typename From, typename To> struct ToFastForm : OpRewritePattern<From> {
  ToFastForm(MLIRContext *ctx, int64_t &count) : OpRewritePattern<From>(ctx), count(count) {}
  LogicalResult matchAndRewrite(From op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<To>(op, op->getResultTypes(), op->getOperands(), op->getAttrs());
    ++count;
    return success();
  }
  int64_t &count;
};

/// gelu, which hides an erf (or a tanh), as its formula with the fast form:
/// 0.5 x (1 + fast_erf(x / sqrt 2)), or with approximate = "tanh"
/// 0.5 x (1 + fast_tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
struct GeluToFastForm : OpRewritePattern<GeluOp> {
  GeluToFastForm(MLIRContext *ctx, int64_t &count) : OpRewritePattern(ctx), count(count) {}
  LogicalResult matchAndRewrite(GeluOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    Type elem = op.getType().getElementType();
    auto scalar = [&](double v) -> Value {
      auto type = RankedTensorType::get({}, elem);
      return ConstantOp::create(rewriter, loc,
                                DenseElementsAttr::get(type, rewriter.getFloatAttr(elem, v)));
    };
    auto mul = [&](Value a, Value b) { return MulOp::create(rewriter, loc, a, b); };
    auto add = [&](Value a, Value b) { return AddOp::create(rewriter, loc, a, b); };
    Value inner;
    if (op.getApproximate() == "tanh") {
      Value cube = mul(mul(x, x), x);
      inner = FastTanhOp::create(
          rewriter, loc, mul(scalar(std::sqrt(2.0 / M_PI)), add(x, mul(scalar(0.044715), cube))));
    } else {
      inner = FastErfOp::create(rewriter, loc, mul(x, scalar(1.0 / std::sqrt(2.0))));
    }
    rewriter.replaceOp(op, mul(mul(scalar(0.5), x), add(scalar(1.0), inner)));
    ++count;
    return success();
  }
  int64_t &count;
};

struct FastMathPass : dlc::impl::FastMathPassBase<FastMathPass> {
  void runOnOperation() override {
    int64_t exp = 0, erf = 0, tanh = 0, softmax = 0, gelu = 0;
    RewritePatternSet patterns(&getContext());
    patterns.add<ToFastForm<ExpOp, FastExpOp>>(&getContext(), exp);
    patterns.add<ToFastForm<ErfOp, FastErfOp>>(&getContext(), erf);
    patterns.add<ToFastForm<TanhOp, FastTanhOp>>(&getContext(), tanh);
    patterns.add<ToFastForm<SoftmaxOp, FastSoftmaxOp>>(&getContext(), softmax);
    patterns.add<GeluToFastForm>(&getContext(), gelu);
    if (failed(applyCountedPatterns(getOperation(), std::move(patterns))))
      return signalPassFailure();
    recordPassStat(getArgument(), "exp", exp);
    recordPassStat(getArgument(), "erf", erf);
    recordPassStat(getArgument(), "tanh", tanh);
    recordPassStat(getArgument(), "softmax", softmax);
    recordPassStat(getArgument(), "gelu", gelu);
  }
};
} // namespace
