//===- Linear.cpp - convolutions and matrix products ----------------------===//
//
// dense, matmul (numpy batch broadcasting) and batch_matmul as linalg
// contractions; conv2d directly as a linalg convolution, or through im2col
// and a matrix product where that is faster; conv2d_winograd as matrix
// products between two copies; bias_add.
//
//===----------------------------------------------------------------------===//
#include "Lowerings.h"

#include "dlc/Support/Winograd.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::lowering;

namespace {

struct BiasAddLowering : GraphPattern<BiasAddOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(BiasAddOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    int64_t axis = *normalizeAxis(op.getAxis(), op.getType().getRank());
    r.replaceOp(op, channelwise(r, op.getLoc(), op.getType(), axis, a.getInput(),
                                a.getBias(), [](OpBuilder &b, Location l, ValueRange v) {
                                  return add(b, l, v[0], v[1]);
                                }));
    return success();
  }
};

/// out = init (+)= sum over the reduction dims of lhs * rhs, with the given
/// maps over `numDims` loop dims of which the last `numReduced` reduce.
Value contraction(OpBuilder &b, Location loc, RankedTensorType type, Value lhs,
                  Value rhs, Value init, AffineMap lhsMap, AffineMap rhsMap,
                  AffineMap outMap, int64_t numReduced) {
  int64_t numDims = outMap.getNumDims();
  SmallVector<utils::IteratorType> iters(numDims - numReduced,
                                         utils::IteratorType::parallel);
  iters.append(numReduced, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{lhs, rhs}, ValueRange{init},
      SmallVector<AffineMap>{lhsMap, rhsMap, outMap}, iters,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, add(nb, nl, args[2], mul(nb, nl, args[0], args[1])));
      });
  return generic.getResult(0);
}

/// The output initialized with a per-channel bias along `axis` (converted
/// to the output's type), or zeros.
Value biasInit(OpBuilder &b, Location loc, RankedTensorType type, Value bias, int64_t axis) {
  if (!bias)
    return filled(b, loc, type, 0.0);
  return channelwise(b, loc, type, axis, {}, bias,
                     [&](OpBuilder &nb, Location nl, ValueRange v) {
                       return convertScalar(nb, nl, v[0], type.getElementType());
                     });
}

/// `v` converted element for element to `to`: a generic that only widens
/// (or rounds), which is how later passes recognize a product's widened
/// operands.
Value converted(OpBuilder &b, Location loc, Value v, Type to) {
  RankedTensorType type = typeOf(v);
  if (type.getElementType() == to)
    return v;
  return elementwise(b, loc, type.clone(to), v, [&](OpBuilder &nb, Location nl, ValueRange args) {
    return convertScalar(nb, nl, args[0], to);
  });
}

struct DenseLowering : GraphPattern<DenseOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(DenseOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    MLIRContext *ctx = getContext();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank(); // dims: d0..d_{rank-1} parallel, k reduced
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> x, out;
    for (int64_t i = 0; i < rank - 1; ++i)
      x.push_back(d(i));
    x.push_back(d(rank));
    for (int64_t i = 0; i < rank; ++i)
      out.push_back(d(i));
    Value init = biasInit(r, op.getLoc(), type, a.getBias(), rank - 1);
    r.replaceOp(op, contraction(r, op.getLoc(), type, a.getInput(), a.getWeight(), init,
                                AffineMap::get(rank + 1, 0, x, ctx),
                                AffineMap::get(rank + 1, 0, {d(rank - 1), d(rank)}, ctx),
                                AffineMap::get(rank + 1, 0, out, ctx), 1));
    return success();
  }
};

struct BatchMatmulLowering : GraphPattern<BatchMatmulOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(BatchMatmulOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    MLIRContext *ctx = getContext();
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    auto batchOf = [&](Value v) {
      return typeOf(v).getDimSize(0) == 1 && op.getType().getDimSize(0) != 1
                 ? getAffineConstantExpr(0, ctx) : d(0);
    };
    // dims: b, m, n, k
    AffineExpr lb = batchOf(a.getLhs()), rb = batchOf(a.getRhs());
    AffineMap lhs = AffineMap::get(4, 0, op.getTransposeA() ? SmallVector<AffineExpr>{lb, d(3), d(1)}
                                                             : SmallVector<AffineExpr>{lb, d(1), d(3)}, ctx);
    AffineMap rhs = AffineMap::get(4, 0, op.getTransposeB() ? SmallVector<AffineExpr>{rb, d(2), d(3)}
                                                             : SmallVector<AffineExpr>{rb, d(3), d(2)}, ctx);
    AffineMap out = AffineMap::get(4, 0, {d(0), d(1), d(2)}, ctx);
    r.replaceOp(op, contraction(r, op.getLoc(), op.getType(), a.getLhs(), a.getRhs(),
                                filled(r, op.getLoc(), op.getType(), 0.0), lhs, rhs, out, 1));
    return success();
  }
};

