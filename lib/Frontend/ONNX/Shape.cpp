//===- Shape.cpp - ONNX shape and indexing operators ----------------------===//
//
// Data movement and shape computation: Flatten, Reshape, Expand,
// Transpose, Concat, Split, Slice, Squeeze/Unsqueeze, Pad, Gather, Cast,
// Shape, ConstantOfShape and Constant. Shape computations fold to constants
// at import (Importer.cpp), which makes exported Reshape chains static.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Shape.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

void Importer::registerShape(ConverterTable &t) {
  t["Identity"] = [](Importer &im, Node &n) -> Error {
    Expected<Value> x = im.in(n, 0);
    if (!x)
      return x.takeError();
    im.define(n, 0, *x);
    return Error::success();
  };
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
  t["Gather"] = &Importer::convertGather;
  t["Cast"] = &Importer::convertCast;
  t["Shape"] = &Importer::convertShape;
  t["ConstantOfShape"] = &Importer::convertConstantOfShape;
  t["Constant"] = &Importer::convertConstant;
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
