//===- GraphToLinalg.cpp - graph ops to linalg on tensors ------------------===//
//
// Each graph op becomes linalg/tensor/arith/math ops with the reference
// interpreter's semantics. Elementwise math is a linalg.generic with numpy
// broadcasting maps, so that linalg's elementwise fusion later merges chains
// (conv + bias + relu) into one loop nest.
//
//===----------------------------------------------------------------------===//
#include "FastMath.h"
#include "Lowerings.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Support/Layout.h"
#include "dlc/Support/Shape.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <functional>
#include <limits>

namespace dlc {
#define GEN_PASS_DEF_CONVERTGRAPHTOLINALGPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {

using BodyFn = std::function<Value(OpBuilder &, Location, ValueRange)>;

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

bool isFloatType(Type t) { return isa<FloatType>(t); }

/// A scalar constant of element type `t`.
Value scalar(OpBuilder &b, Location loc, Type t, double v) {
  if (auto f = dyn_cast<FloatType>(t))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f, v));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, (int64_t)v));
}

/// The lowest value of `t` (the identity of max).
double lowest(Type t) {
  if (isFloatType(t))
    return -std::numeric_limits<double>::infinity();
  unsigned bits = t.getIntOrFloatBitWidth();
  return bits == 1 ? 0.0 : -std::ldexp(1.0, bits - 1);
}

Value empty(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
}

Value filled(OpBuilder &b, Location loc, RankedTensorType type, double v) {
  Value c = scalar(b, loc, type.getElementType(), v);
  return linalg::FillOp::create(b, loc, c, empty(b, loc, type)).getResult(0);
}

/// Map from an output of rank `rank` to an operand of `shape`, numpy style:
/// leading dims dropped, size-1 dims broadcast.
AffineMap broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> shape,
                       ArrayRef<int64_t> outShape) {
  int64_t rank = outShape.size(), offset = rank - shape.size();
  SmallVector<AffineExpr> exprs;
  for (size_t i = 0; i < shape.size(); ++i)
    exprs.push_back(shape[i] == 1 && outShape[offset + i] != 1
                        ? getAffineConstantExpr(0, ctx)
                        : getAffineDimExpr(offset + i, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

/// out[i...] = body(inputs[broadcast(i)]...)
Value elementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                  ValueRange inputs, const BodyFn &body) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value in : inputs)
    maps.push_back(broadcastMap(ctx, typeOf(in).getShape(), resultType.getShape()));
  maps.push_back(AffineMap::getMultiDimIdentityMap(resultType.getRank(), ctx));
  SmallVector<utils::IteratorType> iters(resultType.getRank(),
                                         utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{empty(b, loc, resultType)},
      maps, iters, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value r = body(nb, nl, args.drop_back());
        linalg::YieldOp::create(nb, nl, r);
      });
  return generic.getResult(0);
}

/// Reduces `x` over `axes` with `combine`, starting from `init`; the result
/// keeps reduced dims as size 1 when `keepdims`.
Value reduce(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> axes,
             bool keepdims, double init,
             const std::function<Value(OpBuilder &, Location, Value, Value)> &combine) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType in = typeOf(x);
  int64_t rank = in.getRank();
  SmallVector<int64_t> outShape;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iters;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(axes, d);
    iters.push_back(reduced ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);
    if (!reduced) {
      outShape.push_back(in.getDimSize(d));
      outExprs.push_back(getAffineDimExpr(d, ctx));
    } else if (keepdims) {
      outShape.push_back(1);
      outExprs.push_back(getAffineConstantExpr(0, ctx));
    }
  }
  auto outType = RankedTensorType::get(outShape, in.getElementType());
  SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(rank, ctx),
                              AffineMap::get(rank, 0, outExprs, ctx)};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{outType}, ValueRange{x},
      ValueRange{filled(b, loc, outType, init)}, maps, iters,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, combine(nb, nl, args[1], args[0]));
      });
  return generic.getResult(0);
}

