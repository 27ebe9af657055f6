//===- Utils.cpp - helpers every lowering family uses ---------------------===//
//
// Elementwise generics with numpy broadcasting maps (so that linalg's
// elementwise fusion later merges chains such as conv + bias + relu into one
// loop nest), reductions, reshapes, padding, indexed reads and scalar
// arithmetic that picks the float or integer op.
//
//===----------------------------------------------------------------------===//
#include "Lowerings.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dlc;

namespace dlc::lowering {

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

double highest(Type t) {
  if (isFloatType(t))
    return std::numeric_limits<double>::infinity();
  unsigned bits = t.getIntOrFloatBitWidth();
  return bits == 1 ? 1.0 : std::ldexp(1.0, bits - 1) - 1;
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
  if (isFloatType(from) && isFloatType(to)) {
    unsigned fromBits = from.getIntOrFloatBitWidth(), toBits = to.getIntOrFloatBitWidth();
    if (fromBits == toBits) // bf16 <-> f16: exactly through f32, then rounded once
      return arith::TruncFOp::create(b, l, to, arith::ExtFOp::create(b, l, b.getF32Type(), x));
    return fromBits < toBits ? (Value)arith::ExtFOp::create(b, l, to, x)
                             : (Value)arith::TruncFOp::create(b, l, to, x);
  }
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

/// Any static reshape, as views (no copies): one collapse or one expand
/// where that is what it is (the later passes see an HWIO weight read as
/// [KH*KW*C, O] directly), otherwise a collapse to 1-D and an expand.
Value reshapeTo(OpBuilder &b, Location loc, Value x, RankedTensorType to) {
  RankedTensorType from = typeOf(x);
  if (from == to)
    return x;
  if (from.getRank() > to.getRank() && to.getRank() > 0)
    if (auto groups = getReassociationIndicesForCollapse(from.getShape(), to.getShape()))
      return tensor::CollapseShapeOp::create(b, loc, to, x, *groups);
  if (from.getRank() < to.getRank() && from.getRank() > 0)
    if (auto groups = getReassociationIndicesForCollapse(to.getShape(), from.getShape()))
      return tensor::ExpandShapeOp::create(b, loc, to, x, *groups);
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

Value indexConst(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIndexOp::create(b, l, v);
}

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

} // namespace dlc::lowering
