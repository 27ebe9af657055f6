//===- Importer.h - the ONNX importer's converter state ---------*- C++ -*-===//
//
// Private to lib/Frontend/ONNX. The importer walks the ONNX graph in order,
// mapping each value name to an MLIR value; a converter per ONNX operator
// adds the graph ops for one node. Converters live by op family, one file
// each, named as the reference interpreter's and the linalg lowering's
// families are (Elementwise, Linear, Pooling, Normalization, Reductions,
// Shape, Quantization), and each family registers its converters in the
// importer's table (registerElementwise, ...). Importer.cpp holds the walk,
// values, constants and folding.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_FRONTEND_ONNX_IMPORTER_H
#define DLC_LIB_FRONTEND_ONNX_IMPORTER_H

#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Frontend/ONNX.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Runtime/Tensor.h"
#include "dlc/Support/Shape.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/Error.h"

#include "onnx/onnx_pb.h"

#include <functional>
#include <map>
#include <set>
#include <string>

namespace dlc::onnx_import {

using namespace mlir;
using llvm::Error;
using llvm::Expected;

inline Error makeError(const llvm::Twine &message, bool unsupported) {
  return llvm::make_error<OnnxImportError>(message.str(), unsupported);
}

/// The runtime type of an ONNX TensorProto data type, if dlc has one.
std::optional<DType> dtypeFromOnnx(int code);
/// "FLOAT", "UINT16", ... or "type N" for messages.
std::string onnxTypeName(int code);
/// "1, 2, 3" for messages.
std::string formatInts(ArrayRef<int64_t> values);

/// Explicit pads [begin..., end...] over the spatial sizes `in` for
/// auto_pad = SAME_UPPER, SAME_LOWER or VALID (Conv and the pools).
void autoPad(StringRef mode, ArrayRef<int64_t> in, ArrayRef<int64_t> k, ArrayRef<int64_t> s,
             ArrayRef<int64_t> d, SmallVectorImpl<int64_t> &pads);

/// One ONNX node being converted, with typed attribute accessors.
struct Node {
  const onnx::NodeProto &proto;
  std::string label; ///< "node 'conv1' (Conv, opset 13)" for messages
  Location loc;
  int64_t opset;

  /// The first attribute read with the wrong type ("attribute 'axis' has
  /// type FLOAT, expected INT"); the import fails with it after the node.
  mutable std::string attrError;

  const onnx::AttributeProto *attr(StringRef name) const {
    for (const auto &a : proto.attribute())
      if (a.name() == name)
        return &a;
    return nullptr;
  }
  /// Attribute `name` if present and of type `type`; a present attribute of
  /// another type is recorded in attrError and reads as absent.
  const onnx::AttributeProto *attrOf(StringRef name,
                                     onnx::AttributeProto::AttributeType type) const {
    const auto *a = attr(name);
    if (!a || a->type() == type)
      return a;
    if (attrError.empty())
      attrError = "attribute '" + name.str() + "' has type " +
                  onnx::AttributeProto::AttributeType_Name(a->type()) +
                  ", expected " + onnx::AttributeProto::AttributeType_Name(type);
    return nullptr;
  }
  int64_t getInt(StringRef name, int64_t dflt) const {
    const auto *a = attrOf(name, onnx::AttributeProto::INT);
    return a ? a->i() : dflt;
  }
  float getFloat(StringRef name, float dflt) const {
    const auto *a = attrOf(name, onnx::AttributeProto::FLOAT);
    return a ? a->f() : dflt;
  }
  std::string getString(StringRef name, StringRef dflt) const {
    const auto *a = attrOf(name, onnx::AttributeProto::STRING);
    return a ? a->s() : dflt.str();
  }
  std::optional<SmallVector<int64_t>> getInts(StringRef name) const {
    const auto *a = attrOf(name, onnx::AttributeProto::INTS);
    if (!a)
      return std::nullopt;
    return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
  }
  bool hasInput(int i) const {
    return i < proto.input_size() && !proto.input(i).empty();
  }
  bool hasOutput(int i) const {
    return i < proto.output_size() && !proto.output(i).empty();
  }
};

class Importer {
public:
  Importer(MLIRContext &ctx, StringRef path, const OnnxImportOptions &options)
      : ctx(ctx), builder(&ctx), path(path.str()), options(options) {}

