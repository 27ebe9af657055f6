//===- Pooling.cpp - ONNX pooling -----------------------------------------===//
//
// MaxPool and AveragePool over 1-D and 2-D windows (auto_pad, ceil_mode,
// count_include_pad; 1-D as 2-D over a height of 1) and their global forms
// (any rank: reductions over the spatial axes).
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
  int64_t rank = typeOf(*x).getRank();
  if (!((rank == 4 && k->size() == 2) || (rank == 3 && k->size() == 1)))
    return unsupported(n, "pooling that is not 1-D or 2-D");
  // 1-D pooling is 2-D pooling over a height of 1.
  bool oneD = rank == 3;
  Value v = *x;
  if (oneD) {
    Expected<Value> v2 = reshape(n, v, insertUnitDim(typeOf(v).getShape(), 2));
    if (!v2)
      return v2.takeError();
    v = *v2;
  }
  Expected<Window> win = window(n, typeOf(v).getShape().drop_front(2), *k, oneD);
  if (!win)
    return win.takeError();
  SmallVector<NamedAttribute> attrs{
      ints("kernel_size", win->kernel), ints("strides", win->strides),
      ints("padding", win->pads), ints("dilations", win->dilations),
      named("ceil_mode", builder.getBoolAttr(n.getInt("ceil_mode", 0)))};
  if (!isMax)
    attrs.push_back(named("count_include_pad",
                          builder.getBoolAttr(n.getInt("count_include_pad", 0))));
  Expected<Value> y = make(
      n, isMax ? graph::MaxPool2DOp::getOperationName() : graph::AvgPool2DOp::getOperationName(),
      v, attrs);
  if (!y)
    return y.takeError();
  if (oneD) {
    SmallVector<int64_t> shape(typeOf(*y).getShape());
    shape.erase(shape.begin() + 2);
    y = reshape(n, *y, shape);
    if (!y)
      return y.takeError();
  }
  define(n, 0, *y);
  return Error::success();
}

Error Importer::convertGlobalPool(Node &n, bool isMax) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> x = in(n, 0);
  if (!x)
    return x.takeError();
  int64_t rank = typeOf(*x).getRank();
  if (rank < 3)
    return fail(n, "the input has rank " + llvm::Twine(rank) + ", at least 3 (N, C, D1...) needed");
  if (rank == 4 && !isMax)
    return result(n, make(n, graph::GlobalAvgPool2DOp::getOperationName(), *x));
  // Other ranks, and the maximum: a reduction over the spatial axes.
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  return result(n, make(n, isMax ? graph::ReduceMaxOp::getOperationName()
                                 : graph::ReduceMeanOp::getOperationName(),
                        *x, {ints("axes", axes), named("keepdims", builder.getBoolAttr(true))}));
}
