//===- Lowerings.h - graph-to-linalg patterns by op family -----*- C++ -*-===//
//
// Private to lib/Conversion/GraphToLinalg. Each op family's lowering
// patterns live in a file of their own, named as the ONNX importer's and the
// reference interpreter's families are, and are added to
// ConvertGraphToLinalg's set by one populate function each. The helpers all
// families build on (broadcasting elementwise generics, reductions, scalar
// arithmetic that picks the float or integer op) are in Utils.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CONVERSION_GRAPHTOLINALG_LOWERINGS_H
#define DLC_CONVERSION_GRAPHTOLINALG_LOWERINGS_H

#include "dlc/Dialect/Graph/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

#include <functional>

namespace dlc {

// The families' patterns.
void populateElementwiseLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateLinearLoweringPatterns(mlir::RewritePatternSet &patterns);
void populatePoolingLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateNormalizationLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateReductionsLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateShapeLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateQuantizationLoweringPatterns(mlir::RewritePatternSet &patterns);
/// graph.nms as scf loops over buffers (Detection.cpp).
void populateDetectionLoweringPatterns(mlir::RewritePatternSet &patterns);

namespace lowering {

using namespace mlir;

/// A conversion pattern for one graph op.
template <typename OpTy>
struct GraphPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpTy::Adaptor;
};

using BodyFn = std::function<Value(OpBuilder &, Location, ValueRange)>;

inline RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

inline bool isFloatType(Type t) { return isa<FloatType>(t); }

/// Whether `t` is a float type whose products and reductions accumulate
/// in f32 (f16, bf16).
inline bool isNarrowFloat(Type t) { return t.isF16() || t.isBF16(); }

/// Whether conv2d `op` of f16/bf16 lowers in its own type (Linear.cpp), not
/// through the generic widening to f32: an NHWC/HWIO convolution of one
/// group, whose im2col moves the narrow values and whose product widens
/// the two matrices it reads (what bf16 dot products take as they are).
bool lowersNarrowItself(graph::Conv2DOp op);

/// A scalar constant of element type `t`.
Value scalar(OpBuilder &b, Location loc, Type t, double v);

/// The lowest value of `t` (the identity of max).
double lowest(Type t);
/// The highest value of `t` (the identity of min).
double highest(Type t);

Value empty(OpBuilder &b, Location loc, RankedTensorType type);

Value filled(OpBuilder &b, Location loc, RankedTensorType type, double v);

/// Map from an output of rank `rank` to an operand of `shape`, numpy style:
/// leading dims dropped, size-1 dims broadcast.
AffineMap broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> shape,
                       ArrayRef<int64_t> outShape);

/// out[i...] = body(inputs[broadcast(i)]...)
Value elementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                  ValueRange inputs, const BodyFn &body);

/// Reduces `x` over `axes` with `combine`, starting from `init`; the result
/// keeps reduced dims as size 1 when `keepdims`.
Value reduce(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> axes,
             bool keepdims, double init,
             const std::function<Value(OpBuilder &, Location, Value, Value)> &combine);

// Scalar arithmetic that picks the float or integer op.
Value add(OpBuilder &b, Location l, Value x, Value y);

Value sub(OpBuilder &b, Location l, Value x, Value y);

Value mul(OpBuilder &b, Location l, Value x, Value y);

Value div(OpBuilder &b, Location l, Value x, Value y);

Value max(OpBuilder &b, Location l, Value x, Value y);

Value min(OpBuilder &b, Location l, Value x, Value y);

/// Converts a scalar between element types with the interpreter's rules
/// (float rounding to nearest; float to int truncates; to i1 is x != 0).
Value convertScalar(OpBuilder &b, Location l, Value x, Type to);

/// Any static reshape: collapse to 1-D, then expand (views, no copies).
Value reshapeTo(OpBuilder &b, Location loc, Value x, RankedTensorType to);

/// Pads `x` with `value` (tensor.pad with a constant).
Value padConstant(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> low,
                  ArrayRef<int64_t> high, double value);

/// A generic whose body reads `x` at indices computed from the output
/// indices (tensor.extract): gathers, strided and reversed slices,
/// reflect/edge padding, layout transforms.
Value indexedRead(OpBuilder &b, Location loc, Value x, RankedTensorType outType,
                  const std::function<SmallVector<Value>(OpBuilder &, Location,
                                                         ArrayRef<Value>)> &index);

/// The slice of `x` of type `type` from `starts`, every `steps` elements
/// (tensor.extract_slice; an empty result reads nothing).
Value extractSlice(OpBuilder &b, Location loc, Value x, RankedTensorType type,
                   ArrayRef<int64_t> starts, ArrayRef<int64_t> steps);

Value indexConst(OpBuilder &b, Location l, int64_t v);

/// Per-channel parameters `p` ([C]) broadcast along `axis` of a rank-`rank`
/// result: the map (d0..d_{rank-1}) -> (d_axis).
Value channelwise(OpBuilder &b, Location loc, RankedTensorType type, int64_t axis,
                  ValueRange inputs, ValueRange params, const BodyFn &body);

/// Position of N, C, H, W in an image layout ("NCHW" or "NHWC").
struct Dims { int64_t n, c, h, w; };
inline Dims dimsOf(StringRef layout) {
  return layout == "NHWC" ? Dims{0, 3, 1, 2} : Dims{0, 1, 2, 3};
}

} // namespace lowering
} // namespace dlc

#endif // DLC_CONVERSION_GRAPHTOLINALG_LOWERINGS_H
