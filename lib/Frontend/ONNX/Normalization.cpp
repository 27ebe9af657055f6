//===- Normalization.cpp - ONNX normalization and softmax -----------------===//
//
// BatchNormalization (inference), LayerNormalization and Softmax (the
// 2-D coercion of opsets before 13) map to one graph op each; LayerNorm's
// Mean and InvStdDev outputs, InstanceNormalization, GroupNormalization,
// LpNormalization, LRN (a channel window of slices),
// MeanVarianceNormalization and Hardmax (arg_max compared with the
// positions) are compositions.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Shape.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

void Importer::registerNormalization(ConverterTable &t) {
  t["BatchNormalization"] = &Importer::convertBatchNorm;
  t["LayerNormalization"] = &Importer::convertLayerNorm;
  t["Softmax"] = &Importer::convertSoftmax;
  t["InstanceNormalization"] = &Importer::convertInstanceNorm;
  t["LRN"] = &Importer::convertLRN;
  t["Hardmax"] = &Importer::convertHardmax;
  t["MeanVarianceNormalization"] = &Importer::convertMeanVarianceNorm;
  t["GroupNormalization"] = &Importer::convertGroupNorm;
  t["LpNormalization"] = &Importer::convertLpNorm;
}

Error Importer::convertBatchNorm(Node &n) {
  if (Error e = checkAttrs(n, {"epsilon", "momentum", "training_mode",
                               "spatial", "is_test"}))
    return e;
  if (n.getInt("training_mode", 0) != 0 || n.hasOutput(1))
    return unsupported(n, "training-mode BatchNormalization");
  if (n.getInt("spatial", 1) != 1)
    return unsupported(n, "spatial = 0");
  Expected<SmallVector<Value>> operands = ins(n, 5);
  if (!operands)
    return operands.takeError();
  return result(n, make(n, graph::BatchNormOp::getOperationName(), *operands,
                           {f64("epsilon", n.getFloat("epsilon", 1e-5f))}));
}


Error Importer::convertLayerNorm(Node &n) {
  if (Error e = checkAttrs(n, {"axis", "epsilon", "stash_type"}))
    return e;
  Expected<Value> x = in(n, 0), scale = in(n, 1);
  if (!x)
    return x.takeError();
  if (!scale)
    return scale.takeError();
  Expected<Value> biasIn = optionalIn(n, 2);
  if (!biasIn)
    return biasIn.takeError();
  Value bias = *biasIn;
  if (!bias) {
    RankedTensorType st = typeOf(*scale);
    bias = filled(st.getShape(), *dtypeOf(st.getElementType()), 0);
  }
  Expected<Value> y =
      make(n, graph::LayerNormOp::getOperationName(), {*x, *scale, bias},
           {i64("axis", n.getInt("axis", -1)),
            f64("epsilon", n.getFloat("epsilon", 1e-5f))});
  if (!y)
    return y.takeError();
  define(n, 0, *y);
  if (!n.hasOutput(1) && !n.hasOutput(2))
    return Error::success();
  // The statistics, when asked for: the mean and 1 / sqrt(variance + eps)
  // over the normalized axes, which stay as size 1, in the stash type.
  int64_t rank = typeOf(*x).getRank();
  std::optional<int64_t> axis = normalizeAxis(n.getInt("axis", -1), rank);
  if (!axis)
    return fail(n, "axis out of range");
  int stash = n.getInt("stash_type", onnx::TensorProto::FLOAT);
  std::optional<DType> stashType = dtypeFromOnnx(stash);
  if (!stashType || !isFloat(*stashType))
    return unsupported(n, "stash_type " + onnxTypeName(stash));
  SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < rank; ++d)
    axes.push_back(d);
  Composition c(*this, n);
  Value xs = c.cast(*x, mlirElementType(*stashType, &ctx));
  StringRef mean = graph::ReduceMeanOp::getOperationName();
  Value mu = c.reduce(mean, xs, axes, true);
  Value d = c.sub(xs, mu);
  Value var = c.reduce(mean, c.mul(d, d), axes, true);
  Value inv = c.op(graph::RsqrtOp::getOperationName(),
                   c.add(var, c.scalarLike(var, n.getFloat("epsilon", 1e-5f))));
  return c.finish({*y, mu, inv});
}

