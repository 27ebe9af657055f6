//===- Linear.cpp - ONNX convolutions and matrix products -----------------===//
//
// Conv (explicit, SAME and VALID padding, groups) becomes graph.conv2d;
// MatMul graph.matmul; Gemm graph.dense where B is a transposed constant
// or graph.matmul otherwise, with alpha, beta and C applied around it.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Shape.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

void Importer::registerLinear(ConverterTable &t) {
  t["Conv"] = &Importer::convertConv;
  t["Gemm"] = &Importer::convertGemm;
  t["MatMul"] = &Importer::convertMatMul;
}

Error Importer::convertConv(Node &n) {
  if (Error e = checkAttrs(n, {"auto_pad", "dilations", "group", "kernel_shape",
                               "pads", "strides"}))
    return e;
  Expected<Value> x = in(n, 0), w = in(n, 1);
  if (!x)
    return x.takeError();
  if (!w)
    return w.takeError();
  Value bias;
  if (n.hasInput(2)) {
    Expected<Value> b = in(n, 2);
    if (!b)
      return b.takeError();
    bias = *b;
  }
  return result(n, conv(n, *x, *w, bias));
}

Expected<Value> Importer::conv(Node &n, Value x, Value w, Value bias) {
  if (typeOf(x).getRank() != 4)
    return unsupported(n, n.proto.op_type() + " on a rank-" +
                              llvm::Twine(typeOf(x).getRank()) +
                              " input (only 2-D convolutions)");
  SmallVector<int64_t> strides = n.getInts("strides").value_or(
      SmallVector<int64_t>{1, 1});
  SmallVector<int64_t> dil = n.getInts("dilations").value_or(
      SmallVector<int64_t>{1, 1});
  SmallVector<int64_t> pads = n.getInts("pads").value_or(
      SmallVector<int64_t>{0, 0, 0, 0});
  if (Error e = checkWindow(n, strides, dil))
    return std::move(e);
  std::string mode = n.getString("auto_pad", "NOTSET");
  ArrayRef<int64_t> ws = typeOf(w).getShape();
  if (mode != "NOTSET") {
    if (mode != "SAME_UPPER" && mode != "SAME_LOWER" && mode != "VALID")
      return fail(n, "bad auto_pad '" + mode + "'");
    if (ws.size() != 4)
      return fail(n, "the kernel must be 2-D");
    autoPad(mode, typeOf(x).getShape().drop_front(2), ws.drop_front(2),
            strides, dil, pads);
  }
  if (auto ks = n.getInts("kernel_shape"))
    if (ws.size() == 4 && ArrayRef<int64_t>(*ks) != ws.drop_front(2))
      return fail(n, "kernel_shape does not match the weight's shape");
  SmallVector<Value> operands{x, w};
  if (bias)
    operands.push_back(bias);
  return make(n, graph::Conv2DOp::getOperationName(), operands,
              {ints("strides", strides), ints("padding", pads),
               ints("dilations", dil), i64("groups", n.getInt("group", 1))});
}


Error Importer::convertMatMul(Node &n) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> a = in(n, 0), b = in(n, 1);
  if (!a)
    return a.takeError();
  if (!b)
    return b.takeError();
  return result(n, make(n, graph::MatmulOp::getOperationName(), {*a, *b}));
}

Error Importer::convertGemm(Node &n) {
  if (Error e = checkAttrs(n, {"alpha", "beta", "transA", "transB"}))
    return e;
  Expected<Value> a = in(n, 0), b = in(n, 1);
  if (!a)
    return a.takeError();
  if (!b)
    return b.takeError();
  if (typeOf(*a).getRank() != 2 || typeOf(*b).getRank() != 2)
    return fail(n, "Gemm operands must be matrices");
  Value lhs = *a, weight = *b;
  if (n.getInt("transA", 0)) {
    Expected<Value> t = make(n, graph::TransposeOp::getOperationName(), lhs, {ints("perm", {1, 0})});
    if (!t)
      return t.takeError();
    lhs = *t;
  }
  // graph.dense takes the weight as [out, in], i.e. B transposed.
  if (!n.getInt("transB", 0)) {
    Expected<Value> t = make(n, graph::TransposeOp::getOperationName(), weight, {ints("perm", {1, 0})});
    if (!t)
      return t.takeError();
    weight = *t;
  }
  float alpha = n.getFloat("alpha", 1.0f), beta = n.getFloat("beta", 1.0f);
  // A 1-D C with beta 1 and alpha 1 is the dense layer's own bias.
  int64_t outFeatures = typeOf(weight).getDimSize(0);
  if (n.hasInput(2) && alpha == 1.0f && beta == 1.0f) {
    Expected<Value> c = in(n, 2);
    if (!c)
      return c.takeError();
    if (typeOf(*c).getShape() == ArrayRef<int64_t>{outFeatures}) {
      Expected<Value> y = make(n, graph::DenseOp::getOperationName(), {lhs, weight, *c});
      if (!y)
        return y.takeError();
      define(n, 0, *y);
      return Error::success();
    }
  }
  Expected<Value> y = make(n, graph::DenseOp::getOperationName(), {lhs, weight});
  if (!y)
    return y.takeError();
  DType dt = *dtypeOf(typeOf(*y).getElementType());
  if (alpha != 1.0f) {
    y = make(n, graph::MulOp::getOperationName(), {*y, scalar(dt, alpha)});
    if (!y)
      return y.takeError();
  }
  if (n.hasInput(2) && beta != 0.0f) {
    Expected<Value> c = in(n, 2);
    if (!c)
      return c.takeError();
    Value bias = *c;
    if (beta != 1.0f) {
      Expected<Value> scaled = make(n, graph::MulOp::getOperationName(), {bias, scalar(dt, beta)});
      if (!scaled)
        return scaled.takeError();
      bias = *scaled;
    }
    y = make(n, graph::AddOp::getOperationName(), {*y, bias});
    if (!y)
      return y.takeError();
  }
  define(n, 0, *y);
  return Error::success();
}