// Scalar arithmetic that picks the float or integer op.
Value add(OpBuilder &b, Location l, Value x, Value y) {
  return isFloatType(x.getType()) ? (Value)arith::AddFOp::create(b, l, x, y)
                                  : (Value)arith::AddIOp::create(b, l, x, y);
}
Value sub(OpBuilder &b, Location l, Value x, Value y) {
  return isFloatType(x.getType()) ? (Value)arith::SubFOp::create(b, l, x, y)
                                  : (Value)arith::SubIOp::create(b, l, x, y);
}
Value mul(OpBuilder &b, Location l, Value x, Value y) {
  return isFloatType(x.getType()) ? (Value)arith::MulFOp::create(b, l, x, y)
                                  : (Value)arith::MulIOp::create(b, l, x, y);
}
Value div(OpBuilder &b, Location l, Value x, Value y) {
  return isFloatType(x.getType()) ? (Value)arith::DivFOp::create(b, l, x, y)
                                  : (Value)arith::DivSIOp::create(b, l, x, y);
}
Value max(OpBuilder &b, Location l, Value x, Value y) {
  return isFloatType(x.getType()) ? (Value)arith::MaximumFOp::create(b, l, x, y)
                                  : (Value)arith::MaxSIOp::create(b, l, x, y);
}
Value min(OpBuilder &b, Location l, Value x, Value y) {
  return isFloatType(x.getType()) ? (Value)arith::MinimumFOp::create(b, l, x, y)
                                  : (Value)arith::MinSIOp::create(b, l, x, y);
}

/// Converts a scalar between element types with the interpreter's rules
/// (float rounding to nearest; float to int truncates; to i1 is x != 0).
Value convertScalar(OpBuilder &b, Location l, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  if (to.isInteger(1)) {
    Value zero = scalar(b, l, from, 0);
    return isFloatType(from)
               ? (Value)arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, x, zero)
               : (Value)arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, x, zero);
  }
  if (isFloatType(from) && isFloatType(to))
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? (Value)arith::ExtFOp::create(b, l, to, x)
               : (Value)arith::TruncFOp::create(b, l, to, x);
  if (isFloatType(from)) { // truncate toward zero, then wrap (via i64)
    Value wide = arith::FPToSIOp::create(b, l, b.getI64Type(), x);
    return to.isInteger(64) ? wide : (Value)arith::TruncIOp::create(b, l, to, wide);
  }
  if (from.isInteger(1))
    return isFloatType(to) ? (Value)arith::UIToFPOp::create(b, l, to, x)
                           : (Value)arith::ExtUIOp::create(b, l, to, x);
  if (isFloatType(to))
    return arith::SIToFPOp::create(b, l, to, x);
  return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
             ? (Value)arith::ExtSIOp::create(b, l, to, x)
             : (Value)arith::TruncIOp::create(b, l, to, x);
}

/// Any static reshape: collapse to 1-D, then expand (views, no copies).
Value reshapeTo(OpBuilder &b, Location loc, Value x, RankedTensorType to) {
  RankedTensorType from = typeOf(x);
  if (from == to)
    return x;
  auto flatType = RankedTensorType::get({from.getNumElements()}, from.getElementType());
  Value flat = x;
  if (from.getRank() != 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t i = 0; i < from.getRank(); ++i)
      all[0].push_back(i);
    flat = from.getRank() == 0
               ? (Value)tensor::ExpandShapeOp::create(b, loc, flatType, x,
                                                      ArrayRef<ReassociationIndices>{})
               : (Value)tensor::CollapseShapeOp::create(b, loc, flatType, x, all);
  }
  if (to.getRank() == 1)
    return flat;
  if (to.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, to, flat,
                                           ArrayRef<ReassociationIndices>{});
  SmallVector<ReassociationIndices> all(1);
  for (int64_t i = 0; i < to.getRank(); ++i)
    all[0].push_back(i);
  return tensor::ExpandShapeOp::create(b, loc, to, flat, all);
}

