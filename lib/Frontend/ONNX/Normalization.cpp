//===- Normalization.cpp - ONNX normalization and softmax -----------------===//
//
// BatchNormalization (inference), LayerNormalization and Softmax (the
// 2-D coercion of opsets before 13) map to one graph op each.
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
