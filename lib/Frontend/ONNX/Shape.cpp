//===- Shape.cpp - ONNX shape and indexing operators ----------------------===//
//
// Data movement and shape computation: Flatten, Reshape, Expand,
// Transpose, Concat, Split, Slice, Squeeze/Unsqueeze, Pad, Gather,
// GatherElements, Cast, CastLike, Shape, Size, ConstantOfShape, Constant,
// Range, EyeLike, Trilu, Tile, DepthToSpace, SpaceToDepth, OneHot, Resize
// and Upsample (graph.resize), GatherND (a gather from the data flattened
// over the indexed dimensions), and ScatterND, ScatterElements and Scatter
// with constant indices (the writes resolved at import: a select of
// gathered updates, one gather per repeated target for add and mul). Shape
// computations fold to constants at import (Importer.cpp), which makes
// exported Reshape chains static. Trilu is a select with a constant mask;
// Tile concatenates copies; DepthToSpace and SpaceToDepth are reshape,
// transpose, reshape; OneHot compares the indices with the class numbers.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Resize.h"
#include "dlc/Support/Shape.h"

#include <cmath>

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
  t["GatherElements"] = &Importer::convertGatherElements;
  t["Size"] = &Importer::convertSize;
  t["CastLike"] = &Importer::convertCastLike;
  t["Trilu"] = &Importer::convertTrilu;
  t["Range"] = &Importer::convertRange;
  t["EyeLike"] = &Importer::convertEyeLike;
  t["Tile"] = &Importer::convertTile;
  t["DepthToSpace"] = &Importer::convertDepthToSpace;
  t["SpaceToDepth"] = &Importer::convertDepthToSpace;
  t["OneHot"] = &Importer::convertOneHot;
  t["Resize"] = &Importer::convertResize;
  t["GatherND"] = &Importer::convertGatherND;
  t["ScatterND"] = &Importer::convertScatter;
  t["ScatterElements"] = &Importer::convertScatter;
  t["Scatter"] = &Importer::convertScatter;
  t["Upsample"] = &Importer::convertResize;
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
  return result(n, make(n, graph::SelectOp::getOperationName(),
                        {filled(*out, DType::I1, 1), *x, *x}));
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
  Expected<SmallVector<Value>> all = ins(n, n.proto.input_size());
  if (!all)
    return all.takeError();
  SmallVector<Value> inputs = std::move(*all);
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
  if (to == onnx::TensorProto::UINT8)
    return castToUint8(n, *x);
  std::optional<DType> dt = dtypeFromOnnx(to);
  if (!dt)
    return unsupported(n, "cast to " + onnxTypeName(to));
  return result(n, castTo(n, *x, mlirElementType(*dt, &ctx)));
}

Error Importer::castToUint8(Node &n, Value x) {
  Expected<Value> wide = castTo(n, x, builder.getI32Type());
  if (!wide)
    return wide.takeError();
  define(n, 0, isUint8(n, 0) ? *wide : wrapUint8(*wide, n.loc));
  uint8Values[n.proto.output(0)] = Uint8Form::Wide;
  return Error::success();
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
    shape.push_back(toInt64(d));
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
      uint8Values[n.proto.output(0)] = Uint8Form::Shifted;
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

Error Importer::convertGatherElements(Node &n) {
  if (Error e = checkAttrs(n, {"axis"}))
    return e;
  Expected<Value> d = in(n, 0), i = in(n, 1);
  if (!d)
    return d.takeError();
  if (!i)
    return i.takeError();
  return result(n, make(n, graph::GatherElementsOp::getOperationName(), {*d, *i},
                        {i64("axis", n.getInt("axis", 0))}));
}

Error Importer::convertSize(Node &n) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  Tensor t(DType::I64, {});
  t.data[0] = typeOf(*x).getNumElements();
  define(n, 0, constant(t, "size"));
  return Error::success();
}

