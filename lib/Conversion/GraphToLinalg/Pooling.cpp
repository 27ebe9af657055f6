//===- Pooling.cpp - pooling ----------------------------------------------===//
//
// Max and average pooling windows (padding, dilation, count_include_pad)
// and global average pooling.
//
//===----------------------------------------------------------------------===//
#include "Lowerings.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::lowering;

namespace {

template <typename OpTy>
struct PoolLowering : GraphPattern<OpTy> {
  using GraphPattern<OpTy>::GraphPattern;
  static constexpr bool isMax = std::is_same_v<OpTy, MaxPool2DOp>;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type et = type.getElementType();
    bool nhwc = op.getLayout() == "NHWC";
    Dims dm = dimsOf(op.getLayout());
    ArrayRef<int64_t> k = op.getKernelSize(), s = op.getStrides(), d = op.getDilations(),
                      p = op.getPadding();
    RankedTensorType in = typeOf(a.getInput());
    int64_t ih = in.getDimSize(dm.h), iw = in.getDimSize(dm.w);
    int64_t oh = type.getDimSize(dm.h), ow = type.getDimSize(dm.w);
    // Windows must fit: ceil mode may need extra rows/columns at the end.
    int64_t needH = (oh - 1) * s[0] + d[0] * (k[0] - 1) + 1;
    int64_t needW = (ow - 1) * s[1] + d[1] * (k[1] - 1) + 1;
    SmallVector<int64_t> low(4, 0), high(4, 0);
    low[dm.h] = p[0];
    low[dm.w] = p[1];
    high[dm.h] = std::max(p[2], needH - ih - p[0]);
    high[dm.w] = std::max(p[3], needW - iw - p[1]);
    Value x = padConstant(r, loc, a.getInput(), low, high, isMax ? lowest(et) : 0.0);
    Value window = tensor::EmptyOp::create(r, loc, ArrayRef<int64_t>{k[0], k[1]}, et);
    auto strides = r.getI64TensorAttr(s);
    auto dilations = r.getI64TensorAttr(d);
    Value init = filled(r, loc, type, isMax ? lowest(et) : 0.0);
    Value y;
    if constexpr (isMax) {
      y = nhwc ? linalg::PoolingNhwcMaxOp::create(r, loc, TypeRange{type}, ValueRange{x, window},
                                                 ValueRange{init}, strides, dilations).getResult(0)
               : linalg::PoolingNchwMaxOp::create(r, loc, TypeRange{type}, ValueRange{x, window},
                                                  ValueRange{init}, strides, dilations).getResult(0);
      r.replaceOp(op, y);
      return success();
    } else {
      y = nhwc ? linalg::PoolingNhwcSumOp::create(r, loc, TypeRange{type}, ValueRange{x, window},
                                                 ValueRange{init}, strides, dilations).getResult(0)
               : linalg::PoolingNchwSumOp::create(r, loc, TypeRange{type}, ValueRange{x, window},
                                                  ValueRange{init}, strides, dilations).getResult(0);
      // Divisors per output position, known at compile time.
      bool countPad = op.getCountIncludePad();
      SmallVector<APFloat> counts;
      const llvm::fltSemantics &sem = cast<FloatType>(et).getFloatSemantics();
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          int64_t n = 0;
          for (int64_t u = 0; u < k[0]; ++u)
            for (int64_t v = 0; v < k[1]; ++v) {
              int64_t hh = i * s[0] - p[0] + u * d[0], ww = j * s[1] - p[1] + v * d[1];
              bool inside = hh >= 0 && hh < ih && ww >= 0 && ww < iw;
              bool inPadded = hh < ih + p[2] && ww < iw + p[3];
              n += inside || (countPad && inPadded);
            }
          APFloat f((double)std::max<int64_t>(n, 1));
          bool lost;
          f.convert(sem, APFloat::rmNearestTiesToEven, &lost);
          counts.push_back(f);
        }
      auto countType = RankedTensorType::get({oh, ow}, et);
      Value divisor = arith::ConstantOp::create(r, loc, DenseElementsAttr::get(countType, counts));
      MLIRContext *ctx = this->getContext();
      auto dd = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
      SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(4, ctx),
                                  AffineMap::get(4, 0, {dd(dm.h), dd(dm.w)}, ctx),
                                  AffineMap::getMultiDimIdentityMap(4, ctx)};
      auto g = linalg::GenericOp::create(
          r, loc, TypeRange{type}, ValueRange{y, divisor}, ValueRange{empty(r, loc, type)}, maps,
          SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
          [&](OpBuilder &b, Location l, ValueRange args) {
            linalg::YieldOp::create(b, l, div(b, l, args[0], args[1]));
          });
      r.replaceOp(op, g.getResult(0));
      return success();
    }
  }
};

struct GlobalAvgPoolLowering : GraphPattern<GlobalAvgPool2DOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(GlobalAvgPool2DOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    Dims dm = dimsOf(op.getLayout());
    RankedTensorType in = typeOf(a.getInput());
    Location loc = op.getLoc();
    Value sum = reduce(r, loc, a.getInput(), {dm.h, dm.w}, true, 0.0,
                       [](OpBuilder &b, Location l, Value acc, Value v) { return add(b, l, acc, v); });
    double n = in.getDimSize(dm.h) * in.getDimSize(dm.w);
    r.replaceOp(op, elementwise(r, loc, op.getType(), sum, [&](OpBuilder &b, Location l, ValueRange v) {
      return div(b, l, v[0], scalar(b, l, v[0].getType(), n));
    }));
    return success();
  }
};

} // namespace

void dlc::populatePoolingLoweringPatterns(RewritePatternSet &p) {
  p.add<PoolLowering<MaxPool2DOp>, PoolLowering<AvgPool2DOp>, GlobalAvgPoolLowering>(p.getContext());
}