Value Importer::standardized(Composition &c, Value x, ArrayRef<int64_t> axes, double eps) {
  StringRef mean = graph::ReduceMeanOp::getOperationName();
  Value d = c.sub(x, c.reduce(mean, x, axes, true));
  Value var = c.reduce(mean, c.mul(d, d), axes, true);
  return c.mul(d, c.op(graph::RsqrtOp::getOperationName(), c.add(var, c.scalarLike(var, eps))));
}

Error Importer::convertInstanceNorm(Node &n) {
  if (Error e = checkAttrs(n, {"epsilon"}))
    return e;
  Expected<SmallVector<Value>> operands = ins(n, 3);
  if (!operands)
    return operands.takeError();
  Value x = (*operands)[0], scale = (*operands)[1], bias = (*operands)[2];
  ArrayRef<int64_t> shape = typeOf(x).getShape();
  int64_t rank = shape.size();
  if (rank < 3)
    return fail(n, "the input has rank " + llvm::Twine(rank) + ", at least 3 (N, C, D1...) needed");
  // (x - mean) / sqrt(var + eps) scale + bias over the spatial axes, per
  // sample and channel.
  SmallVector<int64_t> axes, channel(rank, 1);
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  channel[1] = shape[1];
  Composition c(*this, n);
  Value norm = standardized(c, x, axes, n.getFloat("epsilon", 1e-5f));
  return c.finish(c.add(c.mul(norm, c.reshape(scale, channel)), c.reshape(bias, channel)));
}

Error Importer::convertGroupNorm(Node &n) {
  if (Error e = checkAttrs(n, {"epsilon", "num_groups", "stash_type"}))
    return e;
  Expected<SmallVector<Value>> operands = ins(n, 3);
  if (!operands)
    return operands.takeError();
  Value x = (*operands)[0], scale = (*operands)[1], bias = (*operands)[2];
  ArrayRef<int64_t> shape = typeOf(x).getShape();
  int64_t rank = shape.size();
  if (rank < 2)
    return fail(n, "the input has rank " + llvm::Twine(rank) + ", at least 2 (N, C, D1...) needed");
  int64_t groups = n.getInt("num_groups", 0), channels = shape[1];
  if (groups < 1 || groups > std::max<int64_t>(channels, 1) || channels % groups)
    return fail(n, "num_groups " + llvm::Twine(groups) + " does not divide the " +
                       llvm::Twine(channels) + " channels (missing or not positive?)");
  // Opset 18 scales and shifts each group, opset 21 each channel.
  int64_t per = n.opset < 21 ? groups : channels;
  for (Value v : {scale, bias})
    if (typeOf(v).getShape() != ArrayRef<int64_t>{per})
      return fail(n, "scale and bias must have shape " + formatShape({per}) + " (" +
                         (n.opset < 21 ? "one value per group" : "one value per channel") +
                         " at opset " + llvm::Twine(n.opset) + "), got " +
                         formatShape(typeOf(v).getShape()));
  int stash = n.getInt("stash_type", onnx::TensorProto::FLOAT);
  std::optional<DType> stashType = dtypeFromOnnx(stash);
  if (!stashType || !isFloat(*stashType))
    return unsupported(n, "stash_type " + onnxTypeName(stash));
  // (x - mean) / sqrt(var + eps) over each sample's group of channels, in
  // the stash type, then scale + bias.
  Type et = typeOf(x).getElementType();
  int64_t batch = shape[0], rest = channels / groups * numElements(shape.drop_front(2));
  Composition c(*this, n);
  Value g = c.reshape(c.cast(x, mlirElementType(*stashType, &ctx)), {batch, groups, rest});
  Value norm = c.cast(standardized(c, g, {2}, n.getFloat("epsilon", 1e-5f)), et);
  if (per == groups) {
    Value y = c.add(c.mul(norm, c.reshape(scale, {1, groups, 1})),
                    c.reshape(bias, {1, groups, 1}));
    return c.finish(c.reshape(y, shape));
  }
  SmallVector<int64_t> channel(rank, 1);
  channel[1] = channels;
  return c.finish(c.add(c.mul(c.reshape(norm, shape), c.reshape(scale, channel)),
                        c.reshape(bias, channel)));
}

