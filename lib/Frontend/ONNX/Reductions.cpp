//===- Reductions.cpp - ONNX reductions ------------------------------------===//
//
// ReduceSum, ReduceMean, ReduceMax, ReduceMin and ReduceProd map to one
// graph op each, as ArgMax and ArgMin do; the others are compositions:
// ReduceL1 = sum(|x|), ReduceL2 =
// sqrt(sum(x x)), ReduceSumSquare = sum(x x), ReduceLogSum = log(sum(x)),
// ReduceLogSumExp = log(sum(exp(x - max))) + max (stable for large x).
// `noop_with_empty_axes` with no axes skips the reduction, not the
// arithmetic around it, as ONNX's reference does. CumSum is a log-step scan of
// shifted sums along the axis; TopK picks
// the k largest (smallest) one at a time (the best value among the positions
// not taken, then the first position holding it), which keeps ONNX's order:
// larger first, then lower index. A NaN input is not ordered.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Shape.h"

#include <limits>

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

void Importer::registerReductions(ConverterTable &t) {
  auto simple = [&](const char *onnx, StringRef op) {
    t[onnx] = [op](Importer &im, Node &n) { return im.convertReduce(n, op); };
  };
  simple("ReduceSum", graph::ReduceSumOp::getOperationName());
  simple("ReduceMean", graph::ReduceMeanOp::getOperationName());
  simple("ReduceMax", graph::ReduceMaxOp::getOperationName());
  simple("ReduceMin", graph::ReduceMinOp::getOperationName());
  simple("ReduceProd", graph::ReduceProdOp::getOperationName());
  t["ArgMax"] = &Importer::convertArgReduce;
  t["ArgMin"] = &Importer::convertArgReduce;
  t["CumSum"] = &Importer::convertCumSum;
  t["TopK"] = &Importer::convertTopK;
  for (const char *op : {"ReduceL1", "ReduceL2", "ReduceSumSquare", "ReduceLogSum",
                         "ReduceLogSumExp"})
    t[op] = &Importer::convertReduceComposite;
}

