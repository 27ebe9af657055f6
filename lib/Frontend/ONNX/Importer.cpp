//===- Importer.cpp - ONNX to the graph dialect ----------------------------===//
//
// Walks the ONNX graph in order, mapping each value name to an MLIR value.
// Ops are created generically and their result types inferred, so that a
// shape error in the model becomes an import error rather than a crash.
// Ops whose operands are all small constants are evaluated with the
// reference semantics right away: that is how Shape -> Gather -> Concat ->
// Reshape chains of exported models become static shapes.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"
#include "dlc/Dialect/Graph/GraphBuilder.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Runtime/TensorIO.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include "onnx/onnx_pb.h"

#include <cmath>
#include <functional>
#include <limits>
#include <map>

using namespace mlir;
using namespace dlc;
using llvm::Error;
using llvm::Expected;
using namespace dlc::onnx_import;

char OnnxImportError::ID = 0;

/// Largest result (in elements) folded at import time: shape computations,
/// never weights.
static constexpr int64_t kFoldLimit = 4096;


Error dlc::parseInputShape(StringRef spec, OnnxImportOptions &options) {
  auto [name, dims] = spec.rsplit(':');
  if (name.empty() || dims.empty() || spec.find(':') == StringRef::npos)
    return llvm::createStringError("bad --input-shape '" + spec.str() +
                                   "': expected name:DxDx... e.g. x:1x3x224x224");
  SmallVector<int64_t> shape;
  SmallVector<StringRef> parts;
  dims.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d < 0)
      return llvm::createStringError("bad --input-shape '" + spec.str() +
                                     "': '" + p.str() + "' is not a size");
    shape.push_back(d);
  }
  options.inputShapes[name] = shape;
  return Error::success();
}

/// The newest default-domain opset whose operator semantics the converters
/// follow (ONNX 1.17).
static constexpr int64_t kMaxOpset = 22;

static std::optional<DType> dtypeFromOnnx(int code) {
  switch (code) {
  case onnx::TensorProto::FLOAT: return DType::F32;
  case onnx::TensorProto::FLOAT16: return DType::F16;
  case onnx::TensorProto::BFLOAT16: return DType::BF16;
  case onnx::TensorProto::INT8: return DType::I8;
  case onnx::TensorProto::INT32: return DType::I32;
  case onnx::TensorProto::INT64: return DType::I64;
  case onnx::TensorProto::BOOL: return DType::I1;
  default: return std::nullopt;
  }
}

static std::string onnxTypeName(int code) {
  if (onnx::TensorProto_DataType_IsValid(code))
    return onnx::TensorProto_DataType_Name(
        static_cast<onnx::TensorProto_DataType>(code));
  return "type " + std::to_string(code);
}


Error Importer::checkAttrs(Node &n, std::initializer_list<StringRef> known) {
  for (const auto &a : n.proto.attribute())
    if (!llvm::is_contained(known, StringRef(a.name())))
      return unsupported(n, "attribute '" + a.name() + "'");
  return Error::success();
}

/// "1, 2, 3" for messages.
static std::string formatInts(ArrayRef<int64_t> values) {
  return llvm::join(llvm::map_range(values, [](int64_t v) { return std::to_string(v); }),
                    ", ");
}

Error Importer::checkWindow(Node &n, ArrayRef<int64_t> strides,
                            ArrayRef<int64_t> dilations) {
  auto valid = [](ArrayRef<int64_t> v) {
    return v.size() == 2 && llvm::all_of(v, [](int64_t x) { return x >= 1; });
  };
  if (!valid(strides) || !valid(dilations))
    return fail(n, "strides and dilations must be 2 values >= 1, got strides [" +
                       formatInts(strides) + "] and dilations [" +
                       formatInts(dilations) + "]");
  return Error::success();
}

Expected<Value> Importer::in(Node &n, int i) {
  if (!n.hasInput(i))
    return fail(n, "missing input " + llvm::Twine(i));
  auto it = values.find(n.proto.input(i));
  if (it == values.end())
    return fail(n, "input '" + n.proto.input(i) +
                       "' is not produced by any earlier node, input or "
                       "initializer");
  return it->second;
}

std::optional<Tensor> Importer::constantOf(Value v) {
  auto c = v.getDefiningOp<graph::ConstantOp>();
  if (!c)
    return std::nullopt;
  FailureOr<Tensor> t = tensorFromAttr(c.getValue(), c.getLoc());
  if (failed(t))
    return std::nullopt;
  return *t;
}

Expected<Tensor> Importer::constIn(Node &n, int i, StringRef what) {
  Expected<Value> v = in(n, i);
  if (!v)
    return v.takeError();
  std::optional<Tensor> t = constantOf(*v);
  if (!t)
    return unsupported(n, what + " (input " + llvm::Twine(i) +
                              ") is not a constant; dlc needs static shapes");
  return *t;
}

Expected<SmallVector<int64_t>> Importer::constInts(Node &n, int i, StringRef what) {
  Expected<Tensor> t = constIn(n, i, what);
  if (!t)
    return t.takeError();
  SmallVector<int64_t> ints;
  for (double v : t->data)
    ints.push_back(static_cast<int64_t>(v));
  return ints;
}

Expected<SmallVector<int64_t>> Importer::intsAttrOrIn(Node &n, StringRef attr, int i) {
  if (auto a = n.getInts(attr))
    return *a;
  if (n.hasInput(i))
    return constInts(n, i, attr);
  return SmallVector<int64_t>{};
}

Value Importer::constant(const Tensor &t, StringRef name) {
  ElementsAttr attr = elementsAttrFromTensor(t, &ctx, name);
  return graph::ConstantOp::create(builder, builder.getUnknownLoc(), attr);
}

Expected<SmallVector<Value>>
Importer::makeOp(Node &n, StringRef name, ValueRange operands,
                 ArrayRef<NamedAttribute> attrs, TypeRange resultTypes,
                 unsigned numResults) {
  diagnostics.clear();
  FailureOr<Operation *> created = graph::createGraphOp(
      builder, n.loc, name, operands, attrs, resultTypes, numResults);
  if (failed(created))
    return fail(n, diagnostics.empty() ? "cannot create " + name : diagnostics);
  Operation *op = *created;
  auto discard = [&](const llvm::Twine &why) {
    op->erase();
    return fail(n, why);
  };
  // Fold ops on small constants right away.
  bool allConstant = llvm::all_of(op->getOperands(), [](Value v) {
    return v.getDefiningOp<graph::ConstantOp>();
  });
  int64_t resultElements = 0;
  for (Type t : op->getResultTypes())
    resultElements += cast<RankedTensorType>(t).getNumElements();
  SmallVector<Value> results(op->getResults());
  // Quantization stays visible (FakeQuantizationToInteger reads it).
  bool quantization = isa<graph::QuantizeOp, graph::DequantizeOp>(op);
  if (allConstant && resultElements <= kFoldLimit && op->getNumOperands() && !quantization) {
    std::vector<Tensor> ins;
    for (Value v : op->getOperands())
      ins.push_back(*constantOf(v));
    FailureOr<std::vector<Tensor>> outs = evaluateOp(op, ins);
    if (failed(outs))
      return discard(diagnostics);
    for (auto [i, t] : llvm::enumerate(*outs))
      results[i] = constant(t, "folded");
    op->erase();
  }
  return results;
}