/// Pads `x` with `value` (tensor.pad with a constant).
Value padConstant(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> low,
                  ArrayRef<int64_t> high, double value) {
  if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(high, [](int64_t v) { return v == 0; }))
    return x;
  RankedTensorType type = typeOf(x);
  SmallVector<int64_t> shape(type.getShape());
  for (size_t i = 0; i < shape.size(); ++i)
    shape[i] += low[i] + high[i];
  auto padType = RankedTensorType::get(shape, type.getElementType());
  Value pad = scalar(b, loc, type.getElementType(), value);
  SmallVector<OpFoldResult> lo, hi;
  for (size_t i = 0; i < low.size(); ++i) {
    lo.push_back(b.getIndexAttr(low[i]));
    hi.push_back(b.getIndexAttr(high[i]));
  }
  return tensor::PadOp::create(b, loc, padType, x, lo, hi, pad);
}

/// A generic whose body reads `x` at indices computed from the output
/// indices (tensor.extract): gathers, strided and reversed slices,
/// reflect/edge padding, layout transforms.
Value indexedRead(OpBuilder &b, Location loc, Value x, RankedTensorType outType,
                  const std::function<SmallVector<Value>(OpBuilder &, Location,
                                                         ArrayRef<Value>)> &index) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = outType.getRank();
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{outType}, ValueRange{}, ValueRange{empty(b, loc, outType)},
      SmallVector<AffineMap>{AffineMap::getMultiDimIdentityMap(rank, ctx)},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange) {
        SmallVector<Value> ivs;
        for (int64_t d = 0; d < rank; ++d)
          ivs.push_back(linalg::IndexOp::create(nb, nl, d));
        SmallVector<Value> idx = index(nb, nl, ivs);
        linalg::YieldOp::create(nb, nl, tensor::ExtractOp::create(nb, nl, x, idx).getResult());
      });
  return generic.getResult(0);
}

Value indexConst(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIndexOp::create(b, l, v);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

template <typename OpTy>
struct GraphPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpTy::Adaptor;
};

struct ConstantLowering : GraphPattern<ConstantOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(ConstantOp op, Adaptor, ConversionPatternRewriter &r) const override {
    // LLVM materializes a constant element by element: a large splat is
    // filled at run time instead.
    auto splat = dyn_cast<DenseElementsAttr>(op.getValue());
    if (splat && splat.isSplat() && op.getType().getNumElements() >= kFillElements) {
      Value scalar = arith::ConstantOp::create(
          r, op.getLoc(), cast<TypedAttr>(splat.getSplatValue<Attribute>()));
      Value empty = tensor::EmptyOp::create(r, op.getLoc(), op.getType().getShape(),
                                            op.getType().getElementType());
      r.replaceOpWithNewOp<linalg::FillOp>(op, scalar, empty);
      return success();
    }
    // LLVM has no constant arrays of i1: booleans are stored as bytes and
    // truncated.
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (dense && op.getType().getElementType().isInteger(1)) {
      SmallVector<int8_t> bytes;
      for (bool v : dense.getValues<bool>())
        bytes.push_back(v);
      auto byteType = RankedTensorType::get(op.getType().getShape(), r.getI8Type());
      Value asBytes = arith::ConstantOp::create(
          r, op.getLoc(), DenseElementsAttr::get(byteType, ArrayRef<int8_t>(bytes)));
      r.replaceOp(op, elementwise(r, op.getLoc(), op.getType(), asBytes,
                                  [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                                    return arith::TruncIOp::create(b, l, r.getI1Type(), v[0]);
                                  }));
      return success();
    }
    r.replaceOpWithNewOp<arith::ConstantOp>(op, cast<TypedAttr>(op.getValue()));
    return success();
  }
  static constexpr int64_t kFillElements = int64_t(1) << 20;
};

/// Unary elementwise ops: one scalar function each.
template <typename OpTy>
struct UnaryLowering : GraphPattern<OpTy> {
  UnaryLowering(MLIRContext *ctx, std::function<Value(OpBuilder &, Location, Value, OpTy)> fn)
      : GraphPattern<OpTy>(ctx), fn(std::move(fn)) {}
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Value y = elementwise(r, op.getLoc(), cast<RankedTensorType>(op.getType()),
                          a.getOperands().take_front(1),
                          [&](OpBuilder &b, Location l, ValueRange v) { return fn(b, l, v[0], op); });
    r.replaceOp(op, y);
    return success();
  }
  std::function<Value(OpBuilder &, Location, Value, OpTy)> fn;
};