struct MatmulLowering : GraphPattern<MatmulOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(MatmulOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    MLIRContext *ctx = getContext();
    Location loc = op.getLoc();
    Value lhs = a.getLhs(), rhs = a.getRhs();
    Type et = op.getType().getElementType();
    bool vecA = typeOf(lhs).getRank() == 1, vecB = typeOf(rhs).getRank() == 1;
    if (vecA)
      lhs = reshapeTo(r, loc, lhs, RankedTensorType::get({1, typeOf(lhs).getDimSize(0)}, et));
    if (vecB)
      rhs = reshapeTo(r, loc, rhs, RankedTensorType::get({typeOf(rhs).getDimSize(0), 1}, et));
    // A batch of matrices times one matrix is one matrix product whose rows
    // are all the batch's rows (a [seq, 1, hidden] projection has 1-row
    // matrices otherwise).
    if (typeOf(rhs).getRank() == 2 && typeOf(lhs).getRank() > 2) {
      ArrayRef<int64_t> s = typeOf(lhs).getShape();
      int64_t rows = 1;
      for (int64_t size : s.drop_back())
        rows *= size;
      lhs = reshapeTo(r, loc, lhs, RankedTensorType::get({rows, s.back()}, et));
    }
    ArrayRef<int64_t> as = typeOf(lhs).getShape(), bs = typeOf(rhs).getShape();
    Shape batch = *broadcastShapes(as.drop_back(2), bs.drop_back(2));
    int64_t nb = batch.size();
    Shape outShape(batch);
    outShape.push_back(as[as.size() - 2]);
    outShape.push_back(bs.back());
    auto outType = RankedTensorType::get(outShape, et);
    // dims: batch..., m, n, k
    int64_t nd = nb + 3;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    auto operandMap = [&](ArrayRef<int64_t> s, AffineExpr row, AffineExpr col) {
      SmallVector<AffineExpr> e;
      int64_t offset = nb - (int64_t)(s.size() - 2);
      for (size_t i = 0; i + 2 < s.size(); ++i)
        e.push_back(s[i] == 1 && batch[offset + i] != 1 ? getAffineConstantExpr(0, ctx)
                                                         : d(offset + i));
      e.push_back(row);
      e.push_back(col);
      return AffineMap::get(nd, 0, e, ctx);
    };
    SmallVector<AffineExpr> out;
    for (int64_t i = 0; i < nb + 2; ++i)
      out.push_back(d(i));
    Value y = contraction(r, loc, outType, lhs, rhs, filled(r, loc, outType, 0.0),
                          operandMap(as, d(nb), d(nb + 2)), operandMap(bs, d(nb + 2), d(nb + 1)),
                          AffineMap::get(nd, 0, out, ctx), 1);
    r.replaceOp(op, reshapeTo(r, loc, y, op.getType()));
    return success();
  }
};

/// The im2col copy: `cols` (rank 6, the window's and the output's
/// positions) read from `x` through `read`.
Value windowCopy(OpBuilder &b, Location loc, Value x, RankedTensorType cols, AffineMap read) {
  return linalg::GenericOp::create(
             b, loc, TypeRange{cols}, ValueRange{x}, ValueRange{empty(b, loc, cols)},
             SmallVector<AffineMap>{read, AffineMap::getMultiDimIdentityMap(6, b.getContext())},
             SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
             [](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, args[0]);
             })
      .getResult(0);
}