Expected<Tensor> Importer::tensorFromProto(const onnx::TensorProto &proto,
                                           StringRef what, bool *uint8) {
  bool isUint8 = proto.data_type() == onnx::TensorProto::UINT8;
  if (isUint8 && uint8)
    *uint8 = true;
  if (!dtypeFromOnnx(proto.data_type()) && !(isUint8 && uint8))
    return makeError(path + ": " + what + ": unsupported: data type " +
                         onnxTypeName(proto.data_type()),
                     true);
  std::string bytes;
  proto.SerializeToString(&bytes);
  Expected<Tensor> t = parseTensorProto(bytes);
  if (!t)
    return makeError(path + ": " + what + ": " + llvm::toString(t.takeError()),
                     false);
  return isUint8 ? shiftedUint8(*t) : std::move(*t);
}

//===----------------------------------------------------------------------===//
// Converters
//===----------------------------------------------------------------------===//

Error Importer::convertDropout(Node &n) {
  if (Error e = checkAttrs(n, {"ratio", "seed", "is_test"}))
    return e;
  if (n.hasOutput(1))
    return unsupported(n, "the mask output of Dropout");
  if (n.hasInput(2)) {
    Expected<Tensor> training = constIn(n, 2, "training_mode");
    if (!training)
      return training.takeError();
    if (training->size() != 1 || training->data[0] != 0)
      return unsupported(n, "training-mode Dropout");
  }
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  double rate = 0.5;
  if (n.attr("ratio"))
    rate = n.getFloat("ratio", 0.5f);
  if (n.hasInput(1)) {
    Expected<Tensor> r = constIn(n, 1, "ratio");
    if (!r)
      return r.takeError();
    rate = r->data.at(0);
  }
  // Kept as graph.dropout (the identity at inference) for SimplifyInference.
  return result(n, make(n, graph::DropoutOp::getOperationName(), *x, {f64("rate", rate)}));
}

/// Explicit pads for auto_pad = SAME_UPPER / SAME_LOWER / VALID.
static void autoPad(StringRef mode, ArrayRef<int64_t> in, ArrayRef<int64_t> k,
                    ArrayRef<int64_t> s, ArrayRef<int64_t> d,
                    SmallVectorImpl<int64_t> &pads) {
  pads.assign(4, 0);
  if (mode == "VALID")
    return;
  for (int i = 0; i < 2; ++i) {
    int64_t out = (in[i] + s[i] - 1) / s[i];
    int64_t total =
        std::max<int64_t>(0, (out - 1) * s[i] + (k[i] - 1) * d[i] + 1 - in[i]);
    int64_t small = total / 2, large = total - small;
    pads[i] = mode == "SAME_UPPER" ? small : large;
    pads[i + 2] = mode == "SAME_UPPER" ? large : small;
  }
}

Error Importer::convertConv(Node &n) {
  if (Error e = checkAttrs(n, {"auto_pad", "dilations", "group", "kernel_shape",
                               "pads", "strides"}))
    return e;
  Expected<Value> x = in(n, 0), w = in(n, 1);
  if (!x)
    return x.takeError();
  if (!w)
    return w.takeError();
  Value bias;
  if (n.hasInput(2)) {
    Expected<Value> b = in(n, 2);
    if (!b)
      return b.takeError();
    bias = *b;
  }
  return result(n, conv(n, *x, *w, bias));
}

Expected<Value> Importer::conv(Node &n, Value x, Value w, Value bias) {
  if (typeOf(x).getRank() != 4)
    return unsupported(n, n.proto.op_type() + " on a rank-" +
                              llvm::Twine(typeOf(x).getRank()) +
                              " input (only 2-D convolutions)");
  SmallVector<int64_t> strides = n.getInts("strides").value_or(
      SmallVector<int64_t>{1, 1});
  SmallVector<int64_t> dil = n.getInts("dilations").value_or(
      SmallVector<int64_t>{1, 1});
  SmallVector<int64_t> pads = n.getInts("pads").value_or(
      SmallVector<int64_t>{0, 0, 0, 0});
  if (Error e = checkWindow(n, strides, dil))
    return std::move(e);
  std::string mode = n.getString("auto_pad", "NOTSET");
  ArrayRef<int64_t> ws = typeOf(w).getShape();
  if (mode != "NOTSET") {
    if (mode != "SAME_UPPER" && mode != "SAME_LOWER" && mode != "VALID")
      return fail(n, "bad auto_pad '" + mode + "'");
    if (ws.size() != 4)
      return fail(n, "the kernel must be 2-D");
    autoPad(mode, typeOf(x).getShape().drop_front(2), ws.drop_front(2),
            strides, dil, pads);
  }
  if (auto ks = n.getInts("kernel_shape"))
    if (ws.size() == 4 && ArrayRef<int64_t>(*ks) != ws.drop_front(2))
      return fail(n, "kernel_shape does not match the weight's shape");
  SmallVector<Value> operands{x, w};
  if (bias)
    operands.push_back(bias);
  return make(n, graph::Conv2DOp::getOperationName(), operands,
              {ints("strides", strides), ints("padding", pads),
               ints("dilations", dil), i64("groups", n.getInt("group", 1))});
}

//===----------------------------------------------------------------------===//
// Quantization: QuantizeLinear and DequantizeLinear become graph ops;
// QLinearConv and QLinearMatMul their QDQ form (dequantize, the float op,
// quantize), which FakeQuantizationToInteger turns into integer ops;
// ConvInteger and MatMulInteger integer ops on zero-point-centered i32.
//===----------------------------------------------------------------------===//

/// "i16", "f32", ... for messages.
static std::string elementTypeName(Value v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << cast<RankedTensorType>(v.getType()).getElementType();
  return s;
}

/// A constant shaped like `like` holding `v` in `dtype`.
static Tensor filledLike(RankedTensorType like, DType dtype, double v) {
  Tensor t(dtype, like.getShape());
  std::fill(t.data.begin(), t.data.end(), v);
  return t;
}

Expected<Value> Importer::dequantized(Node &n, int i, int64_t axis) {
  Expected<Value> x = in(n, i), scale = in(n, i + 1);
  if (!x)
    return x.takeError();
  if (!scale)
    return scale.takeError();
  Type et = typeOf(*x).getElementType();
  if (!et.isInteger(8) && !et.isInteger(32))
    return unsupported(n, "dequantizing " + elementTypeName(*x));
  Value zero;
  if (n.hasInput(i + 2)) {
    Expected<Value> z = in(n, i + 2);
    if (!z)
      return z.takeError();
    if (typeOf(*z).getElementType() != et || isUint8(n, i) != isUint8(n, i + 2))
      return fail(n, "the zero point's type differs from the quantized input's");
    zero = *z;
  } else {
    // 0 of the input's type; a uint8 0 is held as -128.
    zero = constant(filledLike(typeOf(*scale), *dtypeOf(et), isUint8(n, i) ? -128 : 0),
                    "zero_point");
  }
  auto type = typeOf(*x).clone(typeOf(*scale).getElementType());
  return make(n, graph::DequantizeOp::getOperationName(), {*x, *scale, zero},
              {i64("axis", axis)}, type);
}