/// Binary elementwise ops with numpy broadcasting.
template <typename OpTy>
struct BinaryLowering : GraphPattern<OpTy> {
  BinaryLowering(MLIRContext *ctx, std::function<Value(OpBuilder &, Location, Value, Value)> fn)
      : GraphPattern<OpTy>(ctx), fn(std::move(fn)) {}
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Value y = elementwise(r, op.getLoc(), op.getType(), {a.getLhs(), a.getRhs()},
                          [&](OpBuilder &b, Location l, ValueRange v) { return fn(b, l, v[0], v[1]); });
    r.replaceOp(op, y);
    return success();
  }
  std::function<Value(OpBuilder &, Location, Value, Value)> fn;
};

struct CastLowering : GraphPattern<CastOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(CastOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    Type to = op.getType().getElementType();
    r.replaceOp(op, elementwise(r, op.getLoc(), op.getType(), a.getInput(),
                                [&](OpBuilder &b, Location l, ValueRange v) {
                                  return convertScalar(b, l, v[0], to);
                                }));
    return success();
  }
};

struct CompareLowering : GraphPattern<CompareOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(CompareOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    StringRef p = op.getPredicate();
    r.replaceOp(op, elementwise(r, op.getLoc(), op.getType(), {a.getLhs(), a.getRhs()},
                                [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                                  if (isFloatType(v[0].getType())) {
                                    // Ordered, except ne: NaN is unequal to all.
                                    auto fp = llvm::StringSwitch<arith::CmpFPredicate>(p)
                                                  .Case("eq", arith::CmpFPredicate::OEQ)
                                                  .Case("ne", arith::CmpFPredicate::UNE)
                                                  .Case("lt", arith::CmpFPredicate::OLT)
                                                  .Case("le", arith::CmpFPredicate::OLE)
                                                  .Case("gt", arith::CmpFPredicate::OGT)
                                                  .Default(arith::CmpFPredicate::OGE);
                                    return arith::CmpFOp::create(b, l, fp, v[0], v[1]);
                                  }
                                  auto ip = llvm::StringSwitch<arith::CmpIPredicate>(p)
                                                .Case("eq", arith::CmpIPredicate::eq)
                                                .Case("ne", arith::CmpIPredicate::ne)
                                                .Case("lt", arith::CmpIPredicate::slt)
                                                .Case("le", arith::CmpIPredicate::sle)
                                                .Case("gt", arith::CmpIPredicate::sgt)
                                                .Default(arith::CmpIPredicate::sge);
                                  return arith::CmpIOp::create(b, l, ip, v[0], v[1]);
                                }));
    return success();
  }
};

struct SelectLowering : GraphPattern<SelectOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(SelectOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    r.replaceOp(op, elementwise(r, op.getLoc(), op.getType(),
                                {a.getCondition(), a.getTrueValue(), a.getFalseValue()},
                                [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                                  return arith::SelectOp::create(b, l, v[0], v[1], v[2]);
                                }));
    return success();
  }
};

/// Per-channel parameters `p` ([C]) broadcast along `axis` of a rank-`rank`
/// result: the map (d0..d_{rank-1}) -> (d_axis).
Value channelwise(OpBuilder &b, Location loc, RankedTensorType type, int64_t axis,
                  ValueRange inputs, ValueRange params, const BodyFn &body) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps;
  for (Value in : inputs)
    maps.push_back(broadcastMap(ctx, typeOf(in).getShape(), type.getShape()));
  for (size_t i = 0; i < params.size(); ++i)
    maps.push_back(AffineMap::get(rank, 0, {getAffineDimExpr(axis, ctx)}, ctx));
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  SmallVector<Value> operands(inputs);
  llvm::append_range(operands, params);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, operands, ValueRange{empty(b, loc, type)}, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, body(nb, nl, args.drop_back()));
      });
  return generic.getResult(0);
}

