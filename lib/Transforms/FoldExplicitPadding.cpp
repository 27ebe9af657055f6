//===- FoldExplicitPadding.cpp - pad into conv2d / pooling padding ---------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

#include <cmath>
#include <limits>

namespace dlc {
#define GEN_PASS_DEF_FOLDEXPLICITPADDINGPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

/// The lowest value of an element type (the neutral pad value of max pooling).
static double lowestOf(Type t) {
  if (isa<FloatType>(t))
    return -std::numeric_limits<double>::infinity();
  unsigned bits = t.getIntOrFloatBitWidth();
  return bits == 1 ? 0.0 : -std::ldexp(1.0, bits - 1);
}

namespace {

template <typename OpTy>
struct FoldPadInto : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto pad = op.getInput().template getDefiningOp<PadOp>();
    if (!pad)
      return failure();
    if (pad.getMode() != "constant")
      return rewriter.notifyMatchFailure(op, "pad mode is not constant");
    StringRef layout;
    if constexpr (std::is_same_v<OpTy, Conv2DOp>)
      layout = op.getDataLayout();
    else
      layout = op.getLayout();
    int64_t h = layout == "NHWC" ? 1 : 2, w = h + 1;
    ArrayRef<int64_t> before = pad.getPadBefore(), after = pad.getPadAfter();
    for (int64_t d = 0; d < 4; ++d)
      if (d != h && d != w && (before[d] || after[d]))
        return rewriter.notifyMatchFailure(op, "pads a non-spatial axis");
    double value = pad.getValue().convertToDouble();
    double expected = std::is_same_v<OpTy, MaxPool2DOp>
                          ? lowestOf(pad.getType().getElementType())
                          : 0.0;
    if (value != expected)
      return rewriter.notifyMatchFailure(op, "pad value is not neutral for the op");
    ArrayRef<int64_t> own = op.getPadding();
    SmallVector<int64_t> padding{own[0] + before[h], own[1] + before[w],
                                 own[2] + after[h], own[3] + after[w]};
    NamedAttrList attrs(op->getAttrDictionary());
    attrs.set("padding", rewriter.getDenseI64ArrayAttr(padding));
    if constexpr (std::is_same_v<OpTy, AvgPool2DOp>) {
      if (!op.getCountIncludePad()) {
        if (llvm::any_of(own, [](int64_t p) { return p != 0; }))
          return rewriter.notifyMatchFailure(
              op, "count_include_pad = false with padding of its own");
        attrs.set("count_include_pad", rewriter.getBoolAttr(true));
      }
    }
    SmallVector<Value> operands(op->getOperands());
    operands[0] = pad.getInput();
    StagedOps ops(rewriter);
    Value folded = ops.create<OpTy>(op.getLoc(), operands, attrs.getAttrs());
    if (!folded || folded.getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "the folded padding is not valid for the op");
    ops.commit();
    rewriter.replaceOp(op, folded);
    return success();
  }
};

struct FoldExplicitPaddingPass
    : dlc::impl::FoldExplicitPaddingPassBase<FoldExplicitPaddingPass> {
  void runOnOperation() override {
    if (failed(applyAndRecordPatterns(getOperation(), getArgument(), "folded",
                                      populateFoldExplicitPaddingPatterns)))
      signalPassFailure();
  }
};

} // namespace

void dlc::populateFoldExplicitPaddingPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldPadInto<Conv2DOp>, FoldPadInto<AvgPool2DOp>,
               FoldPadInto<MaxPool2DOp>>(patterns.getContext());
}
