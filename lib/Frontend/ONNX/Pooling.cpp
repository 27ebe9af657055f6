//===- Pooling.cpp - ONNX pooling -----------------------------------------===//
//
// MaxPool and AveragePool over 2-D windows (auto_pad, ceil_mode,
// count_include_pad) and their global forms.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Shape.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

void Importer::registerPooling(ConverterTable &t) {
  t["MaxPool"] = [](Importer &im, Node &n) { return im.convertPool(n, true); };
  t["AveragePool"] = [](Importer &im, Node &n) { return im.convertPool(n, false); };
  t["GlobalAveragePool"] = [](Importer &im, Node &n) { return im.convertGlobalPool(n, false); };
  t["GlobalMaxPool"] = [](Importer &im, Node &n) { return im.convertGlobalPool(n, true); };
}

Error Importer::convertPool(Node &n, bool isMax) {
  if (Error e = checkAttrs(n, {"auto_pad", "ceil_mode", "count_include_pad",
                               "dilations", "kernel_shape", "pads", "strides",
                               "storage_order"}))
    return e;
  if (n.hasOutput(1))
    return unsupported(n, "the Indices output of MaxPool");
  if (n.getInt("storage_order", 0) != 0)
    return unsupported(n, "storage_order = 1");
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  std::optional<SmallVector<int64_t>> k = n.getInts("kernel_shape");
  if (!k)
    return fail(n, "missing attribute kernel_shape");
  if (typeOf(*x).getRank() != 4 || k->size() != 2)
    return unsupported(n, "pooling that is not 2-D");
  SmallVector<int64_t> strides = n.getInts("strides").value_or(
      SmallVector<int64_t>{1, 1});
  SmallVector<int64_t> dil = n.getInts("dilations").value_or(
      SmallVector<int64_t>{1, 1});
  SmallVector<int64_t> pads = n.getInts("pads").value_or(
      SmallVector<int64_t>{0, 0, 0, 0});
  if (Error e = checkWindow(n, strides, dil))
    return e;
  std::string mode = n.getString("auto_pad", "NOTSET");
  if (mode != "NOTSET") {
    if (mode != "SAME_UPPER" && mode != "SAME_LOWER" && mode != "VALID")
      return fail(n, "bad auto_pad '" + mode + "'");
    autoPad(mode, typeOf(*x).getShape().drop_front(2), *k, strides, dil, pads);
  }
  SmallVector<NamedAttribute> attrs{
      ints("kernel_size", *k), ints("strides", strides), ints("padding", pads),
      ints("dilations", dil),
      named("ceil_mode", builder.getBoolAttr(n.getInt("ceil_mode", 0)))};
  if (!isMax)
    attrs.push_back(named("count_include_pad",
                          builder.getBoolAttr(n.getInt("count_include_pad", 0))));
  Expected<Value> y =
      make(n, isMax ? graph::MaxPool2DOp::getOperationName() : graph::AvgPool2DOp::getOperationName(), *x, attrs);
  if (!y)
    return y.takeError();
  define(n, 0, *y);
  return Error::success();
}

Error Importer::convertGlobalPool(Node &n, bool isMax) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  if (typeOf(*x).getRank() != 4)
    return unsupported(n, "global pooling that is not 2-D");
  Expected<Value> y =
      isMax ? make(n, graph::ReduceMaxOp::getOperationName(), *x,
                   {ints("axes", {2, 3}), named("keepdims", builder.getBoolAttr(true))})
            : make(n, graph::GlobalAvgPool2DOp::getOperationName(), *x);
  if (!y)
    return y.takeError();
  define(n, 0, *y);
  return Error::success();
}
