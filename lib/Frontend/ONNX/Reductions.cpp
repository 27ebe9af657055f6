//===- Reductions.cpp - ONNX reductions ------------------------------------===//
//
// ReduceSum, ReduceMean, ReduceMax, ReduceMin and ReduceProd map to one
// graph op each, as ArgMax and ArgMin do; the others are compositions:
// ReduceL1 = sum(|x|), ReduceL2 =
// sqrt(sum(x x)), ReduceSumSquare = sum(x x), ReduceLogSum = log(sum(x)),
// ReduceLogSumExp = log(sum(exp(x - max))) + max (stable for large x).
// `noop_with_empty_axes` with no axes skips the reduction, not the
// arithmetic around it, as ONNX's reference does.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Shape.h"

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