Expected<Value> Importer::quantized(Node &n, Value x, int i, int64_t axis,
                                    StringRef output) {
  Expected<Value> scale = in(n, i);
  if (!scale)
    return scale.takeError();
  Value zero;
  if (n.hasInput(i + 1)) {
    Expected<Value> z = in(n, i + 1);
    if (!z)
      return z.takeError();
    Type zt = typeOf(*z).getElementType();
    if (!zt.isInteger(8) && !zt.isInteger(32))
      return unsupported(n, "quantizing to " + elementTypeName(*z));
    zero = *z;
    if (isUint8(n, i + 1))
      uint8Values.insert(output.str());
  } else {
    // No zero point: uint8 with zero point 0, held as -128.
    zero = constant(filledLike(typeOf(*scale), DType::I8, -128), "zero_point");
    uint8Values.insert(output.str());
  }
  auto type = typeOf(x).clone(typeOf(zero).getElementType());
  return make(n, graph::QuantizeOp::getOperationName(), {x, *scale, zero},
              {i64("axis", axis)}, type);
}

Error Importer::convertQuantizeLinear(Node &n) {
  if (Error e = checkAttrs(n, {"axis", "saturate", "block_size"}))
    return e;
  if (n.getInt("block_size", 0) != 0)
    return unsupported(n, "blocked quantization (block_size)");
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  return result(n, quantized(n, *x, 1, n.getInt("axis", 1), n.proto.output(0)));
}

Error Importer::convertDequantizeLinear(Node &n) {
  if (Error e = checkAttrs(n, {"axis", "block_size"}))
    return e;
  if (n.getInt("block_size", 0) != 0)
    return unsupported(n, "blocked quantization (block_size)");
  return result(n, dequantized(n, 0, n.getInt("axis", 1)));
}

Error Importer::convertQLinearConv(Node &n) {
  if (Error e = checkAttrs(n, {"auto_pad", "dilations", "group", "kernel_shape",
                               "pads", "strides"}))
    return e;
  Expected<Value> x = dequantized(n, 0, 1);
  if (!x)
    return x.takeError();
  Expected<Value> w = dequantized(n, 3, 0); // per output channel
  if (!w)
    return w.takeError();
  Value bias;
  if (n.hasInput(8)) {
    // An i32 bias at scale x_scale * w_scale, zero point 0.
    Expected<Value> b = in(n, 8), xs = in(n, 1), ws = in(n, 4);
    if (!b)
      return b.takeError();
    if (!xs || !ws)
      return fail(n, "missing scale");
    std::optional<Tensor> xsv = constantOf(*xs), wsv = constantOf(*ws);
    if (!xsv || !wsv || xsv->size() != 1)
      return unsupported(n, "a bias with scales that are not constants");
    Tensor bs(DType::F32, {wsv->size()});
    for (int64_t o = 0; o < wsv->size(); ++o)
      bs.data[o] = roundToDType(DType::F32, xsv->data[0] * wsv->data[o]);
    Tensor bz(DType::I32, {wsv->size()});
    Expected<Value> bd = make(n, graph::DequantizeOp::getOperationName(),
                              {*b, constant(bs, "bias_scale"), constant(bz, "bias_zero")},
                              {i64("axis", 0)}, typeOf(*b).clone(builder.getF32Type()));
    if (!bd)
      return bd.takeError();
    bias = *bd;
  }
  Expected<Value> y = conv(n, *x, *w, bias);
  if (!y)
    return y.takeError();
  return result(n, quantized(n, *y, 6, 1, n.proto.output(0)));
}

Error Importer::convertQLinearMatMul(Node &n) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> a = dequantized(n, 0, 1);
  if (!a)
    return a.takeError();
  Expected<Value> b0 = in(n, 3);
  if (!b0)
    return b0.takeError();
  // b may be quantized per column (its last axis).
  Expected<Value> b = dequantized(n, 3, typeOf(*b0).getRank() - 1);
  if (!b)
    return b.takeError();
  Expected<Value> y = make(n, graph::MatmulOp::getOperationName(), {*a, *b});
  if (!y)
    return y.takeError();
  return result(n, quantized(n, *y, 6, 1, n.proto.output(0)));
}

Expected<Value> Importer::centeredI32(Node &n, int i, int zi, int64_t axis) {
  Expected<Value> v = in(n, i);
  if (!v)
    return v.takeError();
  auto i32 = builder.getI32Type();
  Expected<Value> wide = castTo(n, *v, i32);
  if (!wide)
    return wide.takeError();
  Value zero;
  if (n.hasInput(zi)) {
    Expected<Value> z = in(n, zi);
    if (!z)
      return z.takeError();
    if (isUint8(n, zi) != isUint8(n, i))
      return fail(n, "the zero point's type differs from the input's");
    Expected<Value> zw = castTo(n, *z, i32);
    if (!zw)
      return zw.takeError();
    zero = *zw;
    // One zero point per index of `axis`: [C, 1, ..., 1] to broadcast.
    RankedTensorType zt = typeOf(zero);
    if (zt.getNumElements() > 1) {
      SmallVector<int64_t> shape{zt.getNumElements()};
      shape.append(typeOf(*v).getRank() - axis - 1, 1);
      Expected<Value> r = make(n, graph::ReshapeOp::getOperationName(), zero, {},
                               RankedTensorType::get(shape, i32));
      if (!r)
        return r.takeError();
      zero = *r;
    }
  } else if (isUint8(n, i)) {
    zero = scalar(DType::I32, -128); // a uint8 0, held shifted
  } else {
    return *wide;
  }
  return make(n, graph::SubOp::getOperationName(), {*wide, zero});
}

Error Importer::convertConvInteger(Node &n) {
  if (Error e = checkAttrs(n, {"auto_pad", "dilations", "group", "kernel_shape",
                               "pads", "strides"}))
    return e;
  Expected<Value> x = centeredI32(n, 0, 2, 1);
  if (!x)
    return x.takeError();
  Expected<Value> w = centeredI32(n, 1, 3, 0);
  if (!w)
    return w.takeError();
  return result(n, conv(n, *x, *w, {}));
}

Error Importer::convertMatMulInteger(Node &n) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> a0 = in(n, 0), b0 = in(n, 1);
  if (!a0)
    return a0.takeError();
  if (!b0)
    return b0.takeError();
  // a's zero point may be per row, b's per column.
  Expected<Value> a = centeredI32(n, 0, 2, typeOf(*a0).getRank() - 2);
  if (!a)
    return a.takeError();
  Expected<Value> b = centeredI32(n, 1, 3, typeOf(*b0).getRank() - 1);
  if (!b)
    return b.takeError();
  return result(n, make(n, graph::MatmulOp::getOperationName(), {*a, *b}));
}

