//===- ModelBuilder.cpp - layers for the zoo's model builders --------------===//
#include "ModelBuilder.h"
#include "dlc/Dialect/Graph/GraphBuilder.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Random.h"

#include "llvm/Support/ErrorHandling.h"

#include <cmath>

using namespace mlir;
using namespace dlc;
using namespace dlc::zoo;


ModelBuilder::ModelBuilder(MLIRContext &ctx, uint64_t seed)
    : ctx(ctx), b(&ctx), seed(seed) {
  ctx.loadDialect<graph::GraphDialect, func::FuncDialect>();
  module = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToStart(module->getBody());
}

Location ModelBuilder::loc(StringRef name) {
  return NameLoc::get(b.getStringAttr(name));
}

SmallVector<Value> ModelBuilder::begin(ArrayRef<Input> inputs) {
  SmallVector<Type> types;
  for (const Input &in : inputs)
    types.push_back(in.type);
  func = func::FuncOp::create(b, b.getUnknownLoc(), "main",
                              b.getFunctionType(types, {}));
  Block *entry = func.addEntryBlock();
  for (auto [i, in] : llvm::enumerate(inputs)) {
    func.setArgAttr(i, "dlc.name", b.getStringAttr(in.name));
    if (in.range)
      func.setArgAttr(i, "dlc.input_range",
                      b.getDenseI64ArrayAttr({in.range->first, in.range->second}));
  }
  b.setInsertionPointToStart(entry);
  return SmallVector<Value>(entry->getArguments());
}

OwningOpRef<ModuleOp> ModelBuilder::finish(ValueRange results) {
  func::ReturnOp::create(b, b.getUnknownLoc(), results);
  // How each parameter was generated, so that a GPU machine can regenerate
  // it instead of receiving it (--external-weights).
  (*module)->setAttr("dlc.zoo.weights",
                     b.getDictionaryAttr({b.getNamedAttr("seed", b.getI64IntegerAttr(seed)),
                                          b.getNamedAttr("ranges", b.getDictionaryAttr(ranges))}));
  func.setType(b.getFunctionType(func.getArgumentTypes(),
                                 TypeRange(ValueRange(results))));
  return std::move(module);
}

SmallVector<Value> ModelBuilder::ops(StringRef opName, StringRef name,
                                     ValueRange operands,
                                     ArrayRef<NamedAttribute> attrs,
                                     TypeRange resultTypes,
                                     unsigned numResults) {
  FailureOr<Operation *> op = graph::createGraphOp(
      b, loc(name), opName, operands, attrs, resultTypes, numResults);
  // The builders are correct by construction: a failure is a bug in dlc.
  if (failed(op))
    llvm::report_fatal_error("dlc-zoo: cannot build " + opName + " at " + name);
  return SmallVector<Value>((*op)->getResults());
}

Value ModelBuilder::op(StringRef opName, StringRef name, ValueRange operands,
                       ArrayRef<NamedAttribute> attrs, Type resultType) {
  return ops(opName, name, operands, attrs,
             resultType ? TypeRange(resultType) : TypeRange(), 1)[0];
}

Value ModelBuilder::constant(const Tensor &t, StringRef name) {
  return graph::ConstantOp::create(b, loc(name),
                                   elementsAttrFromTensor(t, &ctx, name));
}

Value ModelBuilder::scalar(double v) {
  Tensor t(DType::F32, {});
  t.data[0] = roundToDType(DType::F32, v);
  return constant(t, "scalar");
}

Value ModelBuilder::param(StringRef name, ArrayRef<int64_t> shape, double bound) {
  return paramRange(name, shape, -bound, bound);
}

Value ModelBuilder::paramRange(StringRef name, ArrayRef<int64_t> shape,
                               double lo, double hi) {
  Tensor t(DType::F32, shape);
  std::vector<float> values(t.data.size());
  zoo::uniformParameter(values.data(), values.size(), zoo::parameterSeed(name, seed), lo, hi);
  llvm::copy(values, t.data.begin());
  ranges.push_back(b.getNamedAttr(name, b.getDenseF64ArrayAttr({lo, hi})));
  return constant(t, name);
}

Value ModelBuilder::conv(Value x, StringRef name, int64_t out, int64_t k,
                         int64_t stride, int64_t pad, int64_t groups,
                         bool bias) {
  int64_t in = shape(x)[1] / groups;
  // He-uniform: activations keep their scale through deep networks.
  double bound = std::sqrt(6.0 / (in * k * k));
  SmallVector<Value> operands{x, param((name + ".weight").str(), {out, in, k, k}, bound)};
  if (bias)
    operands.push_back(param((name + ".bias").str(), {out}, 0.1));
  return op(dlc::graph::Conv2DOp::getOperationName(), name, operands,
            {ints("strides", {stride, stride}),
             ints("padding", {pad, pad, pad, pad}), i64("groups", groups)});
}

Value ModelBuilder::batchNorm(Value x, StringRef name, double gammaLo,
                              double gammaHi) {
  int64_t c = shape(x)[1];
  std::string n = name.str();
  return op(dlc::graph::BatchNormOp::getOperationName(), name,
            {x, paramRange(n + ".weight", {c}, gammaLo, gammaHi),
             param(n + ".bias", {c}, 0.2), param(n + ".running_mean", {c}, 0.2),
             paramRange(n + ".running_var", {c}, 0.5, 1.5)},
            {f64("epsilon", 1e-5)});
}

Value ModelBuilder::relu(Value x, StringRef name) {
  return op(dlc::graph::ReluOp::getOperationName(), name, x);
}

Value ModelBuilder::relu6(Value x, StringRef name) {
  return op(dlc::graph::ClipOp::getOperationName(), name, x, {f64("min", 0.0), f64("max", 6.0)});
}

Value ModelBuilder::add(Value a, Value c, StringRef name) {
  return op(dlc::graph::AddOp::getOperationName(), name, {a, c});
}

Value ModelBuilder::mul(Value a, Value c, StringRef name) {
  return op(dlc::graph::MulOp::getOperationName(), name, {a, c});
}

Value ModelBuilder::dense(Value x, StringRef name, int64_t out) {
  int64_t in = shape(x).back();
  double bound = 1.0 / std::sqrt(static_cast<double>(in)); // torch.nn.Linear
  return op(dlc::graph::DenseOp::getOperationName(), name,
            {x, param((name + ".weight").str(), {out, in}, bound),
             param((name + ".bias").str(), {out}, bound)});
}

Value ModelBuilder::layerNorm(Value x, StringRef name, double eps) {
  int64_t h = shape(x).back();
  return op(dlc::graph::LayerNormOp::getOperationName(), name,
            {x, paramRange((name + ".weight").str(), {h}, 0.8, 1.2),
             param((name + ".bias").str(), {h}, 0.1)},
            {i64("axis", -1), f64("epsilon", eps)});
}

Value ModelBuilder::reshape(Value x, ArrayRef<int64_t> s, StringRef name) {
  auto type = cast<RankedTensorType>(x.getType());
  return op(dlc::graph::ReshapeOp::getOperationName(), name, x, {},
            RankedTensorType::get(s, type.getElementType()));
}

Value ModelBuilder::transpose(Value x, ArrayRef<int64_t> perm, StringRef name) {
  return op(dlc::graph::TransposeOp::getOperationName(), name, x, {ints("perm", perm)});
}

Value ModelBuilder::globalPoolFlatten(Value x, StringRef name) {
  Value pooled = op(dlc::graph::GlobalAvgPool2DOp::getOperationName(), name, x);
  return reshape(pooled, {shape(x)[0], shape(x)[1]}, (name + ".flatten").str());
}
