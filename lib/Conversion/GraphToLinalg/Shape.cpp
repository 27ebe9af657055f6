//===- Shape.cpp - shape and indexing -------------------------------------===//
//
// Transpose, the reshapes (views), concat, split, slice, pad, gather,
// gather_elements, resize and layout transforms.
//
//===----------------------------------------------------------------------===//
#include "Lowerings.h"
#include "dlc/Support/Layout.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::lowering;

namespace {

/// Index `i` (an integer read from an indices tensor) into a dimension of
/// size `dim`: negative values count from the end, others still out of
/// range are clamped (the reference does the same; see graph.gather).
Value clampedIndex(OpBuilder &b, Location l, Value i, int64_t dim) {
  Value ix = arith::IndexCastOp::create(b, l, b.getIndexType(), i);
  Value zero = indexConst(b, l, 0);
  Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, ix, zero);
  ix = arith::SelectOp::create(b, l, neg, arith::AddIOp::create(b, l, ix, indexConst(b, l, dim)), ix);
  return arith::MinSIOp::create(b, l, arith::MaxSIOp::create(b, l, ix, zero),
                                indexConst(b, l, dim - 1));
}

struct TransposeLowering : GraphPattern<TransposeOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(TransposeOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    SmallVector<int64_t> perm;
    for (int64_t p : op.getPerm())
      perm.push_back(*normalizeAxis(p, op.getType().getRank()));
    r.replaceOp(op, linalg::TransposeOp::create(r, op.getLoc(), a.getInput(),
                                                empty(r, op.getLoc(), op.getType()), perm)
                        .getResult()[0]);
    return success();
  }
};

template <typename OpTy>
struct ReshapeLowering : GraphPattern<OpTy> {
  using GraphPattern<OpTy>::GraphPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    if constexpr (std::is_same_v<OpTy, DynamicReshapeOp>)
      if (!op.getShape().template getDefiningOp<ConstantOp>())
        return r.notifyMatchFailure(
            op, "dynamic_reshape needs a constant shape (run DynamicToStatic)");
    r.replaceOp(op, reshapeTo(r, op.getLoc(), a.getOperands()[0], op.getType()));
    return success();
  }
};

struct ConcatLowering : GraphPattern<ConcatOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(ConcatOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    RankedTensorType type = op.getType();
    int64_t axis = *normalizeAxis(op.getAxis(), type.getRank());
    Location loc = op.getLoc();
    Value acc = empty(r, loc, type);
    int64_t offset = 0;
    for (Value in : a.getInputs()) {
      RankedTensorType t = typeOf(in);
      SmallVector<OpFoldResult> offsets(type.getRank(), r.getIndexAttr(0)), sizes, strides(type.getRank(), r.getIndexAttr(1));
      offsets[axis] = r.getIndexAttr(offset);
      for (int64_t s : t.getShape())
        sizes.push_back(r.getIndexAttr(s));
      acc = tensor::InsertSliceOp::create(r, loc, in, acc, offsets, sizes, strides);
      offset += t.getDimSize(axis);
    }
    r.replaceOp(op, acc);
    return success();
  }
};

struct SplitLowering : GraphPattern<SplitOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(SplitOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    int64_t rank = typeOf(a.getInput()).getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank), offset = 0;
    SmallVector<Value> results;
    for (Value res : op.getOutputs()) {
      SmallVector<int64_t> starts(rank, 0), steps(rank, 1);
      starts[axis] = offset;
      results.push_back(extractSlice(r, op.getLoc(), a.getInput(), typeOf(res), starts, steps));
      offset += typeOf(res).getDimSize(axis);
    }
    r.replaceOp(op, results);
    return success();
  }
};

struct SliceLowering : GraphPattern<SliceOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(SliceOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    ArrayRef<int64_t> starts = op.getStarts(), steps = op.getSteps();
    if (llvm::all_of(steps, [](int64_t s) { return s > 0; })) {
      r.replaceOp(op, extractSlice(r, op.getLoc(), a.getInput(), op.getType(), starts, steps));
      return success();
    }
    // Negative steps: read start + i * step.
    r.replaceOp(op, indexedRead(r, op.getLoc(), a.getInput(), op.getType(),
                                [&](OpBuilder &b, Location l, ArrayRef<Value> iv) {
                                  SmallVector<Value> idx;
                                  for (size_t d = 0; d < iv.size(); ++d)
                                    idx.push_back(arith::AddIOp::create(
                                        b, l, indexConst(b, l, starts[d]),
                                        arith::MulIOp::create(b, l, iv[d], indexConst(b, l, steps[d]))));
                                  return idx;
                                }));
    return success();
  }
};