/// conv2d (NCHW/OIHW, one group) as a matrix product: the input unrolled
/// into columns [N, C*KH*KW, OH*OW] (im2col; a reshape for 1x1 stride-1
/// convolutions) times the weights [O, C*KH*KW]. Its loops order so that the
/// innermost one runs over the OH*OW output positions, a long contiguous row.
/// The bias initializes the product's output [N, O, OH*OW] itself, so that
/// the initialization and the product share their loops.
Value im2colConv(OpBuilder &b, Location loc, Conv2DOp op, Value x, Value w, Value bias) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = op.getType(), xt = typeOf(x);
  Type et = type.getElementType();
  ArrayRef<int64_t> ws = typeOf(w).getShape(), s = op.getStrides(), d = op.getDilations();
  int64_t n = type.getDimSize(0), o = type.getDimSize(1), oh = type.getDimSize(2),
          ow = type.getDimSize(3), c = ws[1], kh = ws[2], kw = ws[3];
  int64_t ckk = c * kh * kw, p = oh * ow;
  auto colType = RankedTensorType::get({n, ckk, p}, et);
  Value col;
  if (kh == 1 && kw == 1 && s[0] == 1 && s[1] == 1 && xt.getDimSize(2) == oh &&
      xt.getDimSize(3) == ow) {
    col = reshapeTo(b, loc, x, colType);
  } else {
    // cols[n, c, kh, kw, oh, ow] = x[n, c, oh * s0 + kh * d0, ow * s1 + kw * d1]:
    // an affine copy whose innermost loop walks an input row.
    auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    auto cols6 = RankedTensorType::get({n, c, kh, kw, oh, ow}, et);
    AffineMap read = AffineMap::get(
        6, 0, {dim(0), dim(1), dim(4) * s[0] + dim(2) * d[0], dim(5) * s[1] + dim(3) * d[1]},
        ctx);
    col = reshapeTo(b, loc, windowCopy(b, loc, x, cols6, read), colType);
  }
  Value w2 = reshapeTo(b, loc, w, RankedTensorType::get({o, ckk}, et));
  auto outType = RankedTensorType::get({n, o, p}, et);
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  // loops: n, o, p | k
  Value y = contraction(b, loc, outType, w2, col, biasInit(b, loc, outType, bias, 1),
                        AffineMap::get(4, 0, {dim(1), dim(3)}, ctx),
                        AffineMap::get(4, 0, {dim(0), dim(3), dim(2)}, ctx),
                        AffineMap::get(4, 0, {dim(0), dim(1), dim(2)}, ctx), 1);
  return reshapeTo(b, loc, y, type);
}

/// conv2d (NHWC/HWIO, one group) as a matrix product: the input unrolled
/// into rows [N*OH*OW, KH*KW*C] (a reshape for 1x1 stride-1 convolutions)
/// times the weights, which HWIO already lays out as the matrix [KH*KW*C, O],
/// giving the output [N*OH*OW, O], NHWC itself. Here B is the weight, which
/// dlc-cpu-pack-weights packs when it is a constant, and every row of the
/// im2col matrix and of the output is contiguous. In f16/bf16 the im2col
/// and the reshapes move the narrow values; the two matrices are widened
/// to f32 as they are (dense layers' form: dlc-cpu-pack-weights pairs them
/// for bf16 dot products), accumulated in f32 and the result rounded once.
Value im2colConvNHWC(OpBuilder &b, Location loc, Conv2DOp op, Value x, Value w,
                     Value bias) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = op.getType(), xt = typeOf(x);
  Type out = type.getElementType(), et = xt.getElementType();
  Type acc = isNarrowFloat(out) ? b.getF32Type() : out;
  ArrayRef<int64_t> ws = typeOf(w).getShape(), s = op.getStrides(),
                    d = op.getDilations();
  int64_t n = type.getDimSize(0), oh = type.getDimSize(1),
          ow = type.getDimSize(2), o = type.getDimSize(3), kh = ws[0],
          kw = ws[1], c = ws[2];
  int64_t m = n * oh * ow, kkc = kh * kw * c;
  auto colType = RankedTensorType::get({m, kkc}, et);
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  Value col;
  if (kh == 1 && kw == 1 && s[0] == 1 && s[1] == 1 && xt.getDimSize(1) == oh &&
      xt.getDimSize(2) == ow) {
    col = reshapeTo(b, loc, x, colType);
  } else {
    // cols[n, oh, ow, kh, kw, c] = x[n, oh * s0 + kh * d0, ow * s1 + kw * d1,
    // c]: an affine copy whose innermost loop walks a pixel's channels.
    auto cols6 = RankedTensorType::get({n, oh, ow, kh, kw, c}, et);
    AffineMap read = AffineMap::get(6, 0,
                                    {dim(0), dim(1) * s[0] + dim(3) * d[0],
                                     dim(2) * s[1] + dim(4) * d[1], dim(5)},
                                    ctx);
    col = reshapeTo(b, loc, windowCopy(b, loc, x, cols6, read), colType);
  }
  Value w2 = reshapeTo(b, loc, w, RankedTensorType::get({kkc, o}, typeOf(w).getElementType()));
  auto outType = RankedTensorType::get({m, o}, acc);
  // (One statement each: the ops are created in this order.)
  Value lhs = converted(b, loc, col, acc);
  Value rhs = converted(b, loc, w2, acc);
  Value init = biasInit(b, loc, outType, bias, 1);
  // loops: m, o | k
  Value y =
      contraction(b, loc, outType, lhs, rhs, init,
                  AffineMap::get(3, 0, {dim(0), dim(2)}, ctx),
                  AffineMap::get(3, 0, {dim(2), dim(1)}, ctx),
                  AffineMap::get(3, 0, {dim(0), dim(1)}, ctx), 1);
  return converted(b, loc, reshapeTo(b, loc, y, type.clone(acc)), out);
}

