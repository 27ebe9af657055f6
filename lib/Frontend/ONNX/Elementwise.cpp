//===- Elementwise.cpp - ONNX activations and elementwise arithmetic -------===//
//
// Unary and binary arithmetic map to one graph op each. The activations the
// graph dialect has no op for are compositions of graph ops the backends
// already compile and fuse: HardSigmoid = clip(alpha x + beta, 0, 1),
// HardSwish = x HardSigmoid(x) (alpha 1/6, beta 1/2), LeakyRelu and PRelu =
// max(x, 0) + slope min(x, 0), Elu = max(x, 0) + min(0, alpha (exp(x) - 1)),
// Selu = gamma Elu, Celu = max(x, 0) + min(0, alpha (exp(x / alpha) - 1)),
// Softplus = log(exp(x) + 1), Softsign = x / (1 + |x|), Mish = x
// tanh(Softplus(x)), ThresholdedRelu = select(x > alpha, x, 0), and
// LogSoftmax = (x - max) - log(sum(exp(x - max))) along the axis (stable
// where log(softmax) underflows). Comparisons are graph.compare, Where is
// graph.select, and the boolean operators compositions of the two: Not x =
// (x == false), And = select(a, b, false), Or = select(a, true, b), Xor =
// (a != b); IsNaN x = (x != x), IsInf = (x == inf) or (x == -inf), Sign =
// select(x > 0, 1, select(x < 0, -1, 0 x)) (NaN stays NaN).
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Shape.h"

#include "llvm/ADT/StringSwitch.h"

#include <limits>

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

void Importer::registerElementwise(ConverterTable &t) {
  auto unary = [&](const char *onnx, StringRef op) {
    t[onnx] = [op](Importer &im, Node &n) { return im.convertUnary(n, op); };
  };
  unary("Relu", graph::ReluOp::getOperationName());
  unary("Sigmoid", graph::SigmoidOp::getOperationName());
  unary("Tanh", graph::TanhOp::getOperationName());
  unary("Erf", graph::ErfOp::getOperationName());
  unary("Exp", graph::ExpOp::getOperationName());
  unary("Log", graph::LogOp::getOperationName());
  unary("Sqrt", graph::SqrtOp::getOperationName());
  unary("Neg", graph::NegOp::getOperationName());
  unary("Abs", graph::AbsOp::getOperationName());
  unary("Sin", graph::SinOp::getOperationName());
  unary("Cos", graph::CosOp::getOperationName());
  unary("Tan", graph::TanOp::getOperationName());
  unary("Asin", graph::AsinOp::getOperationName());
  unary("Acos", graph::AcosOp::getOperationName());
  unary("Atan", graph::AtanOp::getOperationName());
  unary("Sinh", graph::SinhOp::getOperationName());
  unary("Cosh", graph::CoshOp::getOperationName());
  unary("Asinh", graph::AsinhOp::getOperationName());
  unary("Acosh", graph::AcoshOp::getOperationName());
  unary("Atanh", graph::AtanhOp::getOperationName());
  unary("Floor", graph::FloorOp::getOperationName());
  unary("Ceil", graph::CeilOp::getOperationName());
  unary("Round", graph::RoundOp::getOperationName());
  auto binary = [&](const char *onnx, StringRef op) {
    t[onnx] = [op](Importer &im, Node &n) { return im.convertBinary(n, op); };
  };
  binary("Add", graph::AddOp::getOperationName());
  binary("Sub", graph::SubOp::getOperationName());
  binary("Mul", graph::MulOp::getOperationName());
  binary("Div", graph::DivOp::getOperationName());
  binary("Pow", graph::PowOp::getOperationName());
  auto variadic = [&](const char *onnx, StringRef op) {
    t[onnx] = [op](Importer &im, Node &n) { return im.convertVariadic(n, op); };
  };
  variadic("Max", graph::MaximumOp::getOperationName());
  variadic("Min", graph::MinimumOp::getOperationName());
  variadic("Sum", graph::AddOp::getOperationName());
  variadic("Mean", graph::AddOp::getOperationName());
  t["Mod"] = &Importer::convertMod;
  t["BitShift"] = &Importer::convertBitShift;
  t["Shrink"] = &Importer::convertShrink;
  t["Reciprocal"] = &Importer::convertReciprocal;
  t["Clip"] = &Importer::convertClip;
  t["Dropout"] = &Importer::convertDropout;
  t["Gelu"] = &Importer::convertGelu;
  for (const char *op : {"HardSigmoid", "HardSwish", "LeakyRelu", "PRelu", "Elu", "Selu", "Celu",
                         "Softplus", "Softsign", "Mish", "ThresholdedRelu", "LogSoftmax"})
    t[op] = &Importer::convertActivation;
  for (const char *op : {"Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "Not", "And",
                         "Or", "Xor", "Where", "IsNaN", "IsInf", "Sign"})
    t[op] = &Importer::convertLogic;
}