Error Importer::convertReduce(Node &n, StringRef op) {
  if (Error e = checkAttrs(n, {"axes", "keepdims", "noop_with_empty_axes"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  Expected<SmallVector<int64_t>> axesOrErr = intsAttrOrIn(n, "axes", 1);
  if (!axesOrErr)
    return axesOrErr.takeError();
  SmallVector<int64_t> axes = std::move(*axesOrErr);
  if (axes.empty() && n.getInt("noop_with_empty_axes", 0)) {
    define(n, 0, *x);
    return Error::success();
  }
  Expected<Value> y =
      make(n, op, *x,
           {ints("axes", axes),
            named("keepdims", builder.getBoolAttr(n.getInt("keepdims", 1)))});
  if (!y)
    return y.takeError();
  define(n, 0, *y);
  return Error::success();
}

Error Importer::convertReduceComposite(Node &n) {
  if (Error e = checkAttrs(n, {"axes", "keepdims", "noop_with_empty_axes"}))
    return e;
  StringRef type = n.proto.op_type();
  Expected<Value> input = in(n, 0);
  if (!input)
    return input.takeError();
  Value x = *input;
  RankedTensorType xt = typeOf(x);
  std::optional<DType> dt = dtypeOf(xt.getElementType());
  if (!dt || !isFloat(*dt))
    return unsupported(n, type + " of " + (dt ? dtypeName(*dt).str() : std::string("this type")) +
                              " (floating point only)");
  Expected<SmallVector<int64_t>> axes = intsAttrOrIn(n, "axes", 1);
  if (!axes)
    return axes.takeError();
  bool reduce = !(axes->empty() && n.getInt("noop_with_empty_axes", 0));
  bool keepdims = n.getInt("keepdims", 1);
  Composition composition(*this, n);
  auto op = [&](StringRef name, ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
    return composition.op(name, operands, attrs);
  };
  auto unary = [&](StringRef name) { return [&, name](Value v) { return op(name, v); }; };
  auto exp = unary(graph::ExpOp::getOperationName());
  auto log = unary(graph::LogOp::getOperationName());
  auto square = [&](Value v) { return op(graph::MulOp::getOperationName(), {v, v}); };
  // Reduced with the node's axes; keepdims as asked unless `keep`.
  auto reduced = [&](StringRef name, Value v, bool keep = false) {
    if (!reduce)
      return v;
    return op(name, v, {ints("axes", *axes), named("keepdims", builder.getBoolAttr(keep || keepdims))});
  };
  StringRef sum = graph::ReduceSumOp::getOperationName(), max = graph::ReduceMaxOp::getOperationName();
  Value y;
  if (type == "ReduceL1") {
    y = reduced(sum, op(graph::AbsOp::getOperationName(), x));
  } else if (type == "ReduceL2") {
    y = op(graph::SqrtOp::getOperationName(), reduced(sum, square(x)));
  } else if (type == "ReduceSumSquare") {
    y = reduced(sum, square(x));
  } else if (type == "ReduceLogSum") {
    y = log(reduced(sum, x));
  } else { // ReduceLogSumExp
    Value m = reduced(max, x, /*keep=*/true);
    Value s = op(graph::AddOp::getOperationName(),
                 {log(reduced(sum, exp(op(graph::SubOp::getOperationName(), {x, m})), true)), m});
    y = s;
    if (reduce && !keepdims && !composition.failed()) {
      SmallVector<int64_t> shape;
      for (int64_t d : typeOf(s).getShape())
        shape.push_back(d);
      // The kept dimensions of the reduced axes go.
      SmallVector<int64_t> out;
      int64_t rank = xt.getRank();
      SmallVector<bool> gone(rank, axes->empty());
      for (int64_t a : *axes)
        if (std::optional<int64_t> d = normalizeAxis(a, rank))
          gone[*d] = true;
      for (int64_t d = 0; d < rank; ++d)
        if (!gone[d])
          out.push_back(shape[d]);
      Expected<Value> r = reshape(n, s, out);
      if (!r)
        return r.takeError();
      y = *r;
    }
  }
  return composition.finish(y);
}

Error Importer::convertArgReduce(Node &n) {
  if (Error e = checkAttrs(n, {"axis", "keepdims", "select_last_index"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  StringRef op = n.proto.op_type() == "ArgMax" ? graph::ArgMaxOp::getOperationName()
                                               : graph::ArgMinOp::getOperationName();
  return result(n, make(n, op, *x,
                        {i64("axis", n.getInt("axis", 0)),
                         named("keepdims", builder.getBoolAttr(n.getInt("keepdims", 1))),
                         named("select_last_index",
                               builder.getBoolAttr(n.getInt("select_last_index", 0)))}));
}

Error Importer::convertCumSum(Node &n) {
  if (Error e = checkAttrs(n, {"exclusive", "reverse"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  Expected<SmallVector<int64_t>> axisIn = constInts(n, 1, "axis");
  if (!axisIn)
    return axisIn.takeError();
  ArrayRef<int64_t> shape = typeOf(*x).getShape();
  int64_t rank = shape.size();
  std::optional<int64_t> axis =
      axisIn->size() == 1 ? normalizeAxis((*axisIn)[0], rank) : std::nullopt;
  if (!axis)
    return fail(n, "axis must be one value in range for rank " + llvm::Twine(rank));
  int64_t len = shape[*axis];
  if (len == 0) { // nothing to sum
    define(n, 0, *x);
    return Error::success();
  }
  bool exclusive = n.getInt("exclusive", 0), reverse = n.getInt("reverse", 0);
  // A log-step scan (Hillis-Steele): y += y shifted by 1, 2, 4, ... along
  // the axis, zeros shifted in; exclusive shifts the result by one more.
  // Each element only ever adds earlier ones, so infinities and NaN travel
  // forward only, as in a sequential sum.
  Composition c(*this, n);
  StringRef slice = graph::SliceOp::getOperationName();
  SmallVector<int64_t> starts(rank, 0), ends(shape), steps(rank, 1);
  auto flip = [&](Value v) {
    SmallVector<int64_t> s(rank, 0), e(shape), st(rank, 1);
    s[*axis] = len - 1;
    e[*axis] = -1;
    st[*axis] = -1;
    return c.op(slice, v, {ints("starts", s), ints("ends", e), ints("steps", st)});
  };
  // v shifted by k along the axis: k zeros first, its last k elements gone.
  auto shift = [&](Value v, int64_t k) {
    SmallVector<int64_t> before(rank, 0), after(rank, 0), e(shape);
    before[*axis] = k;
    e[*axis] = len;
    Value padded = c.op(graph::PadOp::getOperationName(), v,
                        {ints("pad_before", before), ints("pad_after", after)});
    return c.op(slice, padded, {ints("starts", starts), ints("ends", e), ints("steps", steps)});
  };
  Value y = reverse ? flip(*x) : *x;
  for (int64_t k = 1; k < len; k *= 2)
    y = c.add(y, shift(y, k));
  if (exclusive)
    y = shift(y, 1);
  return c.finish(reverse ? flip(y) : y);
}

Error Importer::convertTopK(Node &n) {
  if (Error e = checkAttrs(n, {"axis", "largest", "sorted"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  Expected<SmallVector<int64_t>> kIn = constInts(n, 1, "k");
  if (!kIn)
    return kIn.takeError();
  ArrayRef<int64_t> shape = typeOf(*x).getShape();
  int64_t rank = shape.size();
  std::optional<int64_t> axis = normalizeAxis(n.getInt("axis", -1), rank);
  if (!axis)
    return fail(n, "axis " + llvm::Twine(n.getInt("axis", -1)) + " out of range for rank " +
                       llvm::Twine(rank));
  if (kIn->size() != 1 || (*kIn)[0] < 0 || (*kIn)[0] > shape[*axis])
    return fail(n, "k must be one value in [0, " + llvm::Twine(shape[*axis]) + "]");
  int64_t k = (*kIn)[0];
  constexpr int64_t kMaxK = 64;
  if (k > kMaxK)
    return unsupported(n, "TopK with k = " + llvm::Twine(k) + " (at most " + llvm::Twine(kMaxK) +
                              ")");
  if (k == 0)
    return unsupported(n, "TopK with k = 0 (an empty result)");
  bool largest = n.getInt("largest", 1);
  if (Error e = checkConstantSize(n, {shape[*axis]}, "the positions"))
    return e;
  Composition c(*this, n);
  SmallVector<int64_t> positionShape(rank, 1);
  positionShape[*axis] = shape[*axis];
  Tensor positions(DType::I64, positionShape);
  for (int64_t i = 0; i < shape[*axis]; ++i)
    positions.data[i] = i;
  Value position = constant(positions, "positions");
  // Each round: the best value m among the positions not taken yet, then
  // the first untaken position holding m (exact with infinities and ties).
  // Taken positions read as the type's lowest (highest) value, which no
  // untaken position loses to: ties go to the untaken ones below.
  Type et = typeOf(*x).getElementType();
  double inf = std::numeric_limits<double>::infinity();
  double extreme = isa<FloatType>(et) ? inf : std::ldexp(1.0, et.getIntOrFloatBitWidth() - 1);
  Value done = c.scalarLike(*x, largest ? -extreme : extreme - !isa<FloatType>(et));
  Value no = scalar(DType::I1, 0), yes = scalar(DType::I1, 1);
  Value taken;
  SmallVector<Value> values, indices;
  for (int64_t j = 0; j < k; ++j) {
    Value open = taken ? c.select(taken, done, *x) : *x;
    Value m = c.reduce(largest ? graph::ReduceMaxOp::getOperationName()
                               : graph::ReduceMinOp::getOperationName(),
                       open, {*axis}, true);
    Value holds = c.compare("eq", *x, m);
    if (taken)
      holds = c.select(taken, no, holds);
    Value pick = c.op(graph::ArgMaxOp::getOperationName(), c.cast(holds, builder.getI32Type()),
                      {i64("axis", *axis), named("keepdims", builder.getBoolAttr(true))});
    indices.push_back(pick);
    values.push_back(c.op(graph::GatherElementsOp::getOperationName(), {*x, pick},
                          {i64("axis", *axis)}));
    Value now = c.compare("eq", position, pick);
    taken = taken ? c.select(now, yes, taken) : now;
  }
  StringRef concat = graph::ConcatOp::getOperationName();
  Value v = k == 1 ? values[0] : c.op(concat, values, {i64("axis", *axis)});
  Value i = k == 1 ? indices[0] : c.op(concat, indices, {i64("axis", *axis)});
  return c.finish({v, i});
}
