//===- Quantization.cpp - ONNX quantization operators ---------------------===//
//
// QuantizeLinear and DequantizeLinear become graph ops; QLinearConv and
// QLinearMatMul their QDQ form (dequantize, the float op, quantize), which
// FakeQuantizationToInteger turns into integer ops; ConvInteger and
// MatMulInteger integer ops on zero-point-centered i32; DynamicQuantizeLinear
// a composition computing the scale and zero point, then graph.quantize.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Shape.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

void Importer::registerQuantization(ConverterTable &t) {
  t["QuantizeLinear"] = &Importer::convertQuantizeLinear;
  t["DequantizeLinear"] = &Importer::convertDequantizeLinear;
  t["QLinearConv"] = &Importer::convertQLinearConv;
  t["QLinearMatMul"] = &Importer::convertQLinearMatMul;
  t["ConvInteger"] = &Importer::convertConvInteger;
  t["MatMulInteger"] = &Importer::convertMatMulInteger;
  t["DynamicQuantizeLinear"] = &Importer::convertDynamicQuantizeLinear;
}

/// "i16", "f32", ... for messages.
static std::string elementTypeName(Value v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << cast<RankedTensorType>(v.getType()).getElementType();
  return s;
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
    zero = filled(typeOf(*scale).getShape(), *dtypeOf(et), isUint8(n, i) ? -128 : 0);
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
      uint8Values[output.str()] = Uint8Form::Shifted;
  } else {
    // No zero point: uint8 with zero point 0, held as -128.
    zero = filled(typeOf(*scale).getShape(), DType::I8, -128);
    uint8Values[output.str()] = Uint8Form::Shifted;
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

Error Importer::convertDynamicQuantizeLinear(Node &n) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  if (!typeOf(*x).getElementType().isF32())
    return unsupported(n, "dynamically quantizing " + elementTypeName(*x) + " (f32 only)");
  // The range of x widened to hold 0, over uint8's 255 steps; the zero point
  // where 0 falls, rounded to even and held shifted (see uint8Values).
  Composition k(*this, n);
  auto f32 = [&](double v) { return scalar(DType::F32, v); };
  Value lo = k.min(k.reduce(graph::ReduceMinOp::getOperationName(), *x, {}, false), f32(0));
  Value hi = k.max(k.reduce(graph::ReduceMaxOp::getOperationName(), *x, {}, false), f32(0));
  // An all-zero x has no range: scale 1 (as ONNX Runtime), not 0 / 0.
  Value range = k.sub(hi, lo);
  Value scale = k.select(k.compare("eq", range, f32(0)), f32(1), k.div(range, f32(255)));
  Value zero = k.op(graph::RoundOp::getOperationName(),
                    k.op(graph::ClipOp::getOperationName(), k.neg(k.div(lo, scale)),
                         {f64("min", 0.0), f64("max", 255.0)}));
  zero = k.cast(k.sub(zero, f32(128)), builder.getI8Type());
  Value y = k.op(graph::QuantizeOp::getOperationName(), {*x, scale, zero}, {i64("axis", 0)},
                 typeOf(*x).clone(builder.getI8Type()));
  for (int i : {0, 2})
    if (n.hasOutput(i))
      uint8Values[n.proto.output(i)] = Uint8Form::Shifted;
  return k.finish({y, scale, zero});
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