Error Importer::convertBatchNorm(Node &n) {
  if (Error e = checkAttrs(n, {"epsilon", "momentum", "training_mode",
                               "spatial", "is_test"}))
    return e;
  if (n.getInt("training_mode", 0) != 0 || n.hasOutput(1))
    return unsupported(n, "training-mode BatchNormalization");
  if (n.getInt("spatial", 1) != 1)
    return unsupported(n, "spatial = 0");
  SmallVector<Value> operands;
  for (int i = 0; i < 5; ++i) {
    Expected<Value> v = in(n, i);
    if (!v)
      return v.takeError();
    operands.push_back(*v);
  }
  return result(n, make(n, graph::BatchNormOp::getOperationName(), operands,
                           {f64("epsilon", n.getFloat("epsilon", 1e-5f))}));
}

Error Importer::convertMatMul(Node &n) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> a = in(n, 0), b = in(n, 1);
  if (!a)
    return a.takeError();
  if (!b)
    return b.takeError();
  return result(n, make(n, graph::MatmulOp::getOperationName(), {*a, *b}));
}

Error Importer::convertGemm(Node &n) {
  if (Error e = checkAttrs(n, {"alpha", "beta", "transA", "transB"}))
    return e;
  Expected<Value> a = in(n, 0), b = in(n, 1);
  if (!a)
    return a.takeError();
  if (!b)
    return b.takeError();
  if (typeOf(*a).getRank() != 2 || typeOf(*b).getRank() != 2)
    return fail(n, "Gemm operands must be matrices");
  Value lhs = *a, weight = *b;
  if (n.getInt("transA", 0)) {
    Expected<Value> t = make(n, graph::TransposeOp::getOperationName(), lhs, {ints("perm", {1, 0})});
    if (!t)
      return t.takeError();
    lhs = *t;
  }
  // graph.dense takes the weight as [out, in], i.e. B transposed.
  if (!n.getInt("transB", 0)) {
    Expected<Value> t = make(n, graph::TransposeOp::getOperationName(), weight, {ints("perm", {1, 0})});
    if (!t)
      return t.takeError();
    weight = *t;
  }
  float alpha = n.getFloat("alpha", 1.0f), beta = n.getFloat("beta", 1.0f);
  // A 1-D C with beta 1 and alpha 1 is the dense layer's own bias.
  int64_t outFeatures = typeOf(weight).getDimSize(0);
  if (n.hasInput(2) && alpha == 1.0f && beta == 1.0f) {
    Expected<Value> c = in(n, 2);
    if (!c)
      return c.takeError();
    if (typeOf(*c).getShape() == ArrayRef<int64_t>{outFeatures}) {
      Expected<Value> y = make(n, graph::DenseOp::getOperationName(), {lhs, weight, *c});
      if (!y)
        return y.takeError();
      define(n, 0, *y);
      return Error::success();
    }
  }
  Expected<Value> y = make(n, graph::DenseOp::getOperationName(), {lhs, weight});
  if (!y)
    return y.takeError();
  DType dt = *dtypeOf(typeOf(*y).getElementType());
  if (alpha != 1.0f) {
    y = make(n, graph::MulOp::getOperationName(), {*y, scalar(dt, alpha)});
    if (!y)
      return y.takeError();
  }
  if (n.hasInput(2) && beta != 0.0f) {
    Expected<Value> c = in(n, 2);
    if (!c)
      return c.takeError();
    Value bias = *c;
    if (beta != 1.0f) {
      Expected<Value> scaled = make(n, graph::MulOp::getOperationName(), {bias, scalar(dt, beta)});
      if (!scaled)
        return scaled.takeError();
      bias = *scaled;
    }
    y = make(n, graph::AddOp::getOperationName(), {*y, bias});
    if (!y)
      return y.takeError();
  }
  define(n, 0, *y);
  return Error::success();
}

Error Importer::convertPool(Node &n, bool isMax) {
  if (Error e = checkAttrs(n, {"auto_pad", "ceil_mode", "count_include_pad",
                               "dilations", "kernel_shape", "pads", "strides",
                               "storage_order"}))
    return e;
  if (n.hasOutput(1))
    return unsupported(n, "the Indices output of MaxPool");
  if (n.getInt("storage_order", 0) != 0)
    return unsupported(n, "storage_order = 1");
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  std::optional<SmallVector<int64_t>> k = n.getInts("kernel_shape");
  if (!k)
    return fail(n, "missing attribute kernel_shape");
  if (typeOf(*x).getRank() != 4 || k->size() != 2)
    return unsupported(n, "pooling that is not 2-D");
  SmallVector<int64_t> strides = n.getInts("strides").value_or(
      SmallVector<int64_t>{1, 1});
  SmallVector<int64_t> dil = n.getInts("dilations").value_or(
      SmallVector<int64_t>{1, 1});
  SmallVector<int64_t> pads = n.getInts("pads").value_or(
      SmallVector<int64_t>{0, 0, 0, 0});
  if (Error e = checkWindow(n, strides, dil))
    return e;
  std::string mode = n.getString("auto_pad", "NOTSET");
  if (mode != "NOTSET") {
    if (mode != "SAME_UPPER" && mode != "SAME_LOWER" && mode != "VALID")
      return fail(n, "bad auto_pad '" + mode + "'");
    autoPad(mode, typeOf(*x).getShape().drop_front(2), *k, strides, dil, pads);
  }
  SmallVector<NamedAttribute> attrs{
      ints("kernel_size", *k), ints("strides", strides), ints("padding", pads),
      ints("dilations", dil),
      named("ceil_mode", builder.getBoolAttr(n.getInt("ceil_mode", 0)))};
  if (!isMax)
    attrs.push_back(named("count_include_pad",
                          builder.getBoolAttr(n.getInt("count_include_pad", 0))));
  Expected<Value> y =
      make(n, isMax ? graph::MaxPool2DOp::getOperationName() : graph::AvgPool2DOp::getOperationName(), *x, attrs);
  if (!y)
    return y.takeError();
  define(n, 0, *y);
  return Error::success();
}

Error Importer::convertGlobalPool(Node &n, bool isMax) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  if (typeOf(*x).getRank() != 4)
    return unsupported(n, "global pooling that is not 2-D");
  Expected<Value> y =
      isMax ? make(n, graph::ReduceMaxOp::getOperationName(), *x,
                   {ints("axes", {2, 3}), named("keepdims", builder.getBoolAttr(true))})
            : make(n, graph::GlobalAvgPool2DOp::getOperationName(), *x);
  if (!y)
    return y.takeError();
  define(n, 0, *y);
  return Error::success();
}

