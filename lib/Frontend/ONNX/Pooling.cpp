//===- Pooling.cpp - ONNX pooling -----------------------------------------===//
//
// MaxPool and AveragePool over 1-D, 2-D and 3-D windows (auto_pad,
// ceil_mode, count_include_pad; 1-D as 2-D over a height of 1, 3-D as 2-D
// pools of every output depth's planes combined across the depth taps) and
// their global forms (any rank: reductions over the spatial axes).
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Shape.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

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
  if (int64_t(k->size()) != rank - 2)
    return fail(n, "kernel_shape has " + llvm::Twine(k->size()) + " values for a rank-" +
                       llvm::Twine(rank) + " input (one per spatial dimension)");
  if (rank < 3 || rank > 5)
    return unsupported(n, "pooling over " + llvm::Twine(rank - 2) +
                              " spatial dimensions (only 1-D, 2-D and 3-D pooling)");
  Expected<Window> win = window(n, typeOf(*x).getShape().drop_front(2), *k);
  if (!win)
    return win.takeError();
  if (rank == 5)
    return result(n, pool3d(n, *x, *win, isMax));
  // 1-D pooling is 2-D pooling over a height of 1.
  bool oneD = rank == 3;
  Composition c(*this, n);
  Value v = oneD ? c.reshape(*x, insertUnitDim(typeOf(*x).getShape(), 2)) : *x;
  Value y = pool2d(c, n, v, win->planar(), isMax);
  if (oneD && !c.failed()) {
    SmallVector<int64_t> shape(typeOf(y).getShape());
    shape.erase(shape.begin() + 2);
    y = c.reshape(y, shape);
  }
  return c.finish(y);
}

Value Importer::pool2d(Composition &c, Node &n, Value x, const Window &plane, bool isMax) {
  SmallVector<NamedAttribute> attrs{
      ints("kernel_size", plane.kernel), ints("strides", plane.strides),
      ints("padding", plane.pads), ints("dilations", plane.dilations),
      named("ceil_mode", builder.getBoolAttr(n.getInt("ceil_mode", 0)))};
  if (!isMax)
    attrs.push_back(named("count_include_pad",
                          builder.getBoolAttr(n.getInt("count_include_pad", 0))));
  return c.op(isMax ? graph::MaxPool2DOp::getOperationName()
                    : graph::AvgPool2DOp::getOperationName(),
              x, attrs);
}

Expected<Value> Importer::pool3d(Node &n, Value x, const Window &win, bool isMax) {
  // The planes [N, C, Do, H, W] of every depth tap, as [N, C * Do, H, W]
  // (pooling is per channel), pooled in 2-D and combined across taps: the
  // maximum, or the sum of the taps' plane averages over the number of
  // depths the window counts at each output depth.
  Type et = typeOf(x).getElementType();
  double lowest = -std::numeric_limits<double>::infinity();
  if (auto it = dyn_cast<IntegerType>(et))
    lowest = double(APInt::getSignedMinValue(it.getWidth()).getSExtValue());
  if (std::max(win.pads[0], win.pads[3]) >= win.kernel[0] * win.dilations[0])
    return fail(n, "the depth padding [" + formatInts({win.pads[0], win.pads[3]}) +
                       "] must be smaller than the (dilated) kernel " +
                       llvm::Twine(win.kernel[0] * win.dilations[0]));
  bool ceil = n.getInt("ceil_mode", 0);
  Expected<SmallVector<Value>> taps = depthTaps(n, x, 2, win, ceil, isMax ? lowest : 0.0);
  if (!taps)
    return taps.takeError();
  ArrayRef<int64_t> ts = typeOf(taps->front()).getShape();
  int64_t depth = ts[2];
  Window plane = win.planar();
  Composition c(*this, n);
  Value acc;
  for (auto [j, tap] : llvm::enumerate(*taps)) {
    Value y = pool2d(c, n, c.reshape(tap, {ts[0], ts[1] * depth, ts[3], ts[4]}), plane, isMax);
    acc = j == 0 ? y : isMax ? c.max(acc, y) : c.add(acc, y);
  }
  if (c.failed())
    return c.value(acc);
  ArrayRef<int64_t> ys = typeOf(acc).getShape();
  Value y = c.reshape(acc, {ts[0], ts[1], depth, ys[2], ys[3]});
  if (isMax)
    return c.value(y);
  // How many of the window's depth taps each output depth counts: those
  // on real elements, or with count_include_pad those inside the padded
  // input (not the overhang ceil mode adds); a window wholly in the padding
  // (possible with dilations) counts 1.
  bool includePad = n.getInt("count_include_pad", 0);
  int64_t in = typeOf(x).getDimSize(2), before = win.pads[0], after = win.pads[3];
  int64_t lo = includePad ? 0 : before, hi = before + in + (includePad ? after : 0);
  int64_t k = win.kernel[0], s = win.strides[0], d = win.dilations[0];
  // The taps j < k with lo <= o s + j d < hi (positions in the padded input).
  auto counted = [&](int64_t o) {
    int64_t first = std::max<int64_t>(0, llvm::divideCeilSigned(lo - o * s, d));
    int64_t last = std::min<int64_t>(k - 1, llvm::divideFloorSigned(hi - 1 - o * s, d));
    return std::max<int64_t>(last - first + 1, 1);
  };
  // One divisor when the first and the last window (so every one between)
  // count all their taps; otherwise one per output depth.
  if (counted(0) == k && counted(depth - 1) == k)
    return c.value(c.div(y, c.scalarLike(y, k)));
  if (Error e = checkConstantSize(n, {depth}, "the depth counts"))
    return std::move(e);
  Tensor divisor(*dtypeOf(et), {depth, 1, 1});
  for (int64_t o = 0; o < depth; ++o)
    divisor.data[o] = counted(o);
  return c.value(c.div(y, constant(divisor, "depth_counts")));
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