struct Conv2DLowering : GraphPattern<Conv2DOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(Conv2DOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    bool nhwc = op.getDataLayout() == "NHWC";
    bool hwio = op.getKernelLayout() == "HWIO";
    Dims dm = dimsOf(op.getDataLayout());
    ArrayRef<int64_t> p = op.getPadding();
    SmallVector<int64_t> low(4, 0), high(4, 0);
    low[dm.h] = p[0];
    low[dm.w] = p[1];
    high[dm.h] = p[2];
    high[dm.w] = p[3];
    Value x = padConstant(r, loc, a.getInput(), low, high, 0.0);
    Value w = a.getWeight();
    RankedTensorType type = op.getType();
    Type et = type.getElementType();
    auto strides = r.getI64TensorAttr(op.getStrides());
    auto dilations = r.getI64TensorAttr(op.getDilations());
    int64_t groups = op.getGroups();
    int64_t c = typeOf(x).getDimSize(dm.c), o = type.getDimSize(dm.c);
    ArrayRef<int64_t> ws = typeOf(w).getShape();
    if (groups == 1 && !nhwc && !hwio) {
      r.replaceOp(op, im2colConv(r, loc, op, x, w, a.getBias()));
      return success();
    }
    if (groups == 1 && nhwc && hwio) {
      r.replaceOp(op, im2colConvNHWC(r, loc, op, x, w, a.getBias()));
      return success();
    }
    Value init = biasInit(r, loc, type, a.getBias(), dm.c);
    if (groups == c && o == c) { // depthwise, multiplier 1
      if (!nhwc && !hwio) {
        Value w3 = reshapeTo(r, loc, w, RankedTensorType::get({ws[0], ws[2], ws[3]}, et));
        r.replaceOp(op, linalg::DepthwiseConv2DNchwChwOp::create(
                            r, loc, TypeRange{type}, ValueRange{x, w3}, ValueRange{init},
                            strides, dilations).getResult(0));
        return success();
      }
      if (nhwc && hwio) {
        Value w3 = reshapeTo(r, loc, w, RankedTensorType::get({ws[0], ws[1], ws[3]}, et));
        r.replaceOp(op, linalg::DepthwiseConv2DNhwcHwcOp::create(
                            r, loc, TypeRange{type}, ValueRange{x, w3}, ValueRange{init},
                            strides, dilations).getResult(0));
        return success();
      }
    }
    if (!nhwc && !hwio) { // grouped: [N, G, C/G, H, W] x [G, O/G, C/G, KH, KW]
      RankedTensorType xt = typeOf(x);
      Value xg = reshapeTo(r, loc, x, RankedTensorType::get(
          {xt.getDimSize(0), groups, c / groups, xt.getDimSize(2), xt.getDimSize(3)}, et));
      Value wg = reshapeTo(r, loc, w, RankedTensorType::get(
          {groups, o / groups, ws[1], ws[2], ws[3]}, et));
      auto outG = RankedTensorType::get({type.getDimSize(0), groups, o / groups,
                                         type.getDimSize(2), type.getDimSize(3)}, et);
      Value initG = reshapeTo(r, loc, init, outG);
      Value y = linalg::Conv2DNgchwGfchwOp::create(r, loc, TypeRange{outG}, ValueRange{xg, wg},
                                                   ValueRange{initG}, strides, dilations)
                    .getResult(0);
      r.replaceOp(op, reshapeTo(r, loc, y, type));
      return success();
    }
    return r.notifyMatchFailure(op, "mixed layouts or grouped NHWC convolution");
  }
};

