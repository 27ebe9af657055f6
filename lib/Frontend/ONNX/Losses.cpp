//===- Losses.cpp - ONNX loss functions -----------------------------------===//
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (log-softmax over the
// classes, then the same loss) as compositions: the target's class is picked
// from the class axis by comparing the targets with the class numbers (a
// one-hot mask), weighted by the class weights, with ignore_index's entries
// weighing 0; "mean" divides by the sum of the weights used.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "dlc/Support/Shape.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

void Importer::registerLosses(ConverterTable &t) {
  t["NegativeLogLikelihoodLoss"] = &Importer::convertLoss;
  t["SoftmaxCrossEntropyLoss"] = &Importer::convertLoss;
}

Error Importer::convertLoss(Node &n) {
  bool softmax = n.proto.op_type() == "SoftmaxCrossEntropyLoss";
  if (Error e = checkAttrs(n, {"reduction", "ignore_index"}))
    return e;
  Expected<Value> input = in(n, 0), target = in(n, 1);
  if (!input)
    return input.takeError();
  if (!target)
    return target.takeError();
  Expected<Value> weightIn = optionalIn(n, 2);
  if (!weightIn)
    return weightIn.takeError();
  Value weight = *weightIn;
  std::string reduction = n.getString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return fail(n, "reduction '" + reduction + "' (expected none, sum or mean)");
  ArrayRef<int64_t> shape = typeOf(*input).getShape();
  ArrayRef<int64_t> targetShape = typeOf(*target).getShape();
  int64_t rank = shape.size();
  if (!isa<FloatType>(typeOf(*input).getElementType()))
    return fail(n, "the input must be floating point");
  if (!isa<IntegerType>(typeOf(*target).getElementType()))
    return fail(n, "the target must hold integers");
  // input [N, C, d1...], target [N, d1...], weight [C].
  SmallVector<int64_t> expected(shape);
  if (rank >= 2)
    expected.erase(expected.begin() + 1);
  if (rank < 2 || targetShape != ArrayRef<int64_t>(expected))
    return fail(n, "input " + formatShape(shape) + " and target " + formatShape(targetShape) +
                       " are not [N, C, d1...] and [N, d1...]");
  int64_t classes = shape[1];
  if (weight && typeOf(weight).getShape() != ArrayRef<int64_t>{classes})
    return fail(n, "weight " + formatShape(typeOf(weight).getShape()) + " is not [" +
                       llvm::Twine(classes) + "]");

  if (Error e = checkConstantSize(n, {classes}, "the class numbers"))
    return e;
  Composition c(*this, n);
  Value logProb = softmax ? logSoftmax(c, *input, 1) : *input;
  // The classes along axis 1, compared with the targets.
  SmallVector<int64_t> classShape(rank, 1);
  classShape[1] = classes;
  DType targetType = *dtypeOf(typeOf(*target).getElementType());
  Tensor numbers(targetType, classShape);
  for (int64_t i = 0; i < classes; ++i)
    numbers.data[i] = i;
  SmallVector<int64_t> unsqueezed(targetShape);
  unsqueezed.insert(unsqueezed.begin() + 1, 1);
  Value hot = c.compare("eq", c.reshape(*target, unsqueezed), constant(numbers, "classes"));
  Value zero = c.scalarLike(logProb, 0);
  StringRef sum = graph::ReduceSumOp::getOperationName();
  auto pick = [&](Value perClass) { return c.reduce(sum, c.select(hot, perClass, zero), {1}, false); };
  Value picked = pick(logProb);
  // The weight of each target: its class's, or 1; 0 where ignored.
  Value w = weight ? pick(c.reshape(weight, classShape)) : Value();
  if (n.attr("ignore_index")) {
    Value kept = c.compare("ne", *target, scalar(targetType, n.getInt("ignore_index", 0)));
    w = c.select(kept, w ? w : c.scalarLike(logProb, 1), zero);
    picked = c.select(kept, picked, zero); // 0, even where the log-probability is -inf
  }
  Value loss = c.neg(w ? c.mul(picked, w) : picked);
  if (reduction == "sum")
    loss = c.reduce(sum, loss, {}, false);
  else if (reduction == "mean")
    loss = w ? c.div(c.reduce(sum, loss, {}, false), c.reduce(sum, w, {}, false))
             : c.reduce(graph::ReduceMeanOp::getOperationName(), loss, {}, false);
  if (softmax)
    return c.finish({loss, logProb});
  return c.finish(loss);
}