Error Importer::convertUnary(Node &n, StringRef op) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  return result(n, make(n, op, *x));
}

Expected<Value> Importer::legacyBroadcast(Node &n, Value a, Value b) {
  if (n.opset >= 7)
    return b;
  ArrayRef<int64_t> as = typeOf(a).getShape(), bs = typeOf(b).getShape();
  if (!n.getInt("broadcast", 0)) {
    if (as != bs)
      return fail(n, "operands " + formatShape(as) + " and " + formatShape(bs) +
                         " differ and broadcast is 0");
    return b;
  }
  // B's dimensions match A's from `axis` on (by default, A's last ones).
  int64_t ra = as.size(), rb = bs.size();
  int64_t axis = n.getInt("axis", ra - rb);
  if (axis < 0)
    axis += ra;
  if (axis < 0 || axis + rb > ra)
    return fail(n, "axis " + llvm::Twine(n.getInt("axis", ra - rb)) + " does not place " +
                       formatShape(bs) + " within " + formatShape(as));
  SmallVector<int64_t> shape(ra, 1);
  for (int64_t d = 0; d < rb; ++d)
    shape[axis + d] = bs[d];
  return reshape(n, b, shape);
}

Error Importer::convertBinary(Node &n, StringRef op) {
  // Opsets before 7: `broadcast` and `axis`; before 6: `consumed_inputs`,
  // an optimization hint without semantics.
  if (Error e = n.opset < 7 ? checkAttrs(n, {"broadcast", "axis", "consumed_inputs"})
                            : checkAttrs(n, {}))
    return e;
  Expected<Value> a = in(n, 0), b = in(n, 1);
  if (!a)
    return a.takeError();
  if (!b)
    return b.takeError();
  Expected<Value> bb = legacyBroadcast(n, *a, *b);
  if (!bb)
    return bb.takeError();
  Value rhs = *bb;
  if (op == graph::PowOp::getOperationName()) { // the exponent may have another type
    Expected<Value> c = castTo(n, rhs, typeOf(*a).getElementType());
    if (!c)
      return c.takeError();
    rhs = *c;
  }
  return result(n, make(n, op, {*a, rhs}));
}

Error Importer::convertVariadic(Node &n, StringRef op) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> acc = in(n, 0);
  if (!acc)
    return acc.takeError();
  for (int i = 1; i < n.proto.input_size(); ++i) {
    Expected<Value> b = in(n, i);
    if (!b)
      return b.takeError();
    acc = make(n, op, {*acc, *b});
    if (!acc)
      return acc.takeError();
  }
  if (n.proto.op_type() == "Mean")
    return result(n, make(n, graph::DivOp::getOperationName(),
                          {*acc, scalar(*dtypeOf(typeOf(*acc).getElementType()),
                                        n.proto.input_size())}));
  define(n, 0, *acc);
  return Error::success();
}