struct BatchNormLowering : GraphPattern<BatchNormOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(BatchNormOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    int64_t axis = *normalizeAxis(op.getAxis(), op.getType().getRank());
    double eps = op.getEpsilon().convertToDouble();
    r.replaceOp(op, channelwise(r, op.getLoc(), op.getType(), axis, a.getInput(),
                                {a.getGamma(), a.getBeta(), a.getMean(), a.getVariance()},
                                [&](OpBuilder &b, Location l, ValueRange v) {
                                  Value e = scalar(b, l, v[0].getType(), eps);
                                  Value sd = math::SqrtOp::create(b, l, add(b, l, v[4], e));
                                  Value n = div(b, l, sub(b, l, v[0], v[3]), sd);
                                  return add(b, l, mul(b, l, n, v[1]), v[2]);
                                }));
    return success();
  }
};

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

/// The output initialized with a per-channel bias along `axis`, or zeros.
Value biasInit(OpBuilder &b, Location loc, RankedTensorType type, Value bias, int64_t axis) {
  if (!bias)
    return filled(b, loc, type, 0.0);
  return channelwise(b, loc, type, axis, {}, bias,
                     [](OpBuilder &, Location, ValueRange v) { return v[0]; });
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

/// Position of N, C, H, W in an image layout.
struct Dims { int64_t n, c, h, w; };
Dims dimsOf(StringRef layout) {
  return layout == "NHWC" ? Dims{0, 3, 1, 2} : Dims{0, 1, 2, 3};
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
    auto copy = linalg::GenericOp::create(
        b, loc, TypeRange{cols6}, ValueRange{x}, ValueRange{empty(b, loc, cols6)},
        SmallVector<AffineMap>{read, AffineMap::getMultiDimIdentityMap(6, ctx)},
        SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
        [](OpBuilder &nb, Location nl, ValueRange args) {
          linalg::YieldOp::create(nb, nl, args[0]);
        });
    col = reshapeTo(b, loc, copy.getResult(0), colType);
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
    Value init = biasInit(r, loc, type, a.getBias(), dm.c);
    if (groups == 1) {
      if (nhwc && hwio) {
        r.replaceOp(op, linalg::Conv2DNhwcHwcfOp::create(r, loc, TypeRange{type}, ValueRange{x, w},
                                                         ValueRange{init}, strides, dilations)
                            .getResult(0));
        return success();
      }
    }
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

/// softmax, and fast_softmax with FastMath's exp.
template <typename OpTy> struct SoftmaxLowering : GraphPattern<OpTy> {
  using GraphPattern<OpTy>::GraphPattern;
  using Adaptor = typename GraphPattern<OpTy>::Adaptor;
  LogicalResult matchAndRewrite(OpTy op, Adaptor a, ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t axis = *normalizeAxis(op.getAxis(), type.getRank());
    Value x = a.getInput();
    Value mx = reduce(r, loc, x, {axis}, true, lowest(type.getElementType()),
                      [](OpBuilder &b, Location l, Value acc, Value v) { return max(b, l, acc, v); });
    Value e = elementwise(r, loc, type, {x, mx}, [](OpBuilder &b, Location l, ValueRange v) {
      Value d = sub(b, l, v[0], v[1]);
      return std::is_same_v<OpTy, FastSoftmaxOp> ? fastExp(b, l, d)
                                                 : (Value)math::ExpOp::create(b, l, d);
    });
    Value s = reduce(r, loc, e, {axis}, true, 0.0,
                     [](OpBuilder &b, Location l, Value acc, Value v) { return add(b, l, acc, v); });
    r.replaceOp(op, elementwise(r, loc, type, {e, s}, [](OpBuilder &b, Location l, ValueRange v) {
      return div(b, l, v[0], v[1]);
    }));
    return success();
  }
};

struct LayerNormLowering : GraphPattern<LayerNormOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(LayerNormOp op, Adaptor a, ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank(), axis = *normalizeAxis(op.getAxis(), rank);
    SmallVector<int64_t> axes;
    int64_t n = 1;
    for (int64_t i = axis; i < rank; ++i) {
      axes.push_back(i);
      n *= type.getDimSize(i);
    }
    double eps = op.getEpsilon().convertToDouble();
    auto sum = [](OpBuilder &b, Location l, Value acc, Value v) { return add(b, l, acc, v); };
    Value x = a.getInput();
    Value mean = reduce(r, loc, x, axes, true, 0.0, sum);
    Value centered = elementwise(r, loc, type, {x, mean}, [&](OpBuilder &b, Location l, ValueRange v) {
      return sub(b, l, v[0], div(b, l, v[1], scalar(b, l, v[1].getType(), (double)n)));
    });
    Value sq = elementwise(r, loc, type, centered, [](OpBuilder &b, Location l, ValueRange v) {
      return mul(b, l, v[0], v[0]);
    });
    Value var = reduce(r, loc, sq, axes, true, 0.0, sum);
    r.replaceOp(op, elementwise(r, loc, type, {centered, var, a.getGamma(), a.getBeta()},
                                [&](OpBuilder &b, Location l, ValueRange v) {
                                  Type t = v[0].getType();
                                  Value vr = div(b, l, v[1], scalar(b, l, t, (double)n));
                                  Value sd = math::SqrtOp::create(b, l, add(b, l, vr, scalar(b, l, t, eps)));
                                  return add(b, l, mul(b, l, div(b, l, v[0], sd), v[2]), v[3]);
                                }));
    return success();
  }
};

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

template <typename OpTy>
struct QuantLowering : GraphPattern<OpTy> {
  using GraphPattern<OpTy>::GraphPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    RankedTensorType type = op.getType();
    Location loc = op.getLoc();
    Value scale = a.getScale(), zp = a.getZeroPoint();
    // Scalars broadcast as numpy does; per-axis vectors along `axis`.
    int64_t axis = *normalizeAxis(op.getAxis(), type.getRank());
    bool perAxis = typeOf(scale).getNumElements() != 1 || typeOf(scale).getRank() > 1;
    if (!perAxis) {
      auto one = [&](Value v) {
        return reshapeTo(r, loc, v, RankedTensorType::get({}, typeOf(v).getElementType()));
      };
      scale = one(scale);
      zp = one(zp);
    }
    auto body = [&](OpBuilder &b, Location l, ValueRange v) -> Value {
      Type ft = v[1].getType();
      Value z = arith::SIToFPOp::create(b, l, ft, v[2]);
      if constexpr (std::is_same_v<OpTy, QuantizeOp>) {
        Type it = type.getElementType();
        unsigned bits = it.getIntOrFloatBitWidth();
        Value q = math::RoundEvenOp::create(b, l, div(b, l, v[0], v[1]));
        q = add(b, l, q, z);
        q = max(b, l, q, scalar(b, l, ft, -std::ldexp(1.0, bits - 1)));
        q = min(b, l, q, scalar(b, l, ft, std::ldexp(1.0, bits - 1) - 1));
        return arith::FPToSIOp::create(b, l, it, q);
      } else {
        Value x = arith::SIToFPOp::create(b, l, ft, v[0]);
        return mul(b, l, sub(b, l, x, z), v[1]);
      }
    };
    Value y = perAxis ? channelwise(r, loc, type, axis, a.getInput(), {scale, zp}, body)
                      : elementwise(r, loc, type, {a.getInput(), scale, zp}, body);
    r.replaceOp(op, y);
    return success();
  }
};

