//===- Reductions.cpp - reductions ----------------------------------------===//
//
// Sum, mean and maximum over a set of axes as linalg reductions.
//
//===----------------------------------------------------------------------===//
#include "Lowerings.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::lowering;

namespace {

template <typename OpTy>
struct ReduceLowering : GraphPattern<OpTy> {
  using GraphPattern<OpTy>::GraphPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    RankedTensorType in = typeOf(a.getInput());
    SmallVector<int64_t> axes;
    for (int64_t ax : op.getAxes())
      axes.push_back(*normalizeAxis(ax, in.getRank()));
    if (axes.empty())
      for (int64_t i = 0; i < in.getRank(); ++i)
        axes.push_back(i);
    bool isMax = std::is_same_v<OpTy, ReduceMaxOp>;
    Location loc = op.getLoc();
    Value y = reduce(r, loc, a.getInput(), axes, op.getKeepdims(),
                     isMax ? lowest(in.getElementType()) : 0.0,
                     [&](OpBuilder &b, Location l, Value acc, Value v) {
                       return isMax ? max(b, l, acc, v) : add(b, l, acc, v);
                     });
    if (std::is_same_v<OpTy, ReduceMeanOp>) {
      int64_t count = 1;
      for (int64_t ax : axes)
        count *= in.getDimSize(ax);
      y = elementwise(r, loc, op.getType(), y, [&](OpBuilder &b, Location l, ValueRange v) {
        return div(b, l, v[0], scalar(b, l, v[0].getType(), (double)count));
      });
    }
    r.replaceOp(op, y);
    return success();
  }
};

} // namespace

void dlc::populateReductionsLoweringPatterns(RewritePatternSet &p) {
  p.add<ReduceLowering<ReduceSumOp>, ReduceLowering<ReduceMeanOp>, ReduceLowering<ReduceMaxOp>>(p.getContext());
}