/// A constant [rows, cols] matrix of `et` with entries at(i, j).
Value matrixConstant(OpBuilder &b, Location loc, Type et, int64_t rows, int64_t cols,
                     llvm::function_ref<double(int64_t, int64_t)> at) {
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      values.push_back(b.getFloatAttr(et, at(i, j)));
  auto type = RankedTensorType::get({rows, cols}, et);
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, values));
}

/// conv2d_winograd as four matrix products between two copies, T =
/// N * ceil(OH / m) * ceil(OW / m) tiles, alpha = m + 2, every operand laid
/// out so that the copies' innermost loops run along the tiles of a row
/// (NCHW) or along the channels (NHWC):
///   D [alpha^2, C * T] or [alpha^2, T * C]  every tile of the padded input
///                        (a copy, as im2col);
///   V = (BT (x) BT) D    the input transform, one product with a constant
///                        [alpha^2, alpha^2] (the Kronecker product);
///   M = U V              the batched product that replaces the
///                        convolution's sums: NCHW [alpha^2, O, T] =
///                        U [alpha^2, O, C] V [alpha^2, C, T]; NHWC
///                        [alpha^2, T, O] = V [alpha^2, T, C] U [alpha^2, C, O];
///   Y = (AT (x) AT) M    the output transform, a constant [m^2, alpha^2];
/// and the output read from Y's tiles, the bias added.
Value winogradConv(OpBuilder &b, Location loc, Conv2DWinogradOp op, Value input, Value u,
                   Value bias) {
  MLIRContext *ctx = b.getContext();
  winograd::Transforms tr = winograd::transforms(op.getTile());
  int64_t m = tr.m, a = tr.alpha, a2 = a * a;
  RankedTensorType type = op.getType();
  Type et = type.getElementType();
  bool nhwc = op.getDataLayout() == "NHWC";
  int64_t ci = nhwc ? 3 : 1, hi = nhwc ? 1 : 2;
  int64_t n = type.getDimSize(0), o = type.getDimSize(ci), oh = type.getDimSize(hi),
          ow = type.getDimSize(hi + 1), c = typeOf(input).getDimSize(ci);
  int64_t th = (oh + m - 1) / m, tw = (ow + m - 1) / m, t = n * th * tw;
  ArrayRef<int64_t> p = op.getPadding();
  // Zeros past the last tile too, so that every tile reads a whole window.
  SmallVector<int64_t> low(4, 0), high(4, 0);
  low[hi] = p[0];
  low[hi + 1] = p[1];
  high[hi] = p[2] + m * th - oh;
  high[hi + 1] = p[3] + m * tw - ow;
  Value x = padConstant(b, loc, input, low, high, 0.0);
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  auto shaped = [&](ArrayRef<int64_t> nchwShape, ArrayRef<int64_t> nhwcShape) {
    return RankedTensorType::get(nhwc ? nhwcShape : nchwShape, et);
  };
  // NCHW: tiles[i, j, c, n, th, tw] = x[n, c, m th + i, m tw + j];
  // NHWC: tiles[i, j, n, th, tw, c] = x[n, m th + i, m tw + j, c].
  RankedTensorType tilesType = shaped({a, a, c, n, th, tw}, {a, a, n, th, tw, c});
  AffineMap read =
      nhwc ? AffineMap::get(6, 0, {d(2), d(3) * m + d(0), d(4) * m + d(1), d(5)}, ctx)
           : AffineMap::get(6, 0, {d(3), d(2), d(4) * m + d(0), d(5) * m + d(1)}, ctx);
  Value tiles = linalg::GenericOp::create(
                    b, loc, TypeRange{tilesType}, ValueRange{x},
                    ValueRange{empty(b, loc, tilesType)},
                    SmallVector<AffineMap>{read, AffineMap::getMultiDimIdentityMap(6, ctx)},
                    SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
                    [](OpBuilder &nb, Location nl, ValueRange args) {
                      linalg::YieldOp::create(nb, nl, args[0]);
                    })
                    .getResult(0);
  // [rows, k] x [k, cols] -> [rows, cols]; loops: i, j | k
  AffineMap lhs = AffineMap::get(3, 0, {d(0), d(2)}, ctx),
            rhs = AffineMap::get(3, 0, {d(2), d(1)}, ctx),
            res = AffineMap::get(3, 0, {d(0), d(1)}, ctx);
  auto product = [&](Value left, Value right, int64_t rows, int64_t cols) {
    auto rt = RankedTensorType::get({rows, cols}, et);
    return contraction(b, loc, rt, left, right, filled(b, loc, rt, 0.0), lhs, rhs, res, 1);
  };
  Value inputTransform = matrixConstant(b, loc, et, a2, a2, [&](int64_t r, int64_t q) {
    return tr.bt[(r / a) * a + q / a] * tr.bt[(r % a) * a + q % a];
  });
  Value v = product(inputTransform,
                    reshapeTo(b, loc, tiles, RankedTensorType::get({a2, t * c}, et)), a2, t * c);
  // loops: e, rows, cols | c, with U the left operand (NCHW: rows O, cols
  // T) or the right one (NHWC: rows T, cols O).
  Value vm = reshapeTo(b, loc, v, shaped({a2, c, t}, {a2, t, c}));
  RankedTensorType mType = shaped({a2, o, t}, {a2, t, o});
  Value prod = contraction(b, loc, mType, nhwc ? vm : u, nhwc ? u : vm,
                           filled(b, loc, mType, 0.0), AffineMap::get(4, 0, {d(0), d(1), d(3)}, ctx),
                           AffineMap::get(4, 0, {d(0), d(3), d(2)}, ctx),
                           AffineMap::get(4, 0, {d(0), d(1), d(2)}, ctx), 1);
  Value outputTransform = matrixConstant(b, loc, et, m * m, a2, [&](int64_t r, int64_t q) {
    return tr.at[(r / m) * a + q / a] * tr.at[(r % m) * a + q % a];
  });
  Value y = product(outputTransform,
                    reshapeTo(b, loc, prod, RankedTensorType::get({a2, t * o}, et)), m * m, t * o);
  // Whole tiles, a permutation (maps with mod and floordiv would not tile),
  // then the rows and columns past the output cut off:
  // NCHW: out[n, o, th, i, tw, j] = bias[o] + yTiles[i, j, o, n, th, tw];
  // NHWC: out[n, th, i, tw, j, o] = bias[o] + yTiles[i, j, n, th, tw, o].
  Value yTiles = reshapeTo(b, loc, y, shaped({m, m, o, n, th, tw}, {m, m, n, th, tw, o}));
  RankedTensorType outTiles = shaped({n, o, th, m, tw, m}, {n, th, m, tw, m, o});
  AffineMap untile = nhwc ? AffineMap::get(6, 0, {d(2), d(4), d(0), d(1), d(3), d(5)}, ctx)
                          : AffineMap::get(6, 0, {d(3), d(5), d(1), d(0), d(2), d(4)}, ctx);
  Value out = linalg::GenericOp::create(
                  b, loc, TypeRange{outTiles}, ValueRange{yTiles},
                  ValueRange{biasInit(b, loc, outTiles, bias, nhwc ? 5 : 1)},
                  SmallVector<AffineMap>{untile, AffineMap::getMultiDimIdentityMap(6, ctx)},
                  SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
                  [](OpBuilder &nb, Location nl, ValueRange args) {
                    linalg::YieldOp::create(nb, nl, add(nb, nl, args[0], args[1]));
                  })
                  .getResult(0);
  Value whole = reshapeTo(b, loc, out, shaped({n, o, th * m, tw * m}, {n, th * m, tw * m, o}));
  if (th * m == oh && tw * m == ow)
    return whole;
  return extractSlice(b, loc, whole, type, {0, 0, 0, 0}, {1, 1, 1, 1});
}

struct Conv2DWinogradLowering : GraphPattern<Conv2DWinogradOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(Conv2DWinogradOp op, Adaptor a,
                                ConversionPatternRewriter &r) const override {
    r.replaceOp(op, winogradConv(r, op.getLoc(), op, a.getInput(), a.getWeight(), a.getBias()));
    return success();
  }
};

} // namespace

bool dlc::lowering::lowersNarrowItself(Conv2DOp op) {
  return isNarrowFloat(op.getType().getElementType()) && op.getGroups() == 1 &&
         op.getDataLayout() == "NHWC" && op.getKernelLayout() == "HWIO";
}

void dlc::populateLinearLoweringPatterns(RewritePatternSet &p) {
  p.add<BiasAddLowering, DenseLowering, BatchMatmulLowering, MatmulLowering,
        Conv2DLowering, Conv2DWinogradLowering>(p.getContext());
}