/// Elementwise scalar bodies of the unary ops.
template <typename OpTy>
void addUnary(RewritePatternSet &p, std::function<Value(OpBuilder &, Location, Value, OpTy)> fn) {
  p.add<UnaryLowering<OpTy>>(p.getContext(), std::move(fn));
}

template <typename OpTy>
void addBinary(RewritePatternSet &p, std::function<Value(OpBuilder &, Location, Value, Value)> fn) {
  p.add<BinaryLowering<OpTy>>(p.getContext(), std::move(fn));
}

Value gelu(OpBuilder &b, Location l, Value x, bool tanhApprox) {
  Type t = x.getType();
  Value half = scalar(b, l, t, 0.5), one = scalar(b, l, t, 1.0);
  Value inner;
  if (tanhApprox) {
    Value x3 = mul(b, l, mul(b, l, x, x), x);
    inner = math::TanhOp::create(
        b, l, mul(b, l, scalar(b, l, t, std::sqrt(2.0 / M_PI)),
                  add(b, l, x, mul(b, l, scalar(b, l, t, 0.044715), x3))));
  } else {
    inner = math::ErfOp::create(b, l, mul(b, l, x, scalar(b, l, t, 1.0 / std::sqrt(2.0))));
  }
  return mul(b, l, mul(b, l, half, x), add(b, l, one, inner));
}