struct PadLowering : GraphPattern<PadOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(PadOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    ArrayRef<int64_t> before = op.getPadBefore();
    if (op.getMode() == "constant") {
      r.replaceOp(op, padConstant(r, op.getLoc(), a.getInput(), before, op.getPadAfter(),
                                  op.getValue().convertToDouble()));
      return success();
    }
    bool reflect = op.getMode() == "reflect";
    ArrayRef<int64_t> in = typeOf(a.getInput()).getShape();
    r.replaceOp(op, indexedRead(r, op.getLoc(), a.getInput(), op.getType(),
                                [&](OpBuilder &b, Location l, ArrayRef<Value> iv) {
                                  SmallVector<Value> idx;
                                  for (size_t d = 0; d < iv.size(); ++d) {
                                    // p = i - before; reflect: |p| folded at dim-1; edge: clamp.
                                    Value p = arith::SubIOp::create(b, l, iv[d], indexConst(b, l, before[d]));
                                    Value zero = indexConst(b, l, 0), last = indexConst(b, l, in[d] - 1);
                                    if (reflect) {
                                      Value neg = arith::SubIOp::create(b, l, zero, p);
                                      p = arith::MaxSIOp::create(b, l, p, neg);
                                      Value over = arith::SubIOp::create(
                                          b, l, indexConst(b, l, 2 * (in[d] - 1)), p);
                                      p = arith::MinSIOp::create(b, l, p, over);
                                    } else {
                                      p = arith::MinSIOp::create(b, l, arith::MaxSIOp::create(b, l, p, zero), last);
                                    }
                                    idx.push_back(p);
                                  }
                                  return idx;
                                }));
    return success();
  }
};

struct GatherLowering : GraphPattern<GatherOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(GatherOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    RankedTensorType dt = typeOf(a.getData()), it = typeOf(a.getIndices());
    int64_t axis = *normalizeAxis(op.getAxis(), dt.getRank());
    int64_t ir = it.getRank(), dim = dt.getDimSize(axis);
    Value indices = a.getIndices();
    r.replaceOp(op, indexedRead(r, op.getLoc(), a.getData(), op.getType(),
                                [&](OpBuilder &b, Location l, ArrayRef<Value> iv) {
                                  SmallVector<Value> iidx(iv.begin() + axis, iv.begin() + axis + ir);
                                  Value i = tensor::ExtractOp::create(b, l, indices, iidx);
                                  Value ix = clampedIndex(b, l, i, dim);
                                  SmallVector<Value> idx(iv.begin(), iv.begin() + axis);
                                  idx.push_back(ix);
                                  idx.append(iv.begin() + axis + ir, iv.end());
                                  return idx;
                                }));
    return success();
  }
};

struct GatherElementsLowering : GraphPattern<GatherElementsOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(GatherElementsOp op, Adaptor a,
                                ConversionPatternRewriter &r) const override {
    RankedTensorType dt = typeOf(a.getData());
    int64_t axis = *normalizeAxis(op.getAxis(), dt.getRank());
    int64_t dim = dt.getDimSize(axis);
    Value indices = a.getIndices();
    r.replaceOp(op, indexedRead(r, op.getLoc(), a.getData(), op.getType(),
                                [&](OpBuilder &b, Location l, ArrayRef<Value> iv) {
                                  Value i = tensor::ExtractOp::create(b, l, indices, iv);
                                  SmallVector<Value> idx(iv.begin(), iv.end());
                                  idx[axis] = clampedIndex(b, l, i, dim);
                                  return idx;
                                }));
    return success();
  }
};

/// A 1-D constant of `type` elements holding `values`.
Value table(OpBuilder &b, Location loc, Type type, ArrayRef<double> values) {
  auto tensorType = RankedTensorType::get({static_cast<int64_t>(values.size())}, type);
  if (auto ft = dyn_cast<FloatType>(type)) {
    SmallVector<APFloat> floats;
    for (double v : values) {
      APFloat f(v);
      bool lost;
      f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      floats.push_back(f);
    }
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(tensorType, floats));
  }
  SmallVector<APInt> ints;
  for (double v : values)
    ints.push_back(APInt(type.getIntOrFloatBitWidth(), static_cast<int64_t>(v), /*isSigned=*/true));
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(tensorType, ints));
}

