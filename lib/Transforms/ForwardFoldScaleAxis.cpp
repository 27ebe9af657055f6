//===- ForwardFoldScaleAxis.cpp - scale before conv/dense into weights -----===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_FORWARDFOLDSCALEAXISPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {

/// conv2d|dense(chain(mul(x, s)), w) -> conv2d|dense(chain'(x), w * s).
template <typename OpTy>
struct ForwardFoldScale : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    int64_t axis = op.getInput().getType().getRank() - 1;
    if constexpr (std::is_same_v<OpTy, Conv2DOp>) {
      if (op.getGroups() != 1)
        return rewriter.notifyMatchFailure(op, "grouped conv2d");
      axis = op.getDataLayout() == "NHWC" ? 3 : 1;
    }
    // Walk back over relu / add / sub (with a constant) to the scale.
    SmallVector<Operation *> chain;
    bool needPositive = false, needNonZero = false;
    Value cur = op.getInput();
    MulOp mul;
    while (!mul) {
      Operation *def = cur.getDefiningOp();
      if (!def || !cur.hasOneUse())
        return rewriter.notifyMatchFailure(op, "chain value has other uses");
      if (auto m = dyn_cast<MulOp>(def)) {
        mul = m;
      } else if (isa<ReluOp>(def)) {
        needPositive = true;
        chain.push_back(def);
        cur = def->getOperand(0);
      } else if (isa<AddOp, SubOp>(def)) {
        Value a = def->getOperand(0), b = def->getOperand(1);
        bool aConst = a.getDefiningOp<ConstantOp>(), bConst = b.getDefiningOp<ConstantOp>();
        if (aConst == bConst)
          return rewriter.notifyMatchFailure(op, "add/sub needs one constant side");
        needNonZero = true;
        chain.push_back(def);
        cur = aConst ? b : a;
        if (cur.getType() != def->getResult(0).getType())
          return rewriter.notifyMatchFailure(op, "add/sub broadcasts the chain");
      } else {
        return rewriter.notifyMatchFailure(op, "no scale before the op");
      }
    }
    Value x = mul.getLhs(), s = mul.getRhs();
    if (x.getDefiningOp<ConstantOp>())
      std::swap(x, s);
    std::optional<Tensor> scale = constantValue(s);
    if (!scale || x.getDefiningOp<ConstantOp>() || mul.getType() != x.getType())
      return rewriter.notifyMatchFailure(op, "not x * constant");
    std::optional<std::vector<double>> sv =
        perChannelScale(*scale, tensorType(x), axis);
    if (!sv)
      return rewriter.notifyMatchFailure(op, "scale is not per input channel");
    if (needPositive && llvm::any_of(*sv, [](double v) { return v <= 0; }))
      return rewriter.notifyMatchFailure(op, "non-positive scale through relu");
    if (needNonZero && llvm::any_of(*sv, [](double v) { return v == 0; }))
      return rewriter.notifyMatchFailure(op, "zero scale through add/sub");

    Location loc = mul.getLoc();
    StagedOps ops(rewriter);
    Value result = x;
    for (Operation *c : llvm::reverse(chain)) {
      if (isa<ReluOp>(c)) {
        result = ops.create<ReluOp>(c->getLoc(), result);
        continue;
      }
      // x * s + k = (x + k / s) * s
      bool constFirst = c->getOperand(0).getDefiningOp<ConstantOp>();
      Value k = ops.create<DivOp>(loc, {c->getOperand(constFirst ? 0 : 1), s});
      result = ops.createLike(c, c->getLoc(),
                              constFirst ? ValueRange{k, result} : ValueRange{result, k});
    }
    // Weight: scale along I (OIHW: [C,1,1]; HWIO: [C,1]; dense [O,C]: [C]).
    Type et = tensorType(x).getElementType();
    SmallVector<int64_t> wShape{static_cast<int64_t>(sv->size())};
    if constexpr (std::is_same_v<OpTy, Conv2DOp>)
      wShape.append(op.getKernelLayout() == "OIHW" ? 2 : 1, 1);
    Tensor t(*dtypeOf(et), wShape);
    for (size_t i = 0; i < sv->size(); ++i)
      t.data[i] = roundToDType(t.dtype, (*sv)[i]);
    Value w = ops.create<MulOp>(loc, {op.getWeight(), ops.constant(loc, t, "scale")});
    SmallVector<Value> operands{result, w};
    if (op.getBias())
      operands.push_back(op.getBias());
    Value replacement =
        ops.create<OpTy>(op.getLoc(), operands, op->getAttrDictionary().getValue());
    if (!replacement || replacement.getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "cannot rebuild");
    ops.commit();
    rewriter.replaceOp(op, replacement);
    return success();
  }
};

struct ForwardFoldScaleAxisPass
    : dlc::impl::ForwardFoldScaleAxisPassBase<ForwardFoldScaleAxisPass> {
  void runOnOperation() override {
    if (failed(applyAndRecordPatterns(getOperation(), getArgument(), "folded",
                                      populateForwardFoldScaleAxisPatterns)))
      signalPassFailure();
  }
};

} // namespace

void dlc::populateForwardFoldScaleAxisPatterns(RewritePatternSet &patterns) {
  patterns.add<ForwardFoldScale<Conv2DOp>, ForwardFoldScale<DenseOp>>(
      patterns.getContext());
}