struct ConvertGraphToLinalgPass
    : dlc::impl::ConvertGraphToLinalgPassBase<ConvertGraphToLinalgPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Region ops lower as their bodies: inline them first.
    SmallVector<Operation *> regionOps;
    func.walk([&](Operation *op) {
      if (isa<FusedOp, CompositeOp>(op))
        regionOps.push_back(op);
    });
    for (Operation *op : llvm::reverse(regionOps))
      inlineRegionOp(op);
    ConversionTarget target(getContext());
    target.addIllegalDialect<GraphDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect, math::MathDialect,
                           tensor::TensorDialect, func::FuncDialect, scf::SCFDialect,
                           memref::MemRefDialect, bufferization::BufferizationDialect>();
    RewritePatternSet patterns(&getContext());
    populateGraphToLinalgConversionPatterns(patterns);
    if (failed(applyFullConversion(func, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

/// Products, convolutions and reductions of f16/bf16 accumulate in f32, as
/// the reference does to within its one final rounding: the operands are
/// widened, the op computed in f32 (by its f32 kernels) and its result
/// rounded once, instead of rounding every partial sum.
template <typename OpTy>
struct WidenLowPrecision : GraphPattern<OpTy> {
  WidenLowPrecision(MLIRContext *ctx) : GraphPattern<OpTy>(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (op->getNumResults() != 1 || !(type.getElementType().isF16() || type.getElementType().isBF16()))
      return r.notifyMatchFailure(op, "not an f16/bf16 result");
    Location loc = op.getLoc();
    Type f32 = r.getF32Type();
    SmallVector<Value> wide;
    for (Value v : a.getOperands()) {
      auto t = cast<RankedTensorType>(v.getType());
      wide.push_back(t.getElementType().isF16() || t.getElementType().isBF16()
                         ? Value(CastOp::create(r, loc, t.clone(f32), v))
                         : v);
    }
    OperationState state(loc, op->getName());
    state.addOperands(wide);
    state.addAttributes(op->getAttrDictionary().getValue());
    state.addTypes(type.clone(f32));
    Operation *wideOp = r.create(state);
    r.replaceOpWithNewOp<CastOp>(op, type, wideOp->getResult(0));
    return success();
  }
};

void dlc::populateGraphToLinalgConversionPatterns(RewritePatternSet &p) {
  p.add<WidenLowPrecision<Conv2DOp>, WidenLowPrecision<DenseOp>, WidenLowPrecision<MatmulOp>,
        WidenLowPrecision<BatchMatmulOp>, WidenLowPrecision<AvgPool2DOp>,
        WidenLowPrecision<GlobalAvgPool2DOp>, WidenLowPrecision<ReduceSumOp>,
        WidenLowPrecision<ReduceMeanOp>, WidenLowPrecision<SoftmaxOp>,
        WidenLowPrecision<LayerNormOp>>(p.getContext());
  MLIRContext *ctx = p.getContext();
  p.add<ConstantLowering, CastLowering, CompareLowering, SelectLowering, BatchNormLowering, BiasAddLowering, DenseLowering,
        BatchMatmulLowering, MatmulLowering, Conv2DLowering, PoolLowering<MaxPool2DOp>,
        PoolLowering<AvgPool2DOp>, GlobalAvgPoolLowering, ReduceLowering<ReduceSumOp>,
        ReduceLowering<ReduceMeanOp>, ReduceLowering<ReduceMaxOp>, SoftmaxLowering<SoftmaxOp>,
        SoftmaxLowering<FastSoftmaxOp>,
        LayerNormLowering, TransposeLowering, ReshapeLowering<ReshapeOp>,
        ReshapeLowering<ExpandDimsOp>, ReshapeLowering<SqueezeOp>,
        ReshapeLowering<DynamicReshapeOp>, ConcatLowering, SplitLowering, SliceLowering,
        PadLowering, GatherLowering, LayoutTransformLowering, QuantLowering<QuantizeOp>,
        QuantLowering<DequantizeOp>>(ctx);
  populateDetectionLoweringPatterns(p);
  addUnary<ReluOp>(p, [](OpBuilder &b, Location l, Value x, ReluOp) {
    return max(b, l, x, scalar(b, l, x.getType(), 0));
  });
  addUnary<SigmoidOp>(p, [](OpBuilder &b, Location l, Value x, SigmoidOp) {
    Value one = scalar(b, l, x.getType(), 1.0);
    return div(b, l, one, add(b, l, one, math::ExpOp::create(b, l, arith::NegFOp::create(b, l, x))));
  });
  addUnary<TanhOp>(p, [](OpBuilder &b, Location l, Value x, TanhOp) { return math::TanhOp::create(b, l, x); });
  addUnary<ErfOp>(p, [](OpBuilder &b, Location l, Value x, ErfOp) { return math::ErfOp::create(b, l, x); });
  addUnary<ExpOp>(p, [](OpBuilder &b, Location l, Value x, ExpOp) { return math::ExpOp::create(b, l, x); });
  addUnary<FastExpOp>(p, [](OpBuilder &b, Location l, Value x, FastExpOp) { return fastExp(b, l, x); });
  addUnary<FastErfOp>(p, [](OpBuilder &b, Location l, Value x, FastErfOp) { return fastErf(b, l, x); });
  addUnary<FastTanhOp>(p, [](OpBuilder &b, Location l, Value x, FastTanhOp) { return fastTanh(b, l, x); });
  addUnary<LogOp>(p, [](OpBuilder &b, Location l, Value x, LogOp) { return math::LogOp::create(b, l, x); });
  addUnary<SqrtOp>(p, [](OpBuilder &b, Location l, Value x, SqrtOp) { return math::SqrtOp::create(b, l, x); });
  addUnary<RsqrtOp>(p, [](OpBuilder &b, Location l, Value x, RsqrtOp) {
    return div(b, l, scalar(b, l, x.getType(), 1.0), math::SqrtOp::create(b, l, x));
  });
  addUnary<NegOp>(p, [](OpBuilder &b, Location l, Value x, NegOp) {
    return isFloatType(x.getType()) ? (Value)arith::NegFOp::create(b, l, x)
                                    : sub(b, l, scalar(b, l, x.getType(), 0), x);
  });
  addUnary<AbsOp>(p, [](OpBuilder &b, Location l, Value x, AbsOp) {
    if (isFloatType(x.getType()))
      return (Value)math::AbsFOp::create(b, l, x);
    Value zero = scalar(b, l, x.getType(), 0);
    Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x, zero);
    return (Value)arith::SelectOp::create(b, l, neg, sub(b, l, zero, x), x);
  });
  addUnary<GeluOp>(p, [](OpBuilder &b, Location l, Value x, GeluOp op) {
    return gelu(b, l, x, op.getApproximate() == "tanh");
  });
  addUnary<ClipOp>(p, [](OpBuilder &b, Location l, Value x, ClipOp op) {
    Type t = x.getType();
    double lo = op.getMin().convertToDouble(), hi = op.getMax().convertToDouble();
    if (!isFloatType(t)) { // clamp the bounds into the integer range
      lo = std::max(lo, lowest(t));
      hi = std::min(hi, -lowest(t) - 1);
    }
    return min(b, l, max(b, l, x, scalar(b, l, t, lo)), scalar(b, l, t, hi));
  });
  addUnary<DropoutOp>(p, [](OpBuilder &, Location, Value x, DropoutOp) { return x; });
  using Scalar2 = Value (*)(OpBuilder &, Location, Value, Value);
  addBinary<AddOp>(p, static_cast<Scalar2>(add));
  addBinary<SubOp>(p, static_cast<Scalar2>(sub));
  addBinary<MulOp>(p, static_cast<Scalar2>(mul));
  addBinary<DivOp>(p, static_cast<Scalar2>(div));
  addBinary<MaximumOp>(p, static_cast<Scalar2>(max));
  addBinary<MinimumOp>(p, static_cast<Scalar2>(min));
  addBinary<PowOp>(p, [](OpBuilder &b, Location l, Value x, Value y) -> Value {
    if (isFloatType(x.getType()))
      return math::PowFOp::create(b, l, x, y);
    return math::IPowIOp::create(b, l, x, y);
  });
}