Error Importer::convertLpNorm(Node &n) {
  if (Error e = checkAttrs(n, {"axis", "p"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  int64_t rank = typeOf(*x).getRank();
  std::optional<int64_t> axis = normalizeAxis(n.getInt("axis", -1), rank);
  if (!axis)
    return fail(n, "axis " + llvm::Twine(n.getInt("axis", -1)) + " out of range for rank " +
                       llvm::Twine(rank));
  int64_t p = n.getInt("p", 2);
  if (p != 1 && p != 2)
    return fail(n, "p must be 1 or 2, got " + llvm::Twine(p));
  // x / ||x||_p along the axis (ONNX divides by the norm as it is: a zero
  // norm gives NaN or infinity, as its reference does).
  Composition c(*this, n);
  StringRef sum = graph::ReduceSumOp::getOperationName();
  Value norm = p == 1 ? c.reduce(sum, c.op(graph::AbsOp::getOperationName(), *x), {*axis}, true)
                      : c.op(graph::SqrtOp::getOperationName(),
                             c.reduce(sum, c.mul(*x, *x), {*axis}, true));
  return c.finish(c.div(*x, norm));
}

Error Importer::convertLRN(Node &n) {
  if (Error e = checkAttrs(n, {"alpha", "beta", "bias", "size"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  int64_t size = n.getInt("size", 0);
  if (size < 1)
    return fail(n, "size must be at least 1, got " + llvm::Twine(size));
  ArrayRef<int64_t> shape = typeOf(*x).getShape();
  int64_t rank = shape.size();
  if (rank < 3)
    return fail(n, "the input has rank " + llvm::Twine(rank) + ", at least 3 (N, C, D1...) needed");
  // y = x / (bias + alpha / size * sum of x^2 over the channels
  // [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)])^beta: the squares
  // padded with zeros along C, and shifted slices summed. Window positions
  // beyond the channels read only padding: the sum needs at most C - 1 on
  // each side.
  int64_t reach = std::max<int64_t>(shape[1] - 1, 0);
  int64_t before = std::min((size - 1) / 2, reach);
  int64_t after = std::min(size - 1 - (size - 1) / 2, reach);
  if (before + after + 1 > kMaxWindowTerms)
    return unsupported(n, "a window of " + llvm::Twine(before + after + 1) +
                              " channels (at most " + llvm::Twine(kMaxWindowTerms) +
                              " terms are summed)");
  SmallVector<int64_t> padBefore(rank, 0), padAfter(rank, 0);
  padBefore[1] = before;
  padAfter[1] = after;
  Composition c(*this, n);
  Value padded = c.op(graph::PadOp::getOperationName(), c.mul(*x, *x),
                      {ints("pad_before", padBefore), ints("pad_after", padAfter)});
  Value sum;
  for (int64_t i = 0; i <= before + after; ++i) {
    SmallVector<int64_t> starts(rank, 0), ends(shape), steps(rank, 1);
    starts[1] = i;
    ends[1] = i + shape[1];
    Value slice = c.op(graph::SliceOp::getOperationName(), padded,
                       {ints("starts", starts), ints("ends", ends), ints("steps", steps)});
    sum = i ? c.add(sum, slice) : slice;
  }
  Value base = c.add(c.scalarLike(*x, n.getFloat("bias", 1.0f)),
                     c.mul(c.scalarLike(*x, n.getFloat("alpha", 1e-4f) / size), sum));
  Value denom = c.op(graph::PowOp::getOperationName(),
                     {base, c.scalarLike(*x, n.getFloat("beta", 0.75f))});
  return c.finish(c.div(*x, denom));
}

Error Importer::convertHardmax(Node &n) {
  if (Error e = checkAttrs(n, {"axis"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  ArrayRef<int64_t> shape = typeOf(*x).getShape();
  int64_t rank = shape.size();
  std::optional<int64_t> axis = normalizeAxis(n.getInt("axis", n.opset >= 13 ? -1 : 1), rank);
  if (!axis)
    return fail(n, "axis " + llvm::Twine(n.getInt("axis", -1)) + " out of range for rank " +
                       llvm::Twine(rank));
  Composition c(*this, n);
  Value v = *x;
  // Before opset 13 the input is coerced to 2-D at `axis`.
  bool coerce = n.opset < 13 && *axis != rank - 1;
  if (coerce) {
    v = c.reshape(v, {numElements(shape.take_front(*axis)), numElements(shape.drop_front(*axis))});
    axis = 1;
  }
  // 1 where the position along the axis is the first largest element's.
  ArrayRef<int64_t> vs = typeOf(v).getShape();
  if (Error e = checkConstantSize(n, {vs[*axis]}, "the positions"))
    return e;
  SmallVector<int64_t> positionShape(vs.size(), 1);
  positionShape[*axis] = vs[*axis];
  Tensor positions(DType::I64, positionShape);
  for (int64_t i = 0; i < vs[*axis]; ++i)
    positions.data[i] = i;
  Value arg = c.op(graph::ArgMaxOp::getOperationName(), v,
                   {i64("axis", *axis), named("keepdims", builder.getBoolAttr(true))});
  Value hot = c.compare("eq", arg, constant(positions, "positions"));
  Value y = c.select(hot, c.scalarLike(v, 1), c.scalarLike(v, 0));
  return c.finish(coerce ? c.reshape(y, shape) : y);
}

Error Importer::convertMeanVarianceNorm(Node &n) {
  if (Error e = checkAttrs(n, {"axes"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  SmallVector<int64_t> axes = n.getInts("axes").value_or(SmallVector<int64_t>{0, 2, 3});
  int64_t rank = typeOf(*x).getRank();
  for (int64_t &a : axes) {
    std::optional<int64_t> d = normalizeAxis(a, rank);
    if (!d)
      return fail(n, "axis " + llvm::Twine(a) + " out of range for rank " + llvm::Twine(rank));
    a = *d;
  }
  // (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9), as ONNX's function body.
  Composition c(*this, n);
  StringRef mean = graph::ReduceMeanOp::getOperationName();
  Value mu = c.reduce(mean, *x, axes, true);
  Value var = c.sub(c.reduce(mean, c.mul(*x, *x), axes, true), c.mul(mu, mu));
  Value sd = c.add(c.op(graph::SqrtOp::getOperationName(), var), c.scalarLike(*x, 1e-9));
  return c.finish(c.div(c.sub(*x, mu), sd));
}


Error Importer::convertSoftmax(Node &n) {
  if (Error e = checkAttrs(n, {"axis"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  ArrayRef<int64_t> shape = typeOf(*x).getShape();
  int64_t rank = shape.size();
  int64_t dflt = n.opset >= 13 ? -1 : 1;
  std::optional<int64_t> axis = normalizeAxis(n.getInt("axis", dflt), rank);
  if (!axis)
    return fail(n, "axis out of range");
  if (n.opset >= 13 || *axis == rank - 1) {
    Expected<Value> y = make(n, graph::SoftmaxOp::getOperationName(), *x, {i64("axis", *axis)});
    if (!y)
      return y.takeError();
    define(n, 0, *y);
    return Error::success();
  }
  // Before opset 13 the input is coerced to 2-D at `axis`.
  Expected<Value> flat = reshape(n, *x, {numElements(shape.take_front(*axis)),
                                         numElements(shape.drop_front(*axis))});
  if (!flat)
    return flat.takeError();
  Expected<Value> y = make(n, graph::SoftmaxOp::getOperationName(), *flat, {i64("axis", 1)});
  if (!y)
    return y.takeError();
  return result(n, reshape(n, *y, shape));
}