Error Importer::convertMod(Node &n) {
  if (Error e = checkAttrs(n, {"fmod"}))
    return e;
  Expected<Value> a = in(n, 0), b = in(n, 1);
  if (!a)
    return a.takeError();
  if (!b)
    return b.takeError();
  bool fmod = n.getInt("fmod", 0);
  bool isFloatType = isa<FloatType>(typeOf(*a).getElementType());
  if (isFloatType && !fmod)
    return fail(n, "fmod must be 1 for floating-point inputs");
  Composition k(*this, n);
  Value zero = k.scalarLike(*a, 0);
  Value q = k.div(*a, *b);
  if (isFloatType) // the quotient truncated toward zero
    q = k.select(k.compare("lt", q, zero), k.op(graph::CeilOp::getOperationName(), q),
                 k.op(graph::FloorOp::getOperationName(), q));
  // The remainder of truncated division has the sign of a (C's fmod);
  // Python's mod, the sign of b.
  Value r = k.sub(*a, k.mul(q, *b));
  if (!fmod) {
    Value signsDiffer = k.compare("ne", k.compare("lt", r, zero), k.compare("lt", *b, zero));
    Value nonzero = k.compare("ne", r, zero);
    Value adjust = k.select(nonzero, signsDiffer, nonzero); // nonzero and signsDiffer
    r = k.select(adjust, k.add(r, *b), r);
  }
  return k.finish(r);
}