  /// Imports the serialized ModelProto `bytes`.
  Expected<OwningOpRef<ModuleOp>> run(StringRef bytes);

private:
  using Converter = std::function<Error(Importer &, Node &)>;
  using ConverterTable = std::map<std::string, Converter>;
  /// Every converter, by ONNX op type.
  static const ConverterTable &converters();
  // The families' registrations (one file each).
  static void registerElementwise(ConverterTable &t);
  static void registerReductions(ConverterTable &t);
  static void registerLinear(ConverterTable &t);
  static void registerPooling(ConverterTable &t);
  static void registerNormalization(ConverterTable &t);
  static void registerShape(ConverterTable &t);
  static void registerQuantization(ConverterTable &t);
  static void registerLosses(ConverterTable &t);

  // Errors.
  Error fail(Node &n, const llvm::Twine &msg) {
    return makeError(path + ": " + n.label + ": " + msg, false);
  }
  Error unsupported(Node &n, const llvm::Twine &msg) {
    return makeError(path + ": " + n.label + ": unsupported: " + msg, true);
  }
  Error checkAttrs(Node &n, std::initializer_list<StringRef> known);
  /// The window of Conv or a pool over 1, 2 or 3 spatial dimensions:
  /// kernel, strides, dilations and pads [begin..., end...], as ONNX
  /// orders them.
  struct Window {
    SmallVector<int64_t> kernel, strides, dilations, pads;
    int64_t rank() const { return kernel.size(); }
    /// The window over H and W as the graph's 2-D ops take it (pads [top,
    /// left, bottom, right]): a 1-D window over a height of 1, a 3-D one
    /// without its depth.
    Window planar() const;
  };
  /// The node's window attributes (strides, dilations, pads, auto_pad over
  /// the `spatial` sizes, kernel_shape checked against `kernel`) with
  /// ONNX's defaults.
  Expected<Window> window(Node &n, ArrayRef<int64_t> spatial, ArrayRef<int64_t> kernel);
  /// The most terms a composition sums over a window (LRN's channels, a
  /// 3-D window's depth taps): each is an op of its own.
  static constexpr int64_t kMaxWindowTerms = 256;
  /// For a 3-D window `w` (its depth part) sliding along `axis` of `x`: the
  /// planes each depth tap of the window reads, one tensor per tap, `x` with
  /// `axis` replaced by the output depths (x padded along it with
  /// `padValue`, and further at the end where `ceilMode` needs). An empty
  /// `x` is refused (the batch of planes could not be counted).
  Expected<SmallVector<Value>> depthTaps(Node &n, Value x, int64_t axis, const Window &w,
                                         bool ceilMode, double padValue);
  static SmallVector<int64_t> insertUnitDim(ArrayRef<int64_t> shape, int64_t pos) {
    SmallVector<int64_t> s(shape);
    s.insert(s.begin() + pos, 1);
    return s;
  }

