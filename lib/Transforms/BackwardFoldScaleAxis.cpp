//===- BackwardFoldScaleAxis.cpp - scale after conv/dense into weights -----===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_BACKWARDFOLDSCALEAXISPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

/// A constant of `values` in `elementType`, shaped `shape`.
static Value channelConstant(StagedOps &ops, Location loc,
                             ArrayRef<double> values, Type elementType,
                             ArrayRef<int64_t> shape) {
  Tensor t(*dtypeOf(elementType), shape);
  for (size_t i = 0; i < values.size(); ++i)
    t.data[i] = roundToDType(t.dtype, values[i]);
  return ops.constant(loc, t, "scale");
}

namespace {

/// mul(chain(conv2d|dense), s) -> chain'(conv2d|dense with scaled weights).
struct BackwardFoldScale : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MulOp mul,
                                PatternRewriter &rewriter) const override {
    Value y = mul.getLhs(), s = mul.getRhs();
    if (y.getDefiningOp<ConstantOp>())
      std::swap(y, s);
    // Checked before reading the scale: the weight products this pattern
    // creates are muls of two constants, and decoding a weight costs.
    if (!s.getDefiningOp<ConstantOp>() || y.getDefiningOp<ConstantOp>())
      return rewriter.notifyMatchFailure(mul, "needs exactly one constant operand");
    std::optional<Tensor> scale = constantValue(s);
    if (!scale)
      return rewriter.notifyMatchFailure(mul, "unreadable constant scale");
    if (mul.getType() != y.getType())
      return rewriter.notifyMatchFailure(mul, "the scale broadcasts the value");

    // Walk back over relu / add / sub / bias_add to the contraction.
    SmallVector<Operation *> chain;
    bool needPositive = false;
    Value cur = y;
    Operation *root = nullptr;
    while (!root) {
      Operation *def = cur.getDefiningOp();
      if (!def || !cur.hasOneUse())
        return rewriter.notifyMatchFailure(mul, "chain value has other uses");
      if (isa<Conv2DOp, DenseOp>(def)) {
        root = def;
      } else if (isa<ReluOp>(def)) {
        needPositive = true;
        chain.push_back(def);
        cur = def->getOperand(0);
      } else if (isa<AddOp, SubOp>(def)) {
        Value a = def->getOperand(0), b = def->getOperand(1);
        bool aConst = a.getDefiningOp<ConstantOp>(), bConst = b.getDefiningOp<ConstantOp>();
        if (aConst == bConst || def->getResult(0).getType() != cur.getType())
          return rewriter.notifyMatchFailure(mul, "add/sub needs one constant side");
        chain.push_back(def);
        cur = aConst ? b : a;
        if (cur.getType() != def->getResult(0).getType())
          return rewriter.notifyMatchFailure(mul, "add/sub broadcasts the chain");
      } else if (auto bias = dyn_cast<BiasAddOp>(def)) {
        if (!bias.getBias().getDefiningOp<ConstantOp>())
          return rewriter.notifyMatchFailure(mul, "bias is not constant");
        chain.push_back(def);
        cur = bias.getInput();
      } else {
        return rewriter.notifyMatchFailure(mul, "no conv2d/dense on the chain");
      }
    }

    RankedTensorType outType = tensorType(root->getResult(0));
    int64_t axis = outType.getRank() - 1;
    auto conv = dyn_cast<Conv2DOp>(root);
    if (conv) {
      axis = conv.getDataLayout() == "NHWC" ? 3 : 1;
      int64_t groups = conv.getGroups();
      int64_t inC = conv.getInput().getType().getDimSize(axis);
      if (groups != 1 && groups != inC)
        return rewriter.notifyMatchFailure(mul, "grouped (not depthwise) conv2d");
    }
    std::optional<std::vector<double>> sv = perChannelScale(*scale, outType, axis);
    if (!sv)
      return rewriter.notifyMatchFailure(mul, "scale is not per output channel");
    if (needPositive && llvm::any_of(*sv, [](double v) { return v <= 0; }))
      return rewriter.notifyMatchFailure(mul, "non-positive scale through relu");
    for (Operation *op : chain)
      if (auto bias = dyn_cast<BiasAddOp>(op))
        if (*normalizeAxis(bias.getAxis(), outType.getRank()) != axis)
          return rewriter.notifyMatchFailure(mul, "bias_add on another axis");

    Location loc = mul.getLoc();
    Type et = outType.getElementType();
    int64_t channels = sv->size();
    // Weight: scale along O (OIHW: [O,1,1,1]; HWIO: [O]; dense [O,in]: [O,1]).
    SmallVector<int64_t> wShape{channels};
    if (conv && conv.getKernelLayout() == "OIHW")
      wShape.append(3, 1);
    else if (!conv)
      wShape.push_back(1);
    StagedOps ops(rewriter);
    Value wScaled = ops.create<MulOp>(
        loc, {root->getOperand(1), channelConstant(ops, loc, *sv, et, wShape)});
    SmallVector<Value> operands{root->getOperand(0), wScaled};
    Value perChannel = channelConstant(ops, loc, *sv, et, {channels});
    if (root->getNumOperands() > 2)
      operands.push_back(ops.create<MulOp>(loc, {root->getOperand(2), perChannel}));
    Value result = ops.createLike(root, root->getLoc(), operands,
                                  root->getAttrDictionary().getValue());
    // Rebuild the chain on top, scaling its constants.
    for (Operation *op : llvm::reverse(chain)) {
      if (isa<ReluOp>(op)) {
        result = ops.create<ReluOp>(op->getLoc(), result);
      } else if (auto bias = dyn_cast<BiasAddOp>(op)) {
        Value b = ops.create<MulOp>(loc, {bias.getBias(), perChannel});
        result = ops.create<BiasAddOp>(op->getLoc(), {result, b},
                                       op->getAttrDictionary().getValue());
      } else {
        bool constFirst = op->getOperand(0).getDefiningOp<ConstantOp>();
        Value c = op->getOperand(constFirst ? 0 : 1);
        Value cScaled = ops.create<MulOp>(loc, {c, s});
        result = ops.createLike(op, op->getLoc(),
                                constFirst ? ValueRange{cScaled, result}
                                           : ValueRange{result, cScaled});
      }
    }
    if (!result || result.getType() != mul.getType())
      return rewriter.notifyMatchFailure(mul, "cannot rebuild the chain");
    ops.commit();
    rewriter.replaceOp(mul, result);
    return success();
  }
};

struct BackwardFoldScaleAxisPass
    : dlc::impl::BackwardFoldScaleAxisPassBase<BackwardFoldScaleAxisPass> {
  void runOnOperation() override {
    if (failed(applyAndRecordPatterns(getOperation(), getArgument(), "folded",
                                      populateBackwardFoldScaleAxisPatterns)))
      signalPassFailure();
  }
};

} // namespace

void dlc::populateBackwardFoldScaleAxisPatterns(RewritePatternSet &patterns) {
  patterns.add<BackwardFoldScale>(patterns.getContext());
}