Error Importer::convertBitShift(Node &n) {
  if (Error e = checkAttrs(n, {"direction"}))
    return e;
  Expected<SmallVector<Value>> xy = ins(n, 2);
  if (!xy)
    return xy.takeError();
  auto [x, y] = std::make_pair((*xy)[0], (*xy)[1]);
  // BitShift takes only unsigned types, and dlc has only uint8 of them.
  if (!isUint8(n, 0) || !isUint8(n, 1))
    return unsupported(n, "BitShift of tensors other than uint8 (the only unsigned type dlc "
                          "holds)");
  std::string direction = n.getString("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    return fail(n, "direction must be LEFT or RIGHT, not '" + direction + "'");
  // x * 2^y or x / 2^y, 2^y from a table: a shift by 8 or more leaves
  // nothing of a uint8 (the left shift wraps, see markUint8Results).
  Composition k(*this, n);
  Tensor powers(DType::I32, {9});
  for (int64_t i = 0; i < 9; ++i)
    powers.data[i] = int64_t(1) << i;
  Value factor = k.op(graph::GatherOp::getOperationName(),
                      {constant(powers, "powers_of_two"), k.min(y, k.scalarLike(y, 8))},
                      {i64("axis", 0)});
  return k.finish(direction == "LEFT" ? k.mul(x, factor) : k.div(x, factor));
}

Error Importer::convertShrink(Node &n) {
  if (Error e = checkAttrs(n, {"bias", "lambd"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  double bias = n.getFloat("bias", 0.0f), lambd = n.getFloat("lambd", 0.5f);
  Composition k(*this, n);
  Value below = k.compare("lt", *x, k.scalarLike(*x, -lambd));
  Value above = k.compare("gt", *x, k.scalarLike(*x, lambd));
  return k.finish(k.select(below, k.add(*x, k.scalarLike(*x, bias)),
                           k.select(above, k.sub(*x, k.scalarLike(*x, bias)),
                                    k.scalarLike(*x, 0))));
}

Error Importer::convertReciprocal(Node &n) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  std::optional<DType> dt = dtypeOf(typeOf(*x).getElementType());
  return result(n, make(n, graph::DivOp::getOperationName(), {scalar(*dt, 1.0), *x}));
}

Error Importer::convertClip(Node &n) {
  if (Error e = checkAttrs(n, {"min", "max"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  if (n.attr("min"))
    lo = n.getFloat("min", 0);
  if (n.attr("max"))
    hi = n.getFloat("max", 0);
  for (int i : {1, 2}) {
    if (!n.hasInput(i))
      continue;
    Expected<Tensor> t = constIn(n, i, i == 1 ? "min" : "max");
    if (!t)
      return t.takeError();
    (i == 1 ? lo : hi) = t->data.at(0);
  }
  return result(n, make(n, graph::ClipOp::getOperationName(), *x, {f64("min", lo), f64("max", hi)}));
}

Error Importer::convertGelu(Node &n) {
  if (Error e = checkAttrs(n, {"approximate"}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  return result(n, make(n, graph::GeluOp::getOperationName(), *x,
                           {str("approximate", n.getString("approximate", "none"))}));
}

Error Importer::convertActivation(Node &n) {
  StringRef type = n.proto.op_type();
  Error attrs = type == "HardSigmoid" ? checkAttrs(n, {"alpha", "beta"})
                : type == "Selu"      ? checkAttrs(n, {"alpha", "gamma"})
                : type == "LeakyRelu" || type == "Elu" || type == "Celu" ||
                          type == "ThresholdedRelu"
                    ? checkAttrs(n, {"alpha"})
                : type == "LogSoftmax" ? checkAttrs(n, {"axis"})
                                       : checkAttrs(n, {});
  if (attrs)
    return attrs;
  Expected<Value> input = in(n, 0);
  if (!input)
    return input.takeError();
  Value x = *input;
  RankedTensorType xt = typeOf(x);
  std::optional<DType> dt = dtypeOf(xt.getElementType());
  if (!dt || !isFloat(*dt))
    return unsupported(n, type + " of " + (dt ? dtypeName(*dt).str() : std::string("this type")) +
                              " (floating point only)");
  Composition composition(*this, n);
  auto op = [&](StringRef name, ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
    return composition.op(name, operands, attrs);
  };
  auto c = [&](double v) { return scalar(*dt, v); };
  auto add = [&](Value a, Value b) { return op(graph::AddOp::getOperationName(), {a, b}); };
  auto sub = [&](Value a, Value b) { return op(graph::SubOp::getOperationName(), {a, b}); };
  auto mul = [&](Value a, Value b) { return op(graph::MulOp::getOperationName(), {a, b}); };
  auto div = [&](Value a, Value b) { return op(graph::DivOp::getOperationName(), {a, b}); };
  auto max = [&](Value a, Value b) { return op(graph::MaximumOp::getOperationName(), {a, b}); };
  auto min = [&](Value a, Value b) { return op(graph::MinimumOp::getOperationName(), {a, b}); };
  auto exp = [&](Value a) { return op(graph::ExpOp::getOperationName(), a); };
  auto log = [&](Value a) { return op(graph::LogOp::getOperationName(), a); };
  auto hardSigmoid = [&](double alpha, double beta) {
    return op(graph::ClipOp::getOperationName(), add(mul(c(alpha), x), c(beta)),
              {f64("min", 0.0), f64("max", 1.0)});
  };
  auto softplus = [&] { return log(add(exp(x), c(1))); };
  // max(x, 0) + min(0, alpha (exp(x / scale) - 1)): Elu (scale 1), Celu.
  auto elu = [&](double alpha, double scale) {
    Value e = exp(scale == 1 ? x : div(x, c(scale)));
    return add(max(x, c(0)), min(c(0), mul(c(alpha), sub(e, c(1)))));
  };
  Value y;
  if (type == "HardSigmoid") {
    y = hardSigmoid(n.getFloat("alpha", 0.2f), n.getFloat("beta", 0.5f));
  } else if (type == "HardSwish") {
    y = mul(x, hardSigmoid(1.0 / 6, 0.5));
  } else if (type == "LeakyRelu") {
    y = add(max(x, c(0)), mul(c(n.getFloat("alpha", 0.01f)), min(x, c(0))));
  } else if (type == "PRelu") {
    Expected<Value> slope = in(n, 1);
    if (!slope)
      return slope.takeError();
    Expected<Value> s = castTo(n, *slope, xt.getElementType());
    if (!s)
      return s.takeError();
    y = add(max(x, c(0)), mul(*s, min(x, c(0))));
  } else if (type == "Elu") {
    y = elu(n.getFloat("alpha", 1.0f), 1);
  } else if (type == "Selu") {
    y = mul(c(n.getFloat("gamma", 1.05070102214813232421875f)),
            elu(n.getFloat("alpha", 1.67326319217681884765625f), 1));
  } else if (type == "Celu") {
    double alpha = n.getFloat("alpha", 1.0f);
    if (alpha == 0)
      return fail(n, "alpha must not be 0");
    y = elu(alpha, alpha);
  } else if (type == "ThresholdedRelu") {
    Value above = op(graph::CompareOp::getOperationName(), {x, c(n.getFloat("alpha", 1.0f))},
                     {str("predicate", "gt")});
    y = op(graph::SelectOp::getOperationName(), {above, x, c(0)});
  } else if (type == "Softplus") {
    y = softplus();
  } else if (type == "Softsign") {
    y = div(x, add(c(1), op(graph::AbsOp::getOperationName(), x)));
  } else if (type == "Mish") {
    y = mul(x, op(graph::TanhOp::getOperationName(), softplus()));
  } else { // LogSoftmax
    ArrayRef<int64_t> shape = xt.getShape();
    int64_t rank = shape.size();
    std::optional<int64_t> axis = normalizeAxis(n.getInt("axis", n.opset >= 13 ? -1 : 1), rank);
    if (!axis)
      return fail(n, "axis " + llvm::Twine(n.getInt("axis", -1)) + " out of range for rank " +
                         llvm::Twine(rank));
    Value v = x;
    // Before opset 13 the input is coerced to 2-D at `axis`.
    bool coerce = n.opset < 13 && *axis != rank - 1;
    if (coerce) {
      Expected<Value> flat = reshape(n, x, {numElements(shape.take_front(*axis)),
                                            numElements(shape.drop_front(*axis))});
      if (!flat)
        return flat.takeError();
      v = *flat;
      axis = 1;
    }
    y = logSoftmax(composition, v, *axis);
    if (coerce && !composition.failed()) {
      Expected<Value> back = reshape(n, y, shape);
      if (!back)
        return back.takeError();
      y = *back;
    }
  }
  return composition.finish(y);
}

Value Importer::logSoftmax(Composition &c, Value x, int64_t axis) {
  Value shifted = c.sub(x, c.reduce(graph::ReduceMaxOp::getOperationName(), x, {axis}, true));
  return c.sub(shifted,
               c.log(c.reduce(graph::ReduceSumOp::getOperationName(), c.exp(shifted), {axis}, true)));
}

Error Importer::convertLogic(Node &n) {
  StringRef type = n.proto.op_type();
  bool unary = type == "Not" || type == "IsNaN" || type == "IsInf" || type == "Sign";
  bool legacy = n.opset < 7 && !unary && type != "Where";
  if (Error e = type == "IsInf" ? checkAttrs(n, {"detect_positive", "detect_negative"})
                : legacy        ? checkAttrs(n, {"broadcast", "axis"})
                                : checkAttrs(n, {}))
    return e;
  SmallVector<Value> ins;
  for (int i = 0, e = unary ? 1 : type == "Where" ? 3 : 2; i < e; ++i) {
    Expected<Value> v = in(n, i);
    if (v && i == 1 && legacy)
      v = legacyBroadcast(n, ins[0], *v);
    if (!v)
      return v.takeError();
    ins.push_back(*v);
  }
  auto compare = [&](StringRef predicate, Value a, Value b) {
    return make(n, graph::CompareOp::getOperationName(), {a, b}, {str("predicate", predicate)});
  };
  auto select = [&](Value c, Value a, Value b) {
    return make(n, graph::SelectOp::getOperationName(), {c, a, b});
  };
  StringRef predicate = llvm::StringSwitch<StringRef>(type)
                            .Case("Equal", "eq")
                            .Case("Less", "lt")
                            .Case("LessOrEqual", "le")
                            .Case("Greater", "gt")
                            .Case("GreaterOrEqual", "ge")
                            .Default("");
  if (!predicate.empty())
    return result(n, compare(predicate, ins[0], ins[1]));
  if (type == "Where")
    return result(n, select(ins[0], ins[1], ins[2]));
  if (type == "IsNaN")
    return result(n, compare("ne", ins[0], ins[0]));
  if (type == "IsInf" || type == "Sign") {
    std::optional<DType> dt = dtypeOf(typeOf(ins[0]).getElementType());
    if (!dt || dt == DType::I1 || (type == "IsInf" && !isFloat(*dt)))
      return fail(n, type + " takes " + (type == "IsInf" ? "floating point" : "numbers") +
                         ", got " + (dt ? dtypeName(*dt).str() : std::string("another type")));
    if (type == "Sign") {
      Expected<Value> zeros = make(n, graph::MulOp::getOperationName(), {ins[0], scalar(*dt, 0)});
      if (!zeros)
        return zeros.takeError();
      Expected<Value> negative = compare("lt", ins[0], scalar(*dt, 0));
      if (!negative)
        return negative.takeError();
      Expected<Value> positive = compare("gt", ins[0], scalar(*dt, 0));
      if (!positive)
        return positive.takeError();
      Expected<Value> rest = select(*negative, scalar(*dt, -1), *zeros);
      if (!rest)
        return rest.takeError();
      return result(n, select(*positive, scalar(*dt, 1), *rest));
    }
    double inf = std::numeric_limits<double>::infinity();
    bool pos = n.getInt("detect_positive", 1), neg = n.getInt("detect_negative", 1);
    Expected<Value> isPos = compare("eq", ins[0], scalar(*dt, inf));
    if (!isPos)
      return isPos.takeError();
    Expected<Value> isNeg = compare("eq", ins[0], scalar(*dt, -inf));
    if (!isNeg)
      return isNeg.takeError();
    if (pos && neg)
      return result(n, select(*isPos, scalar(DType::I1, 1), *isNeg));
    if (pos)
      return result(n, *isPos);
    if (neg)
      return result(n, *isNeg);
    return result(n, select(*isPos, *isNeg, scalar(DType::I1, 0))); // neither: all false
  }
  for (Value v : ins)
    if (!typeOf(v).getElementType().isInteger(1)) {
      std::string got;
      llvm::raw_string_ostream(got) << typeOf(v).getElementType();
      return fail(n, type + " takes booleans, got " + got);
    }
  Value no = scalar(DType::I1, 0), yes = scalar(DType::I1, 1);
  if (type == "Not")
    return result(n, compare("eq", ins[0], no));
  if (type == "And")
    return result(n, select(ins[0], ins[1], no));
  if (type == "Or")
    return result(n, select(ins[0], yes, ins[1]));
  return result(n, compare("ne", ins[0], ins[1])); // Xor
}

Error Importer::convertDropout(Node &n) {
  if (Error e = checkAttrs(n, {"ratio", "seed", "is_test"}))
    return e;
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
    if (r->size() != 1)
      return fail(n, "ratio must be one value");
    rate = r->data[0];
  }
  if (n.hasInput(2)) {
    Expected<Tensor> training = constIn(n, 2, "training_mode");
    if (!training)
      return training.takeError();
    // Training with ratio 0 drops nothing: the identity, as at inference.
    if (training->size() != 1 || (training->data[0] != 0 && rate != 0))
      return unsupported(n, "training-mode Dropout");
  }
  // Kept as graph.dropout (the identity at inference) for SimplifyInference.
  Expected<Value> y = make(n, graph::DropoutOp::getOperationName(), *x, {f64("rate", rate)});
  if (!y)
    return y.takeError();
  define(n, 0, *y);
  if (n.hasOutput(1)) { // nothing is dropped: the mask is all true
    define(n, 1, filled(typeOf(*x).getShape(), DType::I1, 1));
  }
  return Error::success();
}