  // Values.
  Expected<Value> in(Node &n, int i);
  /// An error unless a constant of `shape`, which the converter is about to
  /// build (a mask, a table of indices), has at most 2^24 elements: shapes
  /// within the dialect's 2^48 could otherwise exhaust the machine's memory.
  Error checkConstantSize(Node &n, ArrayRef<int64_t> shape, StringRef what) {
    std::optional<int64_t> count = checkedNumElements(shape);
    if (count && *count <= (int64_t(1) << 24))
      return Error::success();
    return unsupported(n, what + " of shape " + formatShape(shape) +
                              " (more than 2^24 elements, the most a converter builds)");
  }
  /// Inputs 0 to `count` - 1.
  Expected<SmallVector<Value>> ins(Node &n, int count) {
    SmallVector<Value> values;
    for (int i = 0; i < count; ++i) {
      Expected<Value> v = in(n, i);
      if (!v)
        return v.takeError();
      values.push_back(*v);
    }
    return values;
  }
  /// Input `i`, or a null value when the node leaves it out.
  Expected<Value> optionalIn(Node &n, int i) {
    if (!n.hasInput(i))
      return Value();
    return in(n, i);
  }
  std::optional<Tensor> constantOf(Value v);
  Expected<Tensor> constIn(Node &n, int i, StringRef what);
  /// Constant input `i` as integers.
  Expected<SmallVector<int64_t>> constInts(Node &n, int i, StringRef what);
  /// The integers that older opsets give as attribute `attr` and newer ones
  /// as constant input `i`; empty when neither is given.
  Expected<SmallVector<int64_t>> intsAttrOrIn(Node &n, StringRef attr, int i);
  Value constant(const Tensor &t, StringRef name);
  /// dlc has no unsigned types. An ONNX UINT8 value is held in one of two
  /// forms, converted where a node needs the other: `Shifted`, i8 = value -
  /// 128, for the quantization operators (quantized arithmetic does not see
  /// the shift: zero points shift with the values), and `Wide`, i32 holding
  /// the value, for every other operator (results that can leave [0, 255],
  /// such as sums and differences, wrap modulo 256). They enter (inputs, test
  /// data) and leave as i32 holding the values. These are their names.
  enum class Uint8Form { Shifted, Wide };
  std::map<std::string, Uint8Form> uint8Values;
  bool isUint8(Node &n, int i) const {
    return n.hasInput(i) && uint8Values.count(n.proto.input(i));
  }
  /// Holds the uint8 value `name` in `form` from now on.
  void holdUint8As(const std::string &name, Uint8Form form, Location loc);
  /// The uint8 values `wide` (i32) stands for: `wide` modulo 256.
  Value wrapUint8(Value wide, Location loc);
  /// Defines output 0 of `n` as `x` cast to uint8 (wrapping, as C's
  /// unsigned conversion does).
  Error castToUint8(Node &n, Value x);
  /// After node `n` ran: its results of uint8 values, held wide (wrapped
  /// where the operator can leave [0, 255]).
  void markUint8Results(Node &n);
  static Tensor shiftedUint8(const Tensor &t) {
    Tensor s(DType::I8, t.shape);
    for (int64_t i = 0; i < t.size(); ++i)
      s.data[i] = t.data[i] - 128;
    return s;
  }
  /// A constant of `shape` with every element `v` in `type`: a splat, whose
  /// size costs nothing until something computes with it.
  Value filled(ArrayRef<int64_t> shape, DType type, double v) {
    Type et = mlirElementType(type, &ctx);
    Attribute value = isa<FloatType>(et) ? Attribute(builder.getFloatAttr(et, v))
                                         : Attribute(builder.getIntegerAttr(et, int64_t(v)));
    auto tensorType = RankedTensorType::get(shape, et);
    return graph::ConstantOp::create(builder, builder.getUnknownLoc(),
                                     DenseElementsAttr::get(tensorType, value));
  }
  Value scalar(DType type, double v) {
    Tensor t(type, {});
    t.data[0] = roundToDType(type, v);
    return constant(t, "scalar");
  }
  void define(Node &n, int i, Value v) { values[n.proto.output(i)] = v; }
  /// Defines output 0 as `v`, or passes its error on.
  Error result(Node &n, Expected<Value> v) {
    if (!v)
      return v.takeError();
    define(n, 0, *v);
    return Error::success();
  }
  static RankedTensorType typeOf(Value v) {
    return cast<RankedTensorType>(v.getType());
  }