Error Importer::convertCastLike(Node &n) {
  if (Error e = checkAttrs(n, {"saturate"}))
    return e;
  Expected<Value> x = in(n, 0), like = in(n, 1);
  if (!x)
    return x.takeError();
  if (!like)
    return like.takeError();
  if (isUint8(n, 1))
    return castToUint8(n, *x);
  return result(n, castTo(n, *x, typeOf(*like).getElementType()));
}

Error Importer::convertTrilu(Node &n) {
  if (Error e = checkAttrs(n, {"upper"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  int64_t k = 0;
  if (n.hasInput(1)) {
    Expected<SmallVector<int64_t>> kv = constInts(n, 1, "k");
    if (!kv)
      return kv.takeError();
    if (kv->size() != 1)
      return fail(n, "k must be a single value");
    k = (*kv)[0];
  }
  ArrayRef<int64_t> shape = typeOf(*x).getShape();
  if (shape.size() < 2)
    return fail(n, "the input has rank " + llvm::Twine(shape.size()) + ", at least 2 needed");
  // Kept: j - i >= k for the upper triangle, j - i <= k for the lower.
  bool upper = n.getInt("upper", 1);
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  if (Error e = checkConstantSize(n, {rows, cols}, "a mask"))
    return e;
  Tensor mask(DType::I1, {rows, cols});
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      mask.data[i * cols + j] = upper ? j - i >= k : j - i <= k;
  Composition c(*this, n);
  return c.finish(c.select(constant(mask, "trilu_mask"), *x, c.scalarLike(*x, 0)));
}

Error Importer::convertRange(Node &n) {
  if (Error e = checkAttrs(n, {}))
    return e;
  double v[3];
  DType type = DType::F32;
  for (int i = 0; i < 3; ++i) {
    Expected<Tensor> t = constIn(n, i, i == 0 ? "start" : i == 1 ? "limit" : "delta");
    if (!t)
      return t.takeError();
    if (t->size() != 1)
      return fail(n, "start, limit and delta must be scalars");
    v[i] = t->data[0];
    type = t->dtype;
  }
  if (v[2] == 0)
    return fail(n, "delta is 0");
  double count = std::max(std::ceil((v[1] - v[0]) / v[2]), 0.0);
  if (!std::isfinite(count))
    return fail(n, "start, limit and delta must be finite");
  if (count > (1 << 24))
    return fail(n, "the range has " + llvm::Twine(static_cast<int64_t>(count)) + " elements, more than 2^24");
  Tensor t(type, {static_cast<int64_t>(count)});
  for (int64_t i = 0; i < t.size(); ++i)
    t.data[i] = roundToDType(type, v[0] + i * v[2]);
  define(n, 0, constant(t, "range"));
  return Error::success();
}

Error Importer::convertEyeLike(Node &n) {
  if (Error e = checkAttrs(n, {"dtype", "k"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  ArrayRef<int64_t> shape = typeOf(*x).getShape();
  if (shape.size() != 2)
    return fail(n, "the input has rank " + llvm::Twine(shape.size()) + ", 2 needed");
  std::optional<DType> type = dtypeOf(typeOf(*x).getElementType());
  if (n.attr("dtype")) {
    int code = n.getInt("dtype", 0);
    type = dtypeFromOnnx(code);
    if (!type)
      return unsupported(n, "dtype " + onnxTypeName(code));
  }
  int64_t k = n.getInt("k", 0);
  if (Error e = checkConstantSize(n, shape, "an identity"))
    return e;
  // Ones at (i, i + k) for the rows whose column is in range (none when k
  // is beyond the matrix, which the clamp keeps from overflowing).
  Tensor t(*type, shape);
  k = std::clamp<int64_t>(k, -shape[0], shape[1]);
  for (int64_t i = std::max<int64_t>(0, -k), end = std::min(shape[0], shape[1] - k); i < end; ++i)
    t.data[i * shape[1] + i + k] = 1;
  define(n, 0, constant(t, "eye"));
  return Error::success();
}

Error Importer::convertTile(Node &n) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  Expected<SmallVector<int64_t>> repeats = constInts(n, 1, "repeats");
  if (!repeats)
    return repeats.takeError();
  int64_t rank = typeOf(*x).getRank();
  if (static_cast<int64_t>(repeats->size()) != rank)
    return fail(n, "repeats has " + llvm::Twine(repeats->size()) + " values for rank " +
                       llvm::Twine(rank));
  Value y = *x;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t r = (*repeats)[d];
    if (r < 0)
      return fail(n, "repeats must not be negative, got " + llvm::Twine(r));
    SmallVector<int64_t> tiled(typeOf(y).getShape());
    tiled[d] *= r;
    if (r > (1 << 20) || !checkedNumElements(tiled))
      return fail(n, "repeats " + llvm::Twine(r) + " make the result too large");
    if (r == 1)
      continue;
    if (r == 0) { // an empty dimension
      SmallVector<int64_t> shape(typeOf(y).getShape());
      shape[d] = 0;
      y = constant(Tensor(*dtypeOf(typeOf(y).getElementType()), shape), "empty");
      continue;
    }
    SmallVector<Value> copies(r, y);
    Expected<Value> c = make(n, graph::ConcatOp::getOperationName(), copies, {i64("axis", d)});
    if (!c)
      return c.takeError();
    y = *c;
  }
  define(n, 0, y);
  return Error::success();
}

Error Importer::convertDepthToSpace(Node &n) {
  bool toSpace = n.proto.op_type() == "DepthToSpace";
  if (Error e = toSpace ? checkAttrs(n, {"blocksize", "mode"}) : checkAttrs(n, {"blocksize"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  ArrayRef<int64_t> s = typeOf(*x).getShape();
  int64_t b = n.getInt("blocksize", 0);
  if (s.size() != 4)
    return fail(n, "the input has rank " + llvm::Twine(s.size()) + ", 4 (NCHW) needed");
  // b * b within 2^48, so that the shape arithmetic below cannot overflow;
  // the output's dimensions are checked against 2^48 in the same way.
  if (b < 1 || b > std::max<int64_t>({s[1], s[2], s[3], 1}) || b > (int64_t(1) << 24))
    return fail(n, "blocksize must be at least 1 and at most the largest of C, H and W "
                   "(and 2^24), got " +
                       llvm::Twine(b));
  int64_t N = s[0], C = s[1], H = s[2], W = s[3];
  __int128 grow = toSpace ? __int128(std::max(H, W)) * b : __int128(C) * b * b;
  if (grow > kMaxTensorElements)
    return fail(n, "blocksize " + llvm::Twine(b) + " makes an output dimension beyond 2^48");
  SmallVector<int64_t> inner, perm, out;
  if (toSpace) {
    if (C % (b * b))
      return fail(n, "channels " + llvm::Twine(C) + " are not a multiple of blocksize^2 " +
                         llvm::Twine(b * b));
    std::string mode = n.getString("mode", "DCR");
    if (mode == "DCR") {
      inner = {N, b, b, C / (b * b), H, W};
      perm = {0, 3, 4, 1, 5, 2};
    } else if (mode == "CRD") {
      inner = {N, C / (b * b), b, b, H, W};
      perm = {0, 1, 4, 2, 5, 3};
    } else {
      return fail(n, "mode '" + mode + "' (expected DCR or CRD)");
    }
    out = {N, C / (b * b), H * b, W * b};
  } else {
    if (H % b || W % b)
      return fail(n, "height " + llvm::Twine(H) + " and width " + llvm::Twine(W) +
                         " are not multiples of blocksize " + llvm::Twine(b));
    inner = {N, C, H / b, b, W / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    out = {N, C * b * b, H / b, W / b};
  }
  Composition c(*this, n);
  Value t = c.op(graph::TransposeOp::getOperationName(), c.reshape(*x, inner),
                 {ints("perm", perm)});
  return c.finish(c.reshape(t, out));
}

Error Importer::convertOneHot(Node &n) {
  if (Error e = checkAttrs(n, {"axis"}))
    return e;
  Expected<Value> indices = in(n, 0), values = in(n, 2);
  if (!indices)
    return indices.takeError();
  if (!values)
    return values.takeError();
  Expected<Tensor> depthT = constIn(n, 1, "depth");
  if (!depthT)
    return depthT.takeError();
  if (depthT->size() != 1 || !(depthT->data[0] >= 1 && depthT->data[0] <= (1 << 24)))
    return fail(n, "depth must be one value in [1, 2^24]");
  if (typeOf(*values).getNumElements() != 2)
    return fail(n, "values must hold two elements [off, on]");
  int64_t depth = static_cast<int64_t>(depthT->data[0]);
  int64_t rank = typeOf(*indices).getRank() + 1;
  std::optional<int64_t> axis = normalizeAxis(n.getInt("axis", -1), rank);
  if (!axis)
    return fail(n, "axis " + llvm::Twine(n.getInt("axis", -1)) + " out of range for rank " +
                       llvm::Twine(rank));
  // The class numbers along the axis, compared with the indices (negative
  // ones count from the end).
  SmallVector<int64_t> classShape(rank, 1);
  classShape[*axis] = depth;
  Tensor classes(DType::I64, classShape);
  for (int64_t i = 0; i < depth; ++i)
    classes.data[i] = i;
  SmallVector<int64_t> idxShape(typeOf(*indices).getShape());
  idxShape.insert(idxShape.begin() + *axis, 1);
  Composition c(*this, n);
  Value idx = c.reshape(c.cast(*indices, builder.getI64Type()), idxShape);
  Value zero = scalar(DType::I64, 0);
  idx = c.select(c.compare("lt", idx, zero), c.add(idx, scalar(DType::I64, depth)), idx);
  Value hot = c.compare("eq", idx, constant(classes, "classes"));
  Value flat = c.reshape(*values, {2});
  auto pick = [&](int64_t i) {
    return c.op(graph::SliceOp::getOperationName(), flat,
                {ints("starts", {i}), ints("ends", {i + 1}), ints("steps", {1})});
  };
  Value off = c.reshape(pick(0), {}), on = c.reshape(pick(1), {});
  return c.finish(c.select(hot, on, off));
}

Error Importer::convertResize(Node &n) {
  bool upsample = n.proto.op_type() == "Upsample";
  // Upsample and Resize before opset 11: X and scales, asymmetric
  // coordinates, nearest rounding down.
  bool legacy = upsample || n.opset < 11;
  if (Error e = legacy ? checkAttrs(n, {"mode", "scales"})
                       : checkAttrs(n, {"mode", "coordinate_transformation_mode", "cubic_coeff_a",
                                        "exclude_outside", "extrapolation_value", "nearest_mode",
                                        "antialias", "axes", "keep_aspect_ratio_policy"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  ArrayRef<int64_t> inShape = xt.getShape();
  int64_t rank = inShape.size();
  if (n.getInt("antialias", 0))
    return unsupported(n, "antialias");
  std::string policy = n.getString("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch")
    return unsupported(n, "keep_aspect_ratio_policy '" + policy + "'");
  // The axes the scales, sizes and roi give (all by default).
  SmallVector<int64_t> axes;
  for (int64_t a : n.getInts("axes").value_or(SmallVector<int64_t>{})) {
    std::optional<int64_t> d = normalizeAxis(a, rank);
    if (!d)
      return fail(n, "axis " + llvm::Twine(a) + " out of range for rank " + llvm::Twine(rank));
    axes.push_back(*d);
  }
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  int64_t count = axes.size();
  // Scales from the attribute (Upsample-7), input 1 (legacy) or input 2;
  // sizes from input 3.
  SmallVector<double> given;
  SmallVector<int64_t> sizes;
  if (upsample && n.attr("scales")) {
    const auto *a = n.attrOf("scales", onnx::AttributeProto::FLOATS);
    if (a)
      given.assign(a->floats().begin(), a->floats().end());
  } else if (n.hasInput(legacy ? 1 : 2)) {
    Expected<Tensor> t = constIn(n, legacy ? 1 : 2, "scales");
    if (!t)
      return t.takeError();
    given.assign(t->data.begin(), t->data.end());
  }
  if (!legacy && n.hasInput(3)) {
    Expected<SmallVector<int64_t>> s = constInts(n, 3, "sizes");
    if (!s)
      return s.takeError();
    sizes = *s;
  }
  if (!given.empty() && !sizes.empty())
    return fail(n, "both scales and sizes are given");
  if (given.empty() && sizes.empty())
    return fail(n, "neither scales nor sizes are given");
  if (static_cast<int64_t>(given.size() + sizes.size()) != count)
    return fail(n, (given.empty() ? "sizes" : "scales") + llvm::Twine(" have ") +
                       llvm::Twine(given.size() + sizes.size()) + " values for " +
                       llvm::Twine(count) + " axes");
  SmallVector<double> scales(rank, 1.0);
  SmallVector<int64_t> outShape(inShape);
  for (int64_t i = 0; i < count; ++i) {
    int64_t d = axes[i];
    if (inShape[d] == 0)
      return unsupported(n, "resizing an empty dimension (" + llvm::Twine(d) + ")");
    if (!sizes.empty()) {
      if (sizes[i] < 1)
        return fail(n, "sizes must be positive, got " + llvm::Twine(sizes[i]));
      outShape[d] = sizes[i];
      scales[d] = static_cast<double>(sizes[i]) / inShape[d];
    } else {
      if (!(given[i] > 0) || !std::isfinite(given[i]) || inShape[d] * given[i] > 1e12)
        return fail(n, "scales must be positive and finite with a result below 10^12, got " +
                           std::to_string(given[i]));
      scales[d] = given[i];
      outShape[d] = static_cast<int64_t>(std::floor(inShape[d] * given[i]));
    }
  }
  std::string mode = n.getString("mode", "nearest");
  if (mode == "bilinear" || mode == "trilinear") // Upsample-7's names
    mode = "linear";
  std::string coordinates =
      legacy ? "asymmetric" : n.getString("coordinate_transformation_mode", "half_pixel");
  std::string nearest = legacy ? "floor" : n.getString("nearest_mode", "round_prefer_floor");
  if (!isResizeMode(mode))
    return fail(n, "mode '" + mode + "' (expected nearest, linear or cubic)");
  if (!isResizeCoordinates(coordinates))
    return unsupported(n, "coordinate_transformation_mode '" + coordinates + "'");
  if (!isResizeNearest(nearest))
    return unsupported(n, "nearest_mode '" + nearest + "'");
  SmallVector<double> roi;
  if (coordinates == "tf_crop_and_resize") {
    Expected<Tensor> t = constIn(n, 1, "roi");
    if (!t)
      return t.takeError();
    if (t->size() != 2 * count)
      return fail(n, "roi has " + llvm::Twine(t->size()) + " values for " + llvm::Twine(count) +
                         " axes (starts then ends)");
    roi.assign(2 * rank, 0.0);
    for (int64_t d = 0; d < rank; ++d)
      roi[rank + d] = 1.0;
    for (int64_t i = 0; i < count; ++i) {
      roi[axes[i]] = t->data[i];
      roi[rank + axes[i]] = t->data[count + i];
    }
  }
  for (int64_t d = 0; d < rank; ++d)
    if (Error e = checkConstantSize(n, {4, outShape[d]}, "a table of interpolation taps"))
      return e;
  SmallVector<NamedAttribute> attrs = {
      named("scales", builder.getDenseF64ArrayAttr(scales)), str("mode", mode),
      str("coordinate_transformation_mode", coordinates), str("nearest_mode", nearest),
      f64("cubic_coeff_a", n.getFloat("cubic_coeff_a", -0.75f)),
      named("exclude_outside", builder.getBoolAttr(n.getInt("exclude_outside", 0))),
      f64("extrapolation_value", n.getFloat("extrapolation_value", 0.0f))};
  if (!roi.empty())
    attrs.push_back(named("roi", builder.getDenseF64ArrayAttr(roi)));
  return result(n, make(n, graph::ResizeOp::getOperationName(), *x, attrs,
                        RankedTensorType::get(outShape, xt.getElementType())));
}

Error Importer::convertGatherND(Node &n) {
  if (Error e = checkAttrs(n, {"batch_dims"}))
    return e;
  Expected<Value> data = in(n, 0), indices = in(n, 1);
  if (!data)
    return data.takeError();
  if (!indices)
    return indices.takeError();
  ArrayRef<int64_t> d = typeOf(*data).getShape(), q = typeOf(*indices).getShape();
  int64_t b = n.getInt("batch_dims", 0), rd = d.size(), rq = q.size();
  int64_t r = rq ? q.back() : 0;
  if (rq < 1 || b < 0 || b >= std::min(rd, rq) || b + r > rd || r < 1 ||
      q.take_front(b) != d.take_front(b))
    return fail(n, "data " + formatShape(d) + ", indices " + formatShape(q) + " and batch_dims " +
                       llvm::Twine(b) + " do not fit together");
  // The linear position in data's first b + r dimensions: the batch
  // position, plus the indices (negative ones from the end) times strides.
  SmallVector<int64_t> strides(b + r, 1);
  for (int64_t k = b + r - 2; k >= 0; --k)
    strides[k] = strides[k + 1] * d[k + 1];
  Tensor sizes(DType::I64, {r}), steps(DType::I64, {r});
  for (int64_t k = 0; k < r; ++k) {
    sizes.data[k] = d[b + k];
    steps.data[k] = strides[b + k];
  }
  Composition c(*this, n);
  Value idx = c.cast(*indices, builder.getI64Type());
  idx = c.select(c.compare("lt", idx, scalar(DType::I64, 0)),
                 c.add(idx, constant(sizes, "sizes")), idx);
  Value linear = c.reduce(graph::ReduceSumOp::getOperationName(),
                          c.mul(idx, constant(steps, "strides")), {rq - 1}, false);
  SmallVector<int64_t> outer(q.drop_back());
  for (int64_t k = 0; k < b; ++k) {
    SmallVector<int64_t> shape(outer.size(), 1);
    shape[k] = q[k];
    Tensor offsets(DType::I64, shape);
    for (int64_t i = 0; i < q[k]; ++i)
      offsets.data[i] = i * strides[k];
    linear = c.add(linear, constant(offsets, "batch_offsets"));
  }
  SmallVector<int64_t> flat{numElements(d.take_front(b + r))};
  llvm::append_range(flat, d.drop_front(b + r));
  return c.finish(c.op(graph::GatherOp::getOperationName(), {c.reshape(*data, flat), linear},
                       {i64("axis", 0)}));
}

Error Importer::convertScatter(Node &n) {
  StringRef type = n.proto.op_type();
  bool nd = type == "ScatterND";
  if (Error e = nd ? checkAttrs(n, {"reduction"}) : checkAttrs(n, {"axis", "reduction"}))
    return e;
  Expected<Value> data = in(n, 0), updates = in(n, 2);
  if (!data)
    return data.takeError();
  if (!updates)
    return updates.takeError();
  Expected<Tensor> indices = constIn(n, 1, "indices");
  if (!indices)
    return indices.takeError();
  std::string reduction = n.getString("reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "max" &&
      reduction != "min")
    return fail(n, "reduction '" + reduction + "' (expected none, add, mul, max or min)");
  ArrayRef<int64_t> d = typeOf(*data).getShape(), u = typeOf(*updates).getShape();
  ArrayRef<int64_t> q = indices->shape;
  int64_t rd = d.size();
  // Every update element (or slice, for ScatterND) as a row of `updates`
  // flattened to [rows, slice], and the row of data flattened alike that
  // it writes.
  int64_t slice = 1, rows = 0;
  std::vector<int64_t> target;
  if (nd) {
    int64_t r = q.empty() ? 0 : q.back();
    SmallVector<int64_t> want(q.drop_back());
    llvm::append_range(want, d.drop_front(std::min(r, rd)));
    if (q.empty() || r < 1 || r > rd || u != ArrayRef<int64_t>(want))
      return fail(n, "data " + formatShape(d) + ", indices " + formatShape(q) + " and updates " +
                         formatShape(u) + " do not fit together");
    slice = numElements(d.drop_front(r));
    rows = numElements(q.drop_back());
    for (int64_t i = 0; i < rows; ++i) {
      int64_t linear = 0;
      for (int64_t k = 0; k < r; ++k) {
        int64_t v = toInt64(indices->data[i * r + k]);
        if (v < 0)
          v += d[k];
        if (v < 0 || v >= d[k])
          return fail(n, "index " + llvm::Twine(toInt64(indices->data[i * r + k])) +
                             " out of range for dimension " + llvm::Twine(k) + " of size " +
                             llvm::Twine(d[k]));
        linear = linear * d[k] + v;
      }
      target.push_back(linear);
    }
  } else {
    std::optional<int64_t> axis = normalizeAxis(n.getInt("axis", 0), rd);
    if (!axis)
      return fail(n, "axis " + llvm::Twine(n.getInt("axis", 0)) + " out of range for rank " +
                         llvm::Twine(rd));
    bool fits = q == u && static_cast<int64_t>(q.size()) == rd;
    for (int64_t k = 0; fits && k < rd; ++k)
      fits = q[k] <= d[k];
    if (!fits)
      return fail(n, "data " + formatShape(d) + ", indices " + formatShape(q) + " and updates " +
                         formatShape(u) + " do not fit together");
    rows = indices->size();
    Shape ds = rowMajorStrides(d), qs = rowMajorStrides(q);
    for (int64_t i = 0; i < rows; ++i) {
      int64_t v = toInt64(indices->data[i]);
      if (v < 0)
        v += d[*axis];
      if (v < 0 || v >= d[*axis])
        return fail(n, "index " + llvm::Twine(toInt64(indices->data[i])) + " out of range for axis " +
                           llvm::Twine(*axis) + " of size " + llvm::Twine(d[*axis]));
      int64_t linear = 0;
      for (int64_t k = 0; k < rd; ++k)
        linear += (k == *axis ? v : (i / qs[k]) % q[k]) * ds[k];
      target.push_back(linear);
    }
  }
  int64_t places = nd ? numElements(d.take_front(q.back())) : numElements(d);
  if (Error e = checkConstantSize(n, {places}, "a table of scatter targets"))
    return e;
  // Layer l holds, for each row of data, the update row of its l-th write.
  std::vector<std::vector<int64_t>> layers;
  std::vector<int64_t> writes(places, 0);
  for (int64_t i = 0; i < rows; ++i) {
    int64_t l = writes[target[i]]++;
    if (reduction == "none")
      l = 0; // the last write wins
    if (static_cast<int64_t>(layers.size()) <= l)
      layers.emplace_back(places, -1);
    layers[l][target[i]] = i;
  }
  Composition c(*this, n);
  SmallVector<int64_t> flatShape{places, slice};
  Value flatData = c.reshape(*data, flatShape);
  Value flatUpdates = c.reshape(*updates, {rows, slice});
  Value y = flatData;
  for (const std::vector<int64_t> &layer : layers) {
    Tensor from(DType::I64, {places}), hit(DType::I1, {places, 1});
    for (int64_t p = 0; p < places; ++p) {
      from.data[p] = std::max<int64_t>(layer[p], 0);
      hit.data[p] = layer[p] >= 0;
    }
    Value written = c.op(graph::GatherOp::getOperationName(),
                         {flatUpdates, constant(from, "scatter_rows")}, {i64("axis", 0)});
    Value combined = reduction == "add"   ? c.add(y, written)
                     : reduction == "mul" ? c.mul(y, written)
                     : reduction == "max" ? c.max(y, written)
                     : reduction == "min" ? c.min(y, written)
                                          : written;
    y = c.select(constant(hit, "scatter_mask"), combined, y);
  }
  return c.finish(c.reshape(y, d));
}
