//===- Reductions.cpp - reductions ----------------------------------------===//
//
// Sum, mean, maximum, minimum and product over a set of axes as linalg
// reductions; arg_max and arg_min as a reduction into (value, index) pairs.
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
    constexpr bool isMax = std::is_same_v<OpTy, ReduceMaxOp>;
    constexpr bool isMin = std::is_same_v<OpTy, ReduceMinOp>;
    constexpr bool isProd = std::is_same_v<OpTy, ReduceProdOp>;
    Type et = in.getElementType();
    double init = isMax ? lowest(et) : isMin ? highest(et) : isProd ? 1.0 : 0.0;
    Location loc = op.getLoc();
    Value y = reduce(r, loc, a.getInput(), axes, op.getKeepdims(), init,
                     [&](OpBuilder &b, Location l, Value acc, Value v) {
                       return isMax    ? max(b, l, acc, v)
                              : isMin  ? min(b, l, acc, v)
                              : isProd ? mul(b, l, acc, v)
                                       : add(b, l, acc, v);
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

/// arg_max / arg_min: one generic reducing the axis into a (best value,
/// index) pair; the index output is the result.
template <typename OpTy>
struct ArgReduceLowering : GraphPattern<OpTy> {
  using GraphPattern<OpTy>::GraphPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    constexpr bool isMax = std::is_same_v<OpTy, ArgMaxOp>;
    bool last = op.getSelectLastIndex();
    Location loc = op.getLoc();
    RankedTensorType in = typeOf(a.getInput());
    Type et = in.getElementType();
    int64_t rank = in.getRank(), axis = *normalizeAxis(op.getAxis(), rank);
    // Loops: the kept dims in order, then the axis (reduction).
    MLIRContext *ctx = r.getContext();
    SmallVector<AffineExpr> inExprs(rank), outExprs;
    for (int64_t d = 0, next = 0; d < rank; ++d) {
      if (d == axis) {
        inExprs[d] = getAffineDimExpr(rank - 1, ctx);
        continue;
      }
      inExprs[d] = getAffineDimExpr(next, ctx);
      outExprs.push_back(getAffineDimExpr(next++, ctx));
    }
    SmallVector<int64_t> keptShape;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        keptShape.push_back(in.getDimSize(d));
    auto valueType = RankedTensorType::get(keptShape, et);
    auto indexType = RankedTensorType::get(keptShape, r.getI64Type());
    Value best = filled(r, loc, valueType, isMax ? lowest(et) : highest(et));
    Value index = filled(r, loc, indexType, 0);
    SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, inExprs, ctx),
                                   AffineMap::get(rank, 0, outExprs, ctx),
                                   AffineMap::get(rank, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iters(rank - 1, utils::IteratorType::parallel);
    iters.push_back(utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        r, loc, TypeRange{valueType, indexType}, a.getInput(), ValueRange{best, index}, maps,
        iters, [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = args[0], b0 = args[1];
          Value j = arith::IndexCastOp::create(b, l, b.getI64Type(),
                                               linalg::IndexOp::create(b, l, rank - 1));
          Value better;
          if (isFloatType(et)) {
            // A NaN wins over numbers; among equals the first or the last.
            using P = arith::CmpFPredicate;
            Value vNan = arith::CmpFOp::create(b, l, P::UNO, v, v);
            Value bNan = arith::CmpFOp::create(b, l, P::UNO, b0, b0);
            P cmp = isMax ? (last ? P::OGE : P::OGT) : (last ? P::OLE : P::OLT);
            Value wins = arith::OrIOp::create(b, l, vNan, arith::CmpFOp::create(b, l, cmp, v, b0));
            Value nanTie = last ? Value(vNan) : scalar(b, l, b.getI1Type(), 0);
            better = arith::SelectOp::create(b, l, bNan, nanTie, wins);
          } else {
            using P = arith::CmpIPredicate;
            P cmp = isMax ? (last ? P::sge : P::sgt) : (last ? P::sle : P::slt);
            better = arith::CmpIOp::create(b, l, cmp, v, b0);
          }
          // The first element always counts (the initial value may equal it).
          Value first = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, j,
                                              scalar(b, l, b.getI64Type(), 0));
          better = arith::OrIOp::create(b, l, better, first);
          linalg::YieldOp::create(b, l, ValueRange{arith::SelectOp::create(b, l, better, v, b0),
                                                   arith::SelectOp::create(b, l, better, j, args[2])});
        });
    Value y = generic.getResult(1);
    if (op.getKeepdims())
      y = reshapeTo(r, loc, y, op.getType());
    r.replaceOp(op, y);
    return success();
  }
};

} // namespace

void dlc::populateReductionsLoweringPatterns(RewritePatternSet &p) {
  p.add<ReduceLowering<ReduceSumOp>, ReduceLowering<ReduceMeanOp>, ReduceLowering<ReduceMaxOp>,
        ReduceLowering<ReduceMinOp>, ReduceLowering<ReduceProdOp>, ArgReduceLowering<ArgMaxOp>,
        ArgReduceLowering<ArgMinOp>>(p.getContext());
}