  // Ops: created generically; result types inferred unless given.
  Expected<SmallVector<Value>> makeOp(Node &n, StringRef name,
                                      ValueRange operands,
                                      ArrayRef<NamedAttribute> attrs,
                                      TypeRange resultTypes = {},
                                      unsigned numResults = 1);
  Expected<Value> make(Node &n, StringRef name, ValueRange operands,
                       ArrayRef<NamedAttribute> attrs = {},
                       Type resultType = {}) {
    auto r = makeOp(n, name, operands, attrs,
                    resultType ? TypeRange(resultType) : TypeRange());
    if (!r)
      return r.takeError();
    return (*r)[0];
  }
  NamedAttribute named(StringRef name, Attribute a) {
    return builder.getNamedAttr(name, a);
  }
  NamedAttribute ints(StringRef name, ArrayRef<int64_t> v) {
    return named(name, builder.getDenseI64ArrayAttr(v));
  }
  NamedAttribute i64(StringRef name, int64_t v) {
    return named(name, builder.getI64IntegerAttr(v));
  }
  NamedAttribute f64(StringRef name, double v) {
    return named(name, builder.getF64FloatAttr(v));
  }
  NamedAttribute str(StringRef name, StringRef v) {
    return named(name, builder.getStringAttr(v));
  }
  Expected<Value> reshape(Node &n, Value v, ArrayRef<int64_t> shape) {
    if (typeOf(v).getShape() == shape)
      return v;
    return make(n, graph::ReshapeOp::getOperationName(), v, {},
                RankedTensorType::get(shape, typeOf(v).getElementType()));
  }
  Expected<Value> castTo(Node &n, Value v, Type elementType) {
    if (typeOf(v).getElementType() == elementType)
      return v;
    return make(n, graph::CastOp::getOperationName(), v, {},
                RankedTensorType::get(typeOf(v).getShape(), elementType));
  }

  Error importGraph(const onnx::GraphProto &graph, func::FuncOp &func);
  /// A TensorProto's data; UINT8 data (shifted, see uint8Values) only where
  /// `uint8` is given, which says whether it was.
  Expected<Tensor> tensorFromProto(const onnx::TensorProto &proto,
                                   StringRef what, bool *uint8 = nullptr);

  /// Graph ops composed for node `n` (an ONNX operator the dialect has no
  /// op for): the first error ends the composition (later ops return their
  /// first operand) and is what finish returns.
  class Composition {
  public:
    Composition(Importer &im, Node &n) : im(im), n(n) {}
    ~Composition() { llvm::consumeError(std::move(error)); }
    /// An op with its result type inferred unless `resultType` is given.
    Value op(StringRef name, ValueRange operands, ArrayRef<NamedAttribute> attrs = {},
             Type resultType = {}) {
      if (failed())
        return operands.front();
      Expected<Value> v = im.make(n, name, operands, attrs, resultType);
      if (!v) {
        error = v.takeError();
        return operands.front();
      }
      return *v;
    }
    Value add(Value a, Value b) { return op(graph::AddOp::getOperationName(), {a, b}); }
    Value sub(Value a, Value b) { return op(graph::SubOp::getOperationName(), {a, b}); }
    Value mul(Value a, Value b) { return op(graph::MulOp::getOperationName(), {a, b}); }
    Value div(Value a, Value b) { return op(graph::DivOp::getOperationName(), {a, b}); }
    Value max(Value a, Value b) { return op(graph::MaximumOp::getOperationName(), {a, b}); }
    Value min(Value a, Value b) { return op(graph::MinimumOp::getOperationName(), {a, b}); }
    Value neg(Value a) { return op(graph::NegOp::getOperationName(), a); }
    Value exp(Value a) { return op(graph::ExpOp::getOperationName(), a); }
    Value log(Value a) { return op(graph::LogOp::getOperationName(), a); }
    /// graph.compare with `predicate` (eq, ne, lt, le, gt, ge).
    Value compare(StringRef predicate, Value a, Value b) {
      return op(graph::CompareOp::getOperationName(), {a, b}, {im.str("predicate", predicate)});
    }
    Value select(Value c, Value a, Value b) {
      return op(graph::SelectOp::getOperationName(), {c, a, b});
    }
    /// Reduction `name` (graph.reduce_sum, ...) over `axes` (all when empty).
    Value reduce(StringRef name, Value x, ArrayRef<int64_t> axes, bool keepdims) {
      return op(name, x, {im.ints("axes", axes), im.named("keepdims", im.builder.getBoolAttr(keepdims))});
    }
    Value reshape(Value x, ArrayRef<int64_t> shape) {
      if (failed() || typeOf(x).getShape() == shape)
        return x;
      return op(graph::ReshapeOp::getOperationName(), x, {},
                RankedTensorType::get(shape, typeOf(x).getElementType()));
    }
    Value cast(Value x, Type elementType) {
      if (failed() || typeOf(x).getElementType() == elementType)
        return x;
      return op(graph::CastOp::getOperationName(), x, {},
                RankedTensorType::get(typeOf(x).getShape(), elementType));
    }
    /// A scalar constant of `x`'s element type.
    Value scalarLike(Value x, double v) {
      return im.scalar(*dtypeOf(typeOf(x).getElementType()), v);
    }
    bool failed() { return static_cast<bool>(error); }
    /// `y`, or the first error.
    Expected<Value> value(Value y) {
      if (failed())
        return std::move(error);
      return y;
    }
    /// Output 0 defined as `y`, or the first error.
    Error finish(Value y) { return finish(ArrayRef<Value>{y}); }
    /// Outputs 0, 1, ... defined as `ys` (an absent output is skipped), or
    /// the first error.
    Error finish(ArrayRef<Value> ys) {
      if (failed())
        return std::move(error);
      for (auto [i, y] : llvm::enumerate(ys))
        if (n.hasOutput(i))
          im.define(n, i, y);
      return Error::success();
    }