Error Importer::convertFlatten(Node &n) {
  if (Error e = checkAttrs(n, {"axis"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  ArrayRef<int64_t> s = typeOf(*x).getShape();
  std::optional<int64_t> axis =
      n.getInt("axis", 1) == static_cast<int64_t>(s.size())
          ? std::optional<int64_t>(s.size())
          : normalizeAxis(n.getInt("axis", 1), s.size());
  if (!axis)
    return fail(n, "axis out of range");
  return result(n, reshape(n, *x, {numElements(s.take_front(*axis)),
                                      numElements(s.drop_front(*axis))}));
}

Error Importer::convertReshape(Node &n) {
  if (Error e = checkAttrs(n, {"allowzero", "shape"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  std::optional<SmallVector<int64_t>> attr = n.getInts("shape"); // opset < 5
  Expected<SmallVector<int64_t>> targetOrErr =
      attr ? *attr : constInts(n, 1, "the target shape");
  if (!targetOrErr)
    return targetOrErr.takeError();
  SmallVector<int64_t> target = std::move(*targetOrErr);
  ArrayRef<int64_t> in = typeOf(*x).getShape();
  bool allowZero = n.getInt("allowzero", 0);
  int64_t inferAt = -1, known = 1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == 0 && !allowZero) {
      if (i >= in.size())
        return fail(n, "shape entry 0 at " + llvm::Twine(i) +
                           " has no input dimension to copy");
      target[i] = in[i];
    }
    if (target[i] == -1) {
      if (inferAt >= 0)
        return fail(n, "more than one -1 in the target shape");
      inferAt = i;
    } else if (target[i] < 0) {
      return fail(n, "negative size in the target shape");
    } else {
      known *= target[i];
    }
  }
  if (inferAt >= 0) {
    if (known == 0 || numElements(in) % known)
      return fail(n, "cannot infer the -1 of the target shape");
    target[inferAt] = numElements(in) / known;
  }
  return result(n, reshape(n, *x, target));
}

Error Importer::convertExpand(Node &n) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  Expected<SmallVector<int64_t>> shape = constInts(n, 1, "shape");
  if (!shape)
    return shape.takeError();
  RankedTensorType xt = typeOf(*x);
  std::optional<Shape> out = broadcastShapes(xt.getShape(), *shape);
  if (!out)
    return fail(n, "shape [" + formatInts(*shape) + "] does not broadcast with the input's [" +
                       formatInts(xt.getShape()) + "]");
  // x broadcast to the shape: a select with an all-true condition of that
  // shape (exact for every type, unlike x + 0 for -0.0).
  Tensor all(DType::I1, *out);
  std::fill(all.data.begin(), all.data.end(), 1.0);
  return result(n, make(n, graph::SelectOp::getOperationName(),
                        {constant(all, "expand"), *x, *x}));
}

Error Importer::convertTranspose(Node &n) {
  if (Error e = checkAttrs(n, {"perm"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  int64_t rank = typeOf(*x).getRank();
  SmallVector<int64_t> perm;
  for (int64_t i = rank - 1; i >= 0; --i)
    perm.push_back(i);
  if (auto p = n.getInts("perm"))
    perm = *p;
  return result(n, make(n, graph::TransposeOp::getOperationName(), *x, {ints("perm", perm)}));
}

Error Importer::convertConcat(Node &n) {
  if (Error e = checkAttrs(n, {"axis"}))
    return e;
  if (!n.attr("axis"))
    return fail(n, "missing attribute axis");
  SmallVector<Value> inputs;
  for (int i = 0; i < n.proto.input_size(); ++i) {
    Expected<Value> v = in(n, i);
    if (!v)
      return v.takeError();
    inputs.push_back(*v);
  }
  Expected<Value> y =
      make(n, graph::ConcatOp::getOperationName(), inputs, {i64("axis", n.getInt("axis", 0))});
  if (!y)
    return y.takeError();
  define(n, 0, *y);
  return Error::success();
}

Error Importer::convertSplit(Node &n) {
  if (Error e = checkAttrs(n, {"axis", "split", "num_outputs"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  RankedTensorType type = typeOf(*x);
  std::optional<int64_t> axis = normalizeAxis(n.getInt("axis", 0), type.getRank());
  if (!axis)
    return fail(n, "axis out of range");
  int64_t dim = type.getDimSize(*axis), outputs = n.proto.output_size();
  SmallVector<int64_t> sizes;
  if (auto s = n.getInts("split")) {
    sizes = *s;
  } else if (n.hasInput(1)) {
    Expected<SmallVector<int64_t>> s = constInts(n, 1, "split");
    if (!s)
      return s.takeError();
    sizes = std::move(*s);
  } else {
    // Equal parts; with num_outputs (opset 18) the last may be smaller.
    int64_t part = (dim + outputs - 1) / outputs;
    for (int64_t i = 0; i < outputs; ++i)
      sizes.push_back(std::min(part, dim - i * part));
  }
  if (static_cast<int64_t>(sizes.size()) != outputs)
    return fail(n, "split has " + llvm::Twine(sizes.size()) + " sizes for " +
                       llvm::Twine(outputs) + " outputs");
  if (llvm::any_of(sizes, [](int64_t s) { return s < 0; }))
    return fail(n, "split sizes [" + formatInts(sizes) + "] include a negative size");
  SmallVector<Type> types;
  for (int64_t s : sizes) {
    SmallVector<int64_t> shape(type.getShape());
    shape[*axis] = s;
    types.push_back(RankedTensorType::get(shape, type.getElementType()));
  }
  Expected<SmallVector<Value>> ys =
      makeOp(n, graph::SplitOp::getOperationName(), *x, {i64("axis", *axis)}, types);
  if (!ys)
    return ys.takeError();
  for (int64_t i = 0; i < outputs; ++i)
    define(n, i, (*ys)[i]);
  return Error::success();
}

Error Importer::convertSlice(Node &n) {
  if (Error e = checkAttrs(n, {"starts", "ends", "axes"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  ArrayRef<int64_t> shape = typeOf(*x).getShape();
  int64_t rank = shape.size();
  SmallVector<int64_t> starts, ends, axes, steps;
  auto readInts = [&](int i, StringRef what,
                      SmallVectorImpl<int64_t> &out) -> Error {
    Expected<SmallVector<int64_t>> ints = constInts(n, i, what);
    if (!ints)
      return ints.takeError();
    out.assign(ints->begin(), ints->end());
    return Error::success();
  };
  if (n.opset < 10) {
    starts = n.getInts("starts").value_or(SmallVector<int64_t>{});
    ends = n.getInts("ends").value_or(SmallVector<int64_t>{});
    if (auto a = n.getInts("axes"))
      axes = *a;
  } else {
    if (Error e = readInts(1, "starts", starts))
      return e;
    if (Error e = readInts(2, "ends", ends))
      return e;
    if (n.hasInput(3))
      if (Error e = readInts(3, "axes", axes))
        return e;
    if (n.hasInput(4))
      if (Error e = readInts(4, "steps", steps))
        return e;
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return fail(n, "starts, ends, axes and steps differ in length");
  // Per dimension, normalized as graph.slice wants (ONNX clamping rules).
  SmallVector<int64_t> b(rank, 0), e(shape), s(rank, 1);
  for (size_t i = 0; i < axes.size(); ++i) {
    std::optional<int64_t> a = normalizeAxis(axes[i], rank);
    if (!a)
      return fail(n, "axis " + llvm::Twine(axes[i]) + " out of range");
    int64_t dim = shape[*a], step = steps[i];
    if (step == 0)
      return fail(n, "step 0");
    int64_t st = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t en = ends[i] < 0 ? ends[i] + dim : ends[i];
    if (ends[i] <= -std::numeric_limits<int32_t>::max())
      en = -1; // "to the beginning" for negative steps
    if (step > 0) {
      st = std::clamp<int64_t>(st, 0, dim);
      en = std::clamp<int64_t>(en, 0, dim);
      en = std::max(en, st);
    } else {
      st = std::clamp<int64_t>(st, 0, dim - 1);
      en = std::clamp<int64_t>(en, -1, dim - 1);
      en = std::min(en, st);
    }
    b[*a] = st;
    e[*a] = en;
    s[*a] = step;
  }
  return result(n, make(n, graph::SliceOp::getOperationName(), *x,
                           {ints("starts", b), ints("ends", e), ints("steps", s)}));
}

Error Importer::convertSqueeze(Node &n, bool unsqueeze) {
  if (Error e = checkAttrs(n, {"axes"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  if (unsqueeze && !n.getInts("axes") && !n.hasInput(1))
    return fail(n, "Unsqueeze needs axes");
  Expected<SmallVector<int64_t>> axes = intsAttrOrIn(n, "axes", 1);
  if (!axes)
    return axes.takeError();
  return result(n, make(n, unsqueeze ? graph::ExpandDimsOp::getOperationName() : graph::SqueezeOp::getOperationName(),
                           *x, {ints("axes", *axes)}));
}

Error Importer::convertPad(Node &n) {
  if (Error e = checkAttrs(n, {"mode", "pads", "value"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  int64_t rank = typeOf(*x).getRank();
  SmallVector<int64_t> pads;
  double value = n.getFloat("value", 0.0f);
  if (auto p = n.getInts("pads")) {
    pads = *p;
  } else {
    Expected<SmallVector<int64_t>> given = constInts(n, 1, "pads");
    if (!given)
      return given.takeError();
    pads = std::move(*given);
    if (n.hasInput(2)) {
      Expected<Tensor> c = constIn(n, 2, "constant_value");
      if (!c)
        return c.takeError();
      if (c->size() != 1)
        return fail(n, "constant_value must be a scalar");
      value = c->data[0];
    }
  }
  SmallVector<int64_t> axes;
  if (n.hasInput(3)) {
    Expected<SmallVector<int64_t>> a = constInts(n, 3, "axes");
    if (!a)
      return a.takeError();
    for (int64_t v : *a) {
      std::optional<int64_t> ax = normalizeAxis(v, rank);
      if (!ax)
        return fail(n, "axis out of range");
      axes.push_back(*ax);
    }
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  }
  if (pads.size() != 2 * axes.size())
    return fail(n, "pads has " + llvm::Twine(pads.size()) + " values, expected " +
                       llvm::Twine(2 * axes.size()));
  SmallVector<int64_t> before(rank, 0), after(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    before[axes[i]] = pads[i];
    after[axes[i]] = pads[i + axes.size()];
  }
  if (llvm::any_of(pads, [](int64_t p) { return p < 0; }))
    return unsupported(n, "negative pads (cropping)");
  std::string mode = n.getString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return unsupported(n, "mode '" + mode + "'");
  return result(n, make(n, graph::PadOp::getOperationName(), *x,
                           {ints("pad_before", before), ints("pad_after", after),
                            str("mode", mode), f64("value", value)}));
}

Error Importer::convertGather(Node &n) {
  if (Error e = checkAttrs(n, {"axis"}))
    return e;
  Expected<Value> d = in(n, 0), i = in(n, 1);
  if (!d)
    return d.takeError();
  if (!i)
    return i.takeError();
  Expected<Value> y =
      make(n, graph::GatherOp::getOperationName(), {*d, *i}, {i64("axis", n.getInt("axis", 0))});
  if (!y)
    return y.takeError();
  define(n, 0, *y);
  return Error::success();
}

Error Importer::convertCast(Node &n) {
  if (Error e = checkAttrs(n, {"to", "saturate"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  int to = n.getInt("to", 0);
  std::optional<DType> dt = dtypeFromOnnx(to);
  if (!dt)
    return unsupported(n, "cast to " + onnxTypeName(to));
  return result(n, castTo(n, *x, mlirElementType(*dt, &ctx)));
}

Error Importer::convertShape(Node &n) {
  if (Error e = checkAttrs(n, {"start", "end"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  ArrayRef<int64_t> shape = typeOf(*x).getShape();
  int64_t rank = shape.size();
  auto clampIndex = [&](int64_t i) {
    return std::clamp<int64_t>(i < 0 ? i + rank : i, 0, rank);
  };
  int64_t start = clampIndex(n.getInt("start", 0));
  int64_t end = clampIndex(n.getInt("end", rank));
  Tensor t(DType::I64, {std::max<int64_t>(end - start, 0)});
  for (int64_t i = start; i < end; ++i)
    t.data[i - start] = shape[i];
  define(n, 0, constant(t, "shape"));
  return Error::success();
}

Error Importer::convertConstantOfShape(Node &n) {
  if (Error e = checkAttrs(n, {"value"}))
    return e;
  Expected<Tensor> s = constIn(n, 0, "the shape");
  if (!s)
    return s.takeError();
  Tensor fill(DType::F32, {1});
  if (const auto *a = n.attr("value")) {
    Expected<Tensor> v = tensorFromProto(a->t(), n.label);
    if (!v)
      return v.takeError();
    if (v->size() != 1)
      return fail(n, "value must have one element");
    fill = *v;
  }
  SmallVector<int64_t> shape;
  for (double d : s->data)
    shape.push_back(static_cast<int64_t>(d));
  if (!checkedNumElements(shape))
    return fail(n, "shape [" + formatInts(shape) +
                       "] has a negative dimension or more than 2^48 elements");
  // A splat: its size costs nothing until something computes with it.
  auto type = RankedTensorType::get(shape, mlirElementType(fill.dtype, &ctx));
  Tensor one(fill.dtype, {});
  one.data[0] = fill.data[0];
  auto value = cast<DenseElementsAttr>(elementsAttrFromTensor(one, &ctx, "fill"));
  define(n, 0, graph::ConstantOp::create(builder, n.loc, value.resizeSplat(type)));
  return Error::success();
}

Error Importer::convertConstant(Node &n) {
  if (n.proto.attribute_size() != 1)
    return fail(n, "Constant needs exactly one value attribute");
  const onnx::AttributeProto &a = n.proto.attribute(0);
  Tensor t;
  if (a.name() == "value") {
    bool uint8 = false;
    Expected<Tensor> v = tensorFromProto(a.t(), n.label, &uint8);
    if (!v)
      return v.takeError();
    t = std::move(*v);
    if (uint8)
      uint8Values.insert(n.proto.output(0));
  } else if (a.name() == "value_float") {
    t = Tensor(DType::F32, {});
    t.data[0] = a.f();
  } else if (a.name() == "value_int") {
    t = Tensor(DType::I64, {});
    t.data[0] = static_cast<double>(a.i());
  } else if (a.name() == "value_floats") {
    t = Tensor(DType::F32, {a.floats_size()});
    for (int i = 0; i < a.floats_size(); ++i)
      t.data[i] = a.floats(i);
  } else if (a.name() == "value_ints") {
    t = Tensor(DType::I64, {a.ints_size()});
    for (int i = 0; i < a.ints_size(); ++i)
      t.data[i] = static_cast<double>(a.ints(i));
  } else {
    return unsupported(n, "attribute '" + a.name() + "'");
  }
  define(n, 0, constant(t, n.proto.output(0)));
  return Error::success();
}

Error Importer::convertLayerNorm(Node &n) {
  if (Error e = checkAttrs(n, {"axis", "epsilon", "stash_type"}))
    return e;
  if (n.hasOutput(1) || n.hasOutput(2))
    return unsupported(n, "the Mean and InvStdDev outputs");
  Expected<Value> x = in(n, 0), scale = in(n, 1);
  if (!x)
    return x.takeError();
  if (!scale)
    return scale.takeError();
  Value bias;
  if (n.hasInput(2)) {
    Expected<Value> b = in(n, 2);
    if (!b)
      return b.takeError();
    bias = *b;
  } else {
    RankedTensorType st = typeOf(*scale);
    bias = constant(Tensor(*dtypeOf(st.getElementType()), st.getShape()), "zero");
  }
  Expected<Value> y =
      make(n, graph::LayerNormOp::getOperationName(), {*x, *scale, bias},
           {i64("axis", n.getInt("axis", -1)),
            f64("epsilon", n.getFloat("epsilon", 1e-5f))});
  if (!y)
    return y.takeError();
  define(n, 0, *y);
  return Error::success();
}

const Importer::ConverterTable &Importer::converters() {
  static const ConverterTable table = [] {
    ConverterTable t;
    registerElementwise(t);
    registerReductions(t);
    t["Identity"] = [](Importer &im, Node &n) -> Error {
      Expected<Value> x = im.in(n, 0);
      if (!x)
        return x.takeError();
      im.define(n, 0, *x);
      return Error::success();
    };
    t["Dropout"] = &Importer::convertDropout;
    t["Conv"] = &Importer::convertConv;
    t["BatchNormalization"] = &Importer::convertBatchNorm;
    t["Gemm"] = &Importer::convertGemm;
    t["MatMul"] = &Importer::convertMatMul;
    t["MaxPool"] = [](Importer &im, Node &n) { return im.convertPool(n, true); };
    t["AveragePool"] = [](Importer &im, Node &n) { return im.convertPool(n, false); };
    t["GlobalAveragePool"] = [](Importer &im, Node &n) { return im.convertGlobalPool(n, false); };
    t["GlobalMaxPool"] = [](Importer &im, Node &n) { return im.convertGlobalPool(n, true); };
    t["Flatten"] = &Importer::convertFlatten;
    t["Reshape"] = &Importer::convertReshape;
    t["Transpose"] = &Importer::convertTranspose;
    t["Expand"] = &Importer::convertExpand;
    t["Concat"] = &Importer::convertConcat;
    t["Split"] = &Importer::convertSplit;
    t["Slice"] = &Importer::convertSlice;
    t["Squeeze"] = [](Importer &im, Node &n) { return im.convertSqueeze(n, false); };
    t["Unsqueeze"] = [](Importer &im, Node &n) { return im.convertSqueeze(n, true); };
    t["Pad"] = &Importer::convertPad;
    t["QuantizeLinear"] = &Importer::convertQuantizeLinear;
    t["DequantizeLinear"] = &Importer::convertDequantizeLinear;
    t["QLinearConv"] = &Importer::convertQLinearConv;
    t["QLinearMatMul"] = &Importer::convertQLinearMatMul;
    t["ConvInteger"] = &Importer::convertConvInteger;
    t["MatMulInteger"] = &Importer::convertMatMulInteger;
    t["Gather"] = &Importer::convertGather;
    t["Cast"] = &Importer::convertCast;
    t["Shape"] = &Importer::convertShape;
    t["ConstantOfShape"] = &Importer::convertConstantOfShape;
    t["Constant"] = &Importer::convertConstant;
    t["LayerNormalization"] = &Importer::convertLayerNorm;
    return t;
  }();
  return table;
}

//===----------------------------------------------------------------------===//
// Graph
//===----------------------------------------------------------------------===//

Error Importer::importGraph(const onnx::GraphProto &graph, func::FuncOp &func) {
  std::set<std::string> initializerNames;
  for (const auto &init : graph.initializer())
    initializerNames.insert(init.name());

  // Inputs: every graph input that is not an initializer.
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  std::vector<std::pair<std::string, Tensor>> boundInputs;
  for (const auto &input : graph.input()) {
    if (initializerNames.count(input.name()))
      continue;
    std::string what = path + ": input '" + input.name() + "'";
    if (!input.type().has_tensor_type())
      return makeError(what + ": unsupported: not a tensor", true);
    const auto &tt = input.type().tensor_type();
    // UINT8 inputs arrive as i32 holding their values (see uint8Values).
    bool uint8 = tt.elem_type() == onnx::TensorProto::UINT8;
    std::optional<DType> dt = uint8 ? DType::I32 : dtypeFromOnnx(tt.elem_type());
    if (uint8)
      uint8Values.insert(input.name());
    if (!dt)
      return makeError(what + ": unsupported: data type " +
                           onnxTypeName(tt.elem_type()),
                       true);
    auto bound = options.constantInputs.find(input.name());
    if (bound != options.constantInputs.end()) {
      boundInputs.emplace_back(input.name(), bound->second);
      continue;
    }
    SmallVector<int64_t> shape;
    auto it = options.inputShapes.find(input.name());
    if (it != options.inputShapes.end()) {
      shape = it->second;
    } else {
      if (!tt.has_shape())
        return makeError(what + " has no shape; give --input-shape=" +
                             input.name() + ":DxDx...",
                         false);
      for (auto [i, d] : llvm::enumerate(tt.shape().dim())) {
        if (!d.has_dim_value() || d.dim_value() < 0)
          return makeError(what + " has dynamic dimension " + llvm::Twine(i) +
                               (d.has_dim_param() ? " ('" + d.dim_param() + "')"
                                                  : std::string()) +
                               "; give --input-shape=" + input.name() +
                               ":DxDx...",
                           false);
        shape.push_back(d.dim_value());
      }
    }
    if (!checkedNumElements(shape))
      return makeError(what + " has shape " + formatShape(shape) +
                           ": a negative dimension or more than 2^48 elements",
                       false);
    argTypes.push_back(RankedTensorType::get(shape, mlirElementType(*dt, &ctx)));
    argNames.push_back(input.name());
  }

  Location fileLoc = FileLineColLoc::get(&ctx, path, 0, 0);
  func = func::FuncOp::create(builder, fileLoc, "main",
                              builder.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (auto [arg, name] : llvm::zip(entry->getArguments(), argNames)) {
    values[name] = arg;
    func.setArgAttr(arg.getArgNumber(), "onnx.name",
                    builder.getStringAttr(name));
    if (uint8Values.count(name)) {
      Location loc = NameLoc::get(builder.getStringAttr(name), fileLoc);
      auto i8 = typeOf(arg).clone(builder.getI8Type());
      Value shifted = graph::AddOp::create(builder, loc, arg, scalar(DType::I32, -128));
      values[name] = graph::CastOp::create(builder, loc, i8, shifted);
    }
  }

  for (const auto &[name, t] : boundInputs)
    values[name] = constant(uint8Values.count(name) ? shiftedUint8(t) : t, name);
  for (const auto &init : graph.initializer()) {
    bool uint8 = false;
    Expected<Tensor> t =
        tensorFromProto(init, "initializer '" + init.name() + "'", &uint8);
    if (!t)
      return t.takeError();
    if (uint8)
      uint8Values.insert(init.name());
    values[init.name()] = constant(*t, init.name());
  }

  // Capture the diagnostics emitted while building ops.
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (!diagnostics.empty())
      diagnostics += "; ";
    diagnostics += diag.str();
    return success();
  });

  for (auto [index, nodeProto] : llvm::enumerate(graph.node())) {
    std::string name = nodeProto.name().empty()
                           ? "#" + std::to_string(index)
                           : nodeProto.name();
    if (!nodeProto.domain().empty() && nodeProto.domain() != "ai.onnx")
      return makeError(path + ": node '" + name + "' (" + nodeProto.op_type() +
                           "): unsupported: operator domain '" +
                           nodeProto.domain() + "'",
                       true);
    Node n{nodeProto,
           "node '" + name + "' (" + nodeProto.op_type() + ", opset " +
               std::to_string(opset) + ")",
           NameLoc::get(builder.getStringAttr(name), fileLoc), opset};
    auto it = converters().find(nodeProto.op_type());
    if (it == converters().end())
      return unsupported(n, "operator " + nodeProto.op_type());
    for (int i = 0; i < nodeProto.input_size(); ++i)
      if (!nodeProto.input(i).empty() && !values.count(nodeProto.input(i)))
        return fail(n, "input '" + nodeProto.input(i) +
                           "' is not produced by any earlier node, input or "
                           "initializer");
    if (!n.hasOutput(0))
      return fail(n, "has no output 0 (every operator produces it)");
    static const std::set<std::string> kQuantizationOps = {
        "QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul",
        "ConvInteger", "MatMulInteger"};
    if (!kQuantizationOps.count(nodeProto.op_type()))
      for (const std::string &input : nodeProto.input())
        if (uint8Values.count(input))
          return unsupported(n, "the uint8 tensor '" + input +
                                    "' outside quantization operators (dlc has no "
                                    "unsigned types; it holds uint8 as quantized values)");
    for (int i = 0; i < nodeProto.output_size(); ++i) {
      const std::string &out = nodeProto.output(i);
      if (out.empty())
        continue;
      if (values.count(out) ||
          llvm::count(llvm::make_range(nodeProto.output().begin(),
                                       nodeProto.output().begin() + i), out))
        return fail(n, "output '" + out +
                           "' is already defined by an earlier node, graph "
                           "input, initializer or output of this node");
    }
    if (Error e = it->second(*this, n))
      return e;
    if (!n.attrError.empty())
      return fail(n, n.attrError);
    for (int i = 0; i < nodeProto.output_size(); ++i)
      if (!nodeProto.output(i).empty() && !values.count(nodeProto.output(i)))
        return fail(n, "output '" + nodeProto.output(i) + "' was not produced");
  }

  SmallVector<Value> results;
  for (const auto &output : graph.output()) {
    auto it = values.find(output.name());
    if (it == values.end())
      return makeError(path + ": graph output '" + output.name() +
                           "' is not produced by any node",
                       false);
    Value v = it->second;
    if (uint8Values.count(output.name())) { // leaves as i32 holding the values
      Location loc = NameLoc::get(builder.getStringAttr(output.name()), fileLoc);
      Value wide = graph::CastOp::create(builder, loc,
                                         typeOf(v).clone(builder.getI32Type()), v);
      v = graph::AddOp::create(builder, loc, wide, scalar(DType::I32, 128));
    }
    results.push_back(v);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  // Constants left without users by folding (shape computations).
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*entry)))
    if (isa<graph::ConstantOp>(op) && op.use_empty())
      op.erase();
  func.setType(builder.getFunctionType(argTypes, TypeRange(ValueRange(results))));
  return Error::success();
}

Expected<OwningOpRef<ModuleOp>> Importer::run() {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError(path + ": cannot read: " + buffer.getError().message(),
                     false);
  onnx::ModelProto model;
  StringRef bytes = (*buffer)->getBuffer();
  if (bytes.empty() || !model.ParseFromArray(bytes.data(), bytes.size()))
    return makeError(path + ": not a valid ONNX model (protobuf parse failed; "
                            "truncated or not an .onnx file?)",
                     false);
  if (!model.has_graph())
    return makeError(path + ": the model has no graph", false);
  bool hasDefault = false;
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") {
      opset = o.version();
      hasDefault = true;
    }
  if (!hasDefault)
    return makeError(path + ": unsupported: the model imports no opset of the "
                            "default ONNX domain",
                     true);
  // Opset 1 models are read too: an operator whose opset-1 form differs
  // (legacy attributes such as `broadcast` or `consumed_inputs`) is refused
  // by its converter's attribute check.
  if (opset < 1)
    return makeError(path + ": opset " + llvm::Twine(opset) +
                         " of the default ONNX domain is not a valid opset",
                     false);
  if (opset > kMaxOpset)
    return makeError(path + ": unsupported: opset " + llvm::Twine(opset) +
                         " of the default ONNX domain (this importer knows "
                         "opsets 1 to " + llvm::Twine(kMaxOpset) + ")",
                     true);
  OwningOpRef<ModuleOp> module = ModuleOp::create(FileLineColLoc::get(&ctx, path, 0, 0));
  builder.setInsertionPointToStart(module->getBody());
  func::FuncOp func;
  if (Error e = importGraph(model.graph(), func))
    return std::move(e);
  if (failed(verify(*module)))
    return makeError(path + ": the imported module does not verify", false);
  return module;
}

Expected<OwningOpRef<ModuleOp>>
dlc::importOnnxFile(StringRef path, MLIRContext &context,
                    const OnnxImportOptions &options) {
  context.loadDialect<graph::GraphDialect, func::FuncDialect>();
  Importer importer(context, path, options);
  return importer.run();
}