/// resize: one generic per resized axis, the last first, as the reference
/// interpreter computes it. The taps (Support/Resize.h) become constants
/// along the axis: per tap an index and a weight, and a bias; the body
/// reads the input at each tap's index (tensor.extract) and sums.
struct ResizeLowering : GraphPattern<ResizeOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(ResizeOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getType();
    Type et = outType.getElementType();
    int64_t rank = outType.getRank();
    ArrayRef<double> roi = op.getRoi();
    MLIRContext *ctx = r.getContext();
    Value cur = a.getInput();
    for (int64_t ax = rank - 1; ax >= 0; --ax) {
      int64_t inLen = typeOf(cur).getDimSize(ax), outLen = outType.getDimSize(ax);
      if (inLen == outLen && op.getScales()[ax] == 1.0 && roi.empty())
        continue;
      ResizeTaps taps = resizeTaps(op.getResizeMode(), inLen, outLen, op.getScales()[ax],
                                   roi.empty() ? 0.0 : roi[ax], roi.empty() ? 1.0 : roi[ax + rank]);
      bool plain = llvm::all_of(taps.weight, [](double w) { return w == 1; }) &&
                   llvm::all_of(taps.bias, [](double v) { return v == 0; });
      SmallVector<Value> inputs;
      for (int64_t k = 0; k < taps.count; ++k) {
        SmallVector<double> index(taps.index.begin() + k * outLen,
                                  taps.index.begin() + (k + 1) * outLen);
        inputs.push_back(table(r, loc, r.getI64Type(), index));
      }
      if (!plain) {
        for (int64_t k = 0; k < taps.count; ++k)
          inputs.push_back(table(r, loc, et,
                                 ArrayRef(taps.weight).slice(k * outLen, outLen)));
        inputs.push_back(table(r, loc, et, taps.bias));
      }
      SmallVector<int64_t> shape(typeOf(cur).getShape());
      shape[ax] = outLen;
      auto stepType = RankedTensorType::get(shape, et);
      SmallVector<AffineMap> maps(inputs.size(),
                                  AffineMap::get(rank, 0, getAffineDimExpr(ax, ctx), ctx));
      maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
      Value source = cur;
      int64_t count = taps.count;
      auto generic = linalg::GenericOp::create(
          r, loc, TypeRange{stepType}, inputs, ValueRange{empty(r, loc, stepType)}, maps,
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &b, Location l, ValueRange args) {
            SmallVector<Value> idx;
            for (int64_t d = 0; d < rank; ++d)
              idx.push_back(linalg::IndexOp::create(b, l, d));
            Value acc = plain ? Value() : args[2 * count];
            for (int64_t k = 0; k < count; ++k) {
              idx[ax] = arith::IndexCastOp::create(b, l, b.getIndexType(), args[k]);
              Value v = tensor::ExtractOp::create(b, l, source, idx);
              acc = plain ? v : add(b, l, acc, mul(b, l, args[count + k], v));
            }
            linalg::YieldOp::create(b, l, acc);
          });
      cur = generic.getResult(0);
    }
    r.replaceOp(op, cur);
    return success();
  }
};

struct LayoutTransformLowering : GraphPattern<LayoutTransformOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(LayoutTransformOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    std::string error;
    Layout src = *Layout::parse(op.getSrcLayout(), error);
    Layout dst = *Layout::parse(op.getDstLayout(), error);
    r.replaceOp(op, indexedRead(r, op.getLoc(), a.getInput(), op.getType(),
                                [&](OpBuilder &b, Location l, ArrayRef<Value> iv) {
                                  SmallVector<Value> idx;
                                  for (const Layout::Axis &ax : src.axes()) {
                                    Value outer = iv[dst.indexOf(ax.primal)];
                                    int64_t bi = dst.blockIndexOf(ax.primal);
                                    Value full = bi < 0 ? outer
                                                        : (Value)arith::AddIOp::create(
                                                              b, l,
                                                              arith::MulIOp::create(b, l, outer, indexConst(b, l, dst.blockFactor(ax.primal))),
                                                              iv[bi]);
                                    Value blk = indexConst(b, l, src.blockFactor(ax.primal));
                                    idx.push_back(ax.factor ? (Value)arith::RemSIOp::create(b, l, full, blk)
                                                            : (Value)arith::DivSIOp::create(b, l, full, blk));
                                  }
                                  return idx;
                                }));
    return success();
  }
};

} // namespace

void dlc::populateShapeLoweringPatterns(RewritePatternSet &p) {
  p.add<TransposeLowering, ReshapeLowering<ReshapeOp>, ReshapeLowering<ExpandDimsOp>,
        ReshapeLowering<SqueezeOp>, ReshapeLowering<DynamicReshapeOp>, ConcatLowering,
        SplitLowering, SliceLowering, PadLowering, GatherLowering, GatherElementsLowering,
        ResizeLowering, LayoutTransformLowering>(p.getContext());
}
