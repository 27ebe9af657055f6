//===- Shape.cpp - shape and indexing -------------------------------------===//
//
// Transpose, the reshapes (views), concat, split, slice, pad, gather and
// layout transforms.
//
//===----------------------------------------------------------------------===//
#include "Lowerings.h"
#include "dlc/Support/Layout.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::lowering;

namespace {

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

Value extractSlice(OpBuilder &b, Location loc, Value x, RankedTensorType type,
                   ArrayRef<int64_t> starts, ArrayRef<int64_t> steps) {
  if (type.getNumElements() == 0) // offsets may sit at the end: nothing to read
    return empty(b, loc, type);
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    offsets.push_back(b.getIndexAttr(starts[i]));
    sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
    strides.push_back(b.getIndexAttr(steps[i]));
  }
  return tensor::ExtractSliceOp::create(b, loc, type, x, offsets, sizes, strides);
}

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
                                  Value ix = arith::IndexCastOp::create(b, l, b.getIndexType(), i);
                                  // Negative indices count from the end; others are
                                  // clamped into range (the reference reports them).
                                  Value zero = indexConst(b, l, 0);
                                  Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, ix, zero);
                                  ix = arith::SelectOp::create(b, l, neg,
                                                               arith::AddIOp::create(b, l, ix, indexConst(b, l, dim)), ix);
                                  ix = arith::MinSIOp::create(b, l, arith::MaxSIOp::create(b, l, ix, zero),
                                                              indexConst(b, l, dim - 1));
                                  SmallVector<Value> idx(iv.begin(), iv.begin() + axis);
                                  idx.push_back(ix);
                                  idx.append(iv.begin() + axis + ir, iv.end());
                                  return idx;
                                }));
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
        SplitLowering, SliceLowering, PadLowering, GatherLowering, LayoutTransformLowering>(p.getContext());
}