  private:
    Importer &im;
    Node &n;
    Error error = Error::success();
  };

  // Converters by family, one file each.
  // Elementwise.cpp: activations and elementwise arithmetic.
  Error convertUnary(Node &n, StringRef op);
  Error convertBinary(Node &n, StringRef op);
  /// Operand `b` of a binary op as opsets before 7 broadcast it (the
  /// `broadcast` and `axis` attributes), ready for numpy broadcasting.
  Expected<Value> legacyBroadcast(Node &n, Value a, Value b);
  Error convertVariadic(Node &n, StringRef op);
  Error convertReciprocal(Node &n);
  /// Mod: a - trunc(a / b) b, then moved to b's sign unless fmod.
  Error convertMod(Node &n);
  /// BitShift of uint8 (the only unsigned type dlc holds): x * 2^y (wrapped)
  /// or x / 2^y.
  Error convertBitShift(Node &n);
  Error convertShrink(Node &n);
  Error convertClip(Node &n);
  Error convertGelu(Node &n);
  /// HardSigmoid, HardSwish, LeakyRelu, PRelu, Elu, Selu, Celu, Softplus,
  /// Softsign, Mish, ThresholdedRelu and LogSoftmax, as compositions of
  /// graph ops.
  Error convertActivation(Node &n);
  /// (x - max) - log(sum(exp(x - max))) along `axis`.
  Value logSoftmax(Composition &c, Value x, int64_t axis);
  /// Equal, Less, LessOrEqual, Greater, GreaterOrEqual (graph.compare), Not,
  /// And, Or, Xor (compare and select on booleans), IsNaN, IsInf, Sign
  /// (compare and select) and Where (graph.select).
  Error convertLogic(Node &n);
  Error convertDropout(Node &n);
  // Reductions.cpp.
  Error convertReduce(Node &n, StringRef op);
  Error convertArgReduce(Node &n);
  Error convertCumSum(Node &n);
  Error convertTopK(Node &n);
  /// ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum and
  /// ReduceLogSumExp, as compositions around reduce_max and reduce_sum.
  Error convertReduceComposite(Node &n);
  // Linear.cpp.
  Error convertConv(Node &n);
  /// Conv's attributes applied to x, w and an optional bias.
  Expected<Value> conv(Node &n, Value x, Value w, Value bias);
  /// A 3-D convolution as 2-D ones over every output depth, one per depth
  /// tap of the kernel, summed.
  Expected<Value> conv3d(Node &n, Value x, Value w, Value bias, const Window &win,
                         int64_t groups);
  Error convertMatMul(Node &n);
  Error convertGemm(Node &n);
  /// Einsum: every operand laid out over all the equation's labels, multiplied
  /// (broadcasting) and summed over the labels the output does not keep.
  Error convertEinsum(Node &n);
  /// ConvTranspose (1-D, 2-D and 3-D) as a convolution of the spread input.
  Error convertConvTranspose(Node &n);
  // Pooling.cpp.
  Error convertPool(Node &n, bool isMax);
  /// The node's pool over the 2-D window `plane` of the NCHW `x`.
  Value pool2d(Composition &c, Node &n, Value x, const Window &plane, bool isMax);
  /// 3-D MaxPool and AveragePool as 2-D pools of every output depth's
  /// planes, one per depth tap, combined.
  Expected<Value> pool3d(Node &n, Value x, const Window &win, bool isMax);
  Error convertGlobalPool(Node &n, bool isMax);
  // Normalization.cpp.
  Error convertBatchNorm(Node &n);
  Error convertLayerNorm(Node &n);
  Error convertSoftmax(Node &n);
  Error convertInstanceNorm(Node &n);
  /// (x - mean) / sqrt(var + eps) over `axes`.
  static Value standardized(Composition &c, Value x, ArrayRef<int64_t> axes, double eps);
  /// GroupNormalization: per-group (opset 18) or per-channel (opset 21)
  /// scale and bias.
  Error convertGroupNorm(Node &n);
  /// LpNormalization: x over its L1 or L2 norm along an axis.
  Error convertLpNorm(Node &n);
  Error convertLRN(Node &n);
  Error convertHardmax(Node &n);
  Error convertMeanVarianceNorm(Node &n);
  // Shape.cpp: shape and indexing.
  Error convertFlatten(Node &n);
  Error convertReshape(Node &n);
  Error convertTranspose(Node &n);
  /// Expand: x broadcast to a shape.
  Error convertExpand(Node &n);
  Error convertConcat(Node &n);
  Error convertSplit(Node &n);
  Error convertSlice(Node &n);
  Error convertSqueeze(Node &n, bool unsqueeze);
  Error convertPad(Node &n);
  Error convertGather(Node &n);
  Error convertCast(Node &n);
  Error convertShape(Node &n);
  Error convertConstantOfShape(Node &n);
  Error convertConstant(Node &n);
  Error convertGatherElements(Node &n);
  Error convertSize(Node &n);
  Error convertCastLike(Node &n);
  Error convertTrilu(Node &n);
  Error convertRange(Node &n);
  Error convertEyeLike(Node &n);
  Error convertTile(Node &n);
  /// DepthToSpace and SpaceToDepth.
  Error convertDepthToSpace(Node &n);
  Error convertOneHot(Node &n);
  /// Resize and Upsample: graph.resize with constant scales or sizes.
  Error convertResize(Node &n);
  Error convertGatherND(Node &n);
  /// ScatterND, ScatterElements and Scatter with constant indices.
  Error convertScatter(Node &n);
  // Losses.cpp.
  /// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.
  Error convertLoss(Node &n);
  // Quantization.cpp: QDQ and the QLinear/Integer operators.
  Error convertQuantizeLinear(Node &n);
  Error convertDequantizeLinear(Node &n);
  Error convertQLinearConv(Node &n);
  Error convertQLinearMatMul(Node &n);
  Error convertConvInteger(Node &n);
  Error convertMatMulInteger(Node &n);
  /// DynamicQuantizeLinear: uint8 quantization over the range of x and 0.
  Error convertDynamicQuantizeLinear(Node &n);
  /// Input `i` (the quantized value) and inputs `i + 1`, `i + 2` (its scale
  /// and optional zero point) dequantized along `axis`.
  Expected<Value> dequantized(Node &n, int i, int64_t axis);
  /// `x` quantized with scale input `i` and zero point input `i + 1`; an
  /// absent zero point means a uint8 result with zero point 0.
  Expected<Value> quantized(Node &n, Value x, int i, int64_t axis, StringRef output);
  /// The zero point of quantized input `i` at input `zi` (0 of its type when
  /// absent), shaped like the scale `scaleType`.
  Expected<Value> zeroPointOf(Node &n, int i, int zi, RankedTensorType scaleType);
  /// (input i - zero point input zi) in i32, the zero point along `axis` of
  /// the input when it has one value per index.
  Expected<Value> centeredI32(Node &n, int i, int zi, int64_t axis);

  MLIRContext &ctx;
  OpBuilder builder;
  std::string path;
  const OnnxImportOptions &options;
  std::map<std::string, Value> values;
  std::string diagnostics; ///< messages emitted while building the last op
  int64_t opset = 1;        ///< of the default ONNX domain
};

} // namespace dlc::onnx_import

#endif // DLC_LIB_FRONTEND_ONNX_IMPORTER_H
