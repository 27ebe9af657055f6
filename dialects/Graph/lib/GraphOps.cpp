//===- GraphOps.cpp - graph op verification and type inference -------------===//
//
// Shape rules live in inferReturnTypes: the verifier checks the declared
// result types against them, and builders can omit result types. Every
// message names the op, the operand or attribute, and what was expected.
//
//===----------------------------------------------------------------------===//
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Support/Layout.h"
#include "dlc/Support/Resize.h"
#include "dlc/Support/Shape.h"
#include "dlc/Support/Winograd.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include <cmath>
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static RankedTensorType rankedOf(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

/// Emits `op: message` at `loc` (if any) and returns failure.
static LogicalResult fail(std::optional<Location> loc, StringRef op,
                          const Twine &message) {
  return emitOptionalError(loc, op, ": ", message);
}

static LogicalResult checkRank(std::optional<Location> loc, StringRef op,
                               StringRef operand, RankedTensorType type,
                               int64_t rank) {
  if (!type)
    return fail(loc, op, Twine(operand) + " must be a ranked tensor");
  if (type.getRank() != rank)
    return fail(loc, op, Twine(operand) + " must have rank " + Twine(rank) +
                             ", got rank " + Twine(type.getRank()));
  return success();
}

static LogicalResult checkArraySize(std::optional<Location> loc, StringRef op,
                                    StringRef name, ArrayRef<int64_t> values,
                                    size_t size, int64_t minValue) {
  if (values.size() != size)
    return fail(loc, op, Twine(name) + " must have " + Twine(size) +
                             " values, got " + Twine(values.size()));
  for (int64_t v : values)
    if (v < minValue || v > kMaxTensorElements)
      return fail(loc, op, Twine(name) + " values must be in [" + Twine(minValue) +
                               ", 2^48], got " + Twine(v));
  return success();
}

/// Positions of N, C, H, W in a 2-D activation layout.
struct ImageDims {
  int64_t n, c, h, w;
};

static FailureOr<ImageDims> imageDims(std::optional<Location> loc,
                                      StringRef op, StringRef layout) {
  if (layout == "NCHW")
    return ImageDims{0, 1, 2, 3};
  if (layout == "NHWC")
    return ImageDims{0, 3, 1, 2};
  (void)fail(loc, op, "layout must be \"NCHW\" or \"NHWC\", got \"" + layout +
                          "\"");
  return failure();
}

static Shape imageShape(ImageDims d, int64_t n, int64_t c, int64_t h,
                        int64_t w) {
  Shape s(4);
  s[d.n] = n;
  s[d.c] = c;
  s[d.h] = h;
  s[d.w] = w;
  return s;
}

/// The message for an axis attribute outside [-rank, rank). I64Attr getters
/// return uint64_t, so the axis is taken back as signed here.
static std::string axisOutOfRange(int64_t axis, int64_t rank) {
  return "axis " + std::to_string(axis) + " is out of range for rank " +
         std::to_string(rank);
}

static LogicalResult normalizeAxes(std::optional<Location> loc, StringRef op,
                                   ArrayRef<int64_t> axes, int64_t rank,
                                   SmallVectorImpl<int64_t> &result) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t axis : axes) {
    std::optional<int64_t> a = normalizeAxis(axis, rank);
    if (!a)
      return fail(loc, op, axisOutOfRange(axis, rank));
    if (!seen.insert(*a).second)
      return fail(loc, op, "axis " + Twine(axis) + " appears twice");
    result.push_back(*a);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution and dense layers
//===----------------------------------------------------------------------===//

/// A convolution's optional bias: one value per output channel.
static LogicalResult checkChannelBias(std::optional<Location> loc, StringRef op, Value bias,
                                      int64_t channels) {
  if (!bias)
    return success();
  auto b = rankedOf(bias);
  if (!b || b.getRank() != 1 || b.getDimSize(0) != channels)
    return fail(loc, op, "bias must be 1-D with " + Twine(channels) +
                             " elements (output channels)");
  return success();
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  StringRef op = "conv2d";
  auto input = rankedOf(adaptor.getInput());
  auto weight = rankedOf(adaptor.getWeight());
  if (failed(checkRank(loc, op, "input", input, 4)) ||
      failed(checkRank(loc, op, "weight", weight, 4)) ||
      failed(checkArraySize(loc, op, "strides", adaptor.getStrides(), 2, 1)) ||
      failed(checkArraySize(loc, op, "dilations", adaptor.getDilations(), 2, 1)) ||
      failed(checkArraySize(loc, op, "padding", adaptor.getPadding(), 4, 0)))
    return failure();
  FailureOr<ImageDims> d = imageDims(loc, op, adaptor.getDataLayout());
  if (failed(d))
    return failure();
  StringRef kl = adaptor.getKernelLayout();
  if (kl != "OIHW" && kl != "HWIO")
    return fail(loc, op, "kernel_layout must be \"OIHW\" or \"HWIO\", got \"" +
                             kl + "\"");
  bool oihw = kl == "OIHW";
  ArrayRef<int64_t> in = input.getShape(), w = weight.getShape();
  int64_t o = oihw ? w[0] : w[3], i = oihw ? w[1] : w[2];
  int64_t kh = oihw ? w[2] : w[0], kw = oihw ? w[3] : w[1];
  int64_t groups = adaptor.getGroups(), c = in[d->c];
  if (groups < 1)
    return fail(loc, op, "groups must be >= 1, got " + Twine(groups));
  if (c % groups)
    return fail(loc, op, "input channels " + Twine(c) +
                             " not divisible by groups " + Twine(groups));
  if (o % groups)
    return fail(loc, op, "output channels " + Twine(o) +
                             " not divisible by groups " + Twine(groups));
  if (i != c / groups)
    return fail(loc, op, "weight has " + Twine(i) +
                             " input channels per group, expected " +
                             Twine(c / groups) + " (input channels " + Twine(c) +
                             " / groups " + Twine(groups) + ")");
  if (failed(checkChannelBias(loc, op, adaptor.getBias(), o)))
    return failure();
  ArrayRef<int64_t> s = adaptor.getStrides(), dil = adaptor.getDilations(),
                    p = adaptor.getPadding();
  int64_t spanH = in[d->h] + p[0] + p[2], spanW = in[d->w] + p[1] + p[3];
  if (!windowFits(spanH, kh, dil[0]) || !windowFits(spanW, kw, dil[1]))
    return fail(loc, op, "dilated kernel " + Twine(kh) + "x" + Twine(kw) +
                             " is larger than the padded input " + Twine(spanH) +
                             "x" + Twine(spanW));
  int64_t oh = windowExtent(in[d->h], p[0], p[2], kh, s[0], dil[0], false);
  int64_t ow = windowExtent(in[d->w], p[1], p[3], kw, s[1], dil[1], false);
  results.push_back(RankedTensorType::get(imageShape(*d, in[d->n], o, oh, ow),
                                          input.getElementType()));
  return success();
}

LogicalResult Conv2DWinogradOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &results) {
  StringRef op = "conv2d_winograd";
  auto input = rankedOf(adaptor.getInput());
  auto weight = rankedOf(adaptor.getWeight());
  if (failed(checkRank(loc, op, "input", input, 4)) ||
      failed(checkRank(loc, op, "weight", weight, 3)) ||
      failed(checkArraySize(loc, op, "padding", adaptor.getPadding(), 4, 0)))
    return failure();
  FailureOr<ImageDims> d = imageDims(loc, op, adaptor.getDataLayout());
  if (failed(d))
    return failure();
  int64_t m = adaptor.getTile();
  if (!winograd::isSupportedTile(m))
    return fail(loc, op, "tile must be 2 or 4, got " + Twine(m));
  ArrayRef<int64_t> in = input.getShape(), w = weight.getShape();
  int64_t alpha = m + 2, c = in[d->c];
  // NCHW: [alpha^2, O, C]; NHWC: [alpha^2, C, O].
  bool nchw = d->c == 1;
  int64_t o = nchw ? w[1] : w[2];
  if (w[0] != alpha * alpha || (nchw ? w[2] : w[1]) != c)
    return fail(loc, op, "weight must be [" + Twine(alpha * alpha) +
                             (nchw ? ", O, " + Twine(c) : ", " + Twine(c) + ", O") + "] (tile " +
                             Twine(m) + ", " + Twine(c) + " input channels, " +
                             adaptor.getDataLayout() + "), got [" + Twine(w[0]) + ", " +
                             Twine(w[1]) + ", " + Twine(w[2]) + "]");
  if (failed(checkChannelBias(loc, op, adaptor.getBias(), o)))
    return failure();
  ArrayRef<int64_t> p = adaptor.getPadding();
  int64_t oh = in[d->h] + p[0] + p[2] - 2, ow = in[d->w] + p[1] + p[3] - 2;
  if (oh < 1 || ow < 1)
    return fail(loc, op, "the 3x3 kernel is larger than the padded input " +
                             Twine(oh + 2) + "x" + Twine(ow + 2));
  results.push_back(
      RankedTensorType::get(imageShape(*d, in[d->n], o, oh, ow), input.getElementType()));
  return success();
}

LogicalResult DenseOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  StringRef op = "dense";
  auto input = rankedOf(adaptor.getInput());
  auto weight = rankedOf(adaptor.getWeight());
  if (failed(checkRank(loc, op, "weight", weight, 2)))
    return failure();
  if (!input || input.getRank() < 1)
    return fail(loc, op, "input must have rank >= 1");
  int64_t k = input.getShape().back();
  if (weight.getDimSize(1) != k)
    return fail(loc, op, "weight is [" + Twine(weight.getDimSize(0)) + ", " +
                             Twine(weight.getDimSize(1)) +
                             "] but input has " + Twine(k) +
                             " features (weight must be [out, in])");
  int64_t o = weight.getDimSize(0);
  if (Value bias = adaptor.getBias()) {
    auto b = rankedOf(bias);
    if (!b || b.getRank() != 1 || b.getDimSize(0) != o)
      return fail(loc, op, "bias must be 1-D with " + Twine(o) + " elements");
  }
  Shape shape(input.getShape());
  shape.back() = o;
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  StringRef op = "matmul";
  auto lhs = rankedOf(adaptor.getLhs()), rhs = rankedOf(adaptor.getRhs());
  if (!lhs || !rhs || lhs.getRank() < 1 || rhs.getRank() < 1)
    return fail(loc, op, "operands must have rank >= 1");
  Shape a(lhs.getShape()), b(rhs.getShape());
  bool vecA = a.size() == 1, vecB = b.size() == 1;
  if (vecA)
    a.insert(a.begin(), 1);
  if (vecB)
    b.push_back(1);
  if (a.back() != b[b.size() - 2])
    return fail(loc, op, "contraction sizes differ: lhs has " + Twine(a.back()) +
                             " columns, rhs has " + Twine(b[b.size() - 2]) +
                             " rows");
  std::optional<Shape> batch = broadcastShapes(ArrayRef(a).drop_back(2),
                                               ArrayRef(b).drop_back(2));
  if (!batch)
    return fail(loc, op, "batch dimensions " +
                             formatShape(ArrayRef(a).drop_back(2)) + " and " +
                             formatShape(ArrayRef(b).drop_back(2)) +
                             " do not broadcast");
  Shape shape = *batch;
  if (!vecA)
    shape.push_back(a[a.size() - 2]);
  if (!vecB)
    shape.push_back(b.back());
  results.push_back(RankedTensorType::get(shape, lhs.getElementType()));
  return success();
}

LogicalResult BatchMatmulOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  StringRef op = "batch_matmul";
  auto lhs = rankedOf(adaptor.getLhs()), rhs = rankedOf(adaptor.getRhs());
  if (failed(checkRank(loc, op, "lhs", lhs, 3)) ||
      failed(checkRank(loc, op, "rhs", rhs, 3)))
    return failure();
  ArrayRef<int64_t> a = lhs.getShape(), b = rhs.getShape();
  int64_t m = adaptor.getTransposeA() ? a[2] : a[1];
  int64_t ka = adaptor.getTransposeA() ? a[1] : a[2];
  int64_t kb = adaptor.getTransposeB() ? b[2] : b[1];
  int64_t n = adaptor.getTransposeB() ? b[1] : b[2];
  if (ka != kb)
    return fail(loc, op, "contraction sizes differ: lhs " + Twine(ka) +
                             ", rhs " + Twine(kb));
  if (a[0] != b[0] && a[0] != 1 && b[0] != 1)
    return fail(loc, op, "batch sizes " + Twine(a[0]) + " and " + Twine(b[0]) +
                             " differ and neither is 1");
  results.push_back(RankedTensorType::get({std::max(a[0], b[0]), m, n},
                                          lhs.getElementType()));
  return success();
}

LogicalResult BatchNormOp::verify() {
  int64_t rank = getInput().getType().getRank();
  std::optional<int64_t> axis = normalizeAxis(getAxis(), rank);
  if (!axis)
    return emitOpError(axisOutOfRange(getAxis(), rank));
  int64_t c = getInput().getType().getDimSize(*axis);
  auto param = getGamma().getType();
  if (param.getRank() != 1 || param.getDimSize(0) != c)
    return emitOpError("gamma, beta, mean and variance must be 1-D with ")
           << c << " elements (channels on axis " << *axis << "), got "
           << param;
  if (getEpsilon().convertToDouble() < 0)
    return emitOpError("epsilon must be >= 0");
  return success();
}

LogicalResult BiasAddOp::verify() {
  int64_t rank = getInput().getType().getRank();
  std::optional<int64_t> axis = normalizeAxis(getAxis(), rank);
  if (!axis)
    return emitOpError(axisOutOfRange(getAxis(), rank));
  int64_t c = getInput().getType().getDimSize(*axis);
  auto bias = getBias().getType();
  if (bias.getRank() != 1 || bias.getDimSize(0) != c)
    return emitOpError("bias must be 1-D with ")
           << c << " elements (size of axis " << *axis << "), got " << bias;
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult GeluOp::verify() {
  if (getApproximate() != "none" && getApproximate() != "tanh")
    return emitOpError("approximate must be \"none\" or \"tanh\", got \"")
           << getApproximate() << "\"";
  return success();
}

LogicalResult DropoutOp::verify() {
  double rate = getRate().convertToDouble();
  if (rate < 0 || rate >= 1)
    return emitOpError("rate must be in [0, 1), got ") << rate;
  return success();
}

LogicalResult ClipOp::verify() {
  if (getMin().convertToDouble() > getMax().convertToDouble())
    return emitOpError("min ") << getMin().convertToDouble()
                               << " is greater than max "
                               << getMax().convertToDouble();
  return success();
}

static LogicalResult inferBroadcast(std::optional<Location> loc, StringRef op,
                                    Value lhs, Value rhs,
                                    SmallVectorImpl<Type> &results) {
  auto a = rankedOf(lhs), b = rankedOf(rhs);
  if (!a || !b)
    return fail(loc, op, "operands must be ranked tensors");
  std::optional<Shape> shape = broadcastShapes(a.getShape(), b.getShape());
  if (!shape)
    return fail(loc, op, "shapes " + formatShape(a.getShape()) + " and " +
                             formatShape(b.getShape()) + " do not broadcast");
  results.push_back(RankedTensorType::get(*shape, a.getElementType()));
  return success();
}

#define DLC_BINARY_INFER(OP, NAME)                                             \
  LogicalResult OP::inferReturnTypes(MLIRContext *,                            \
                                     std::optional<Location> loc,             \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &results) {         \
    return inferBroadcast(loc, NAME, adaptor.getLhs(), adaptor.getRhs(),       \
                          results);                                            \
  }
DLC_BINARY_INFER(AddOp, "add")
DLC_BINARY_INFER(SubOp, "sub")
DLC_BINARY_INFER(MulOp, "mul")
DLC_BINARY_INFER(DivOp, "div")
DLC_BINARY_INFER(PowOp, "pow")
DLC_BINARY_INFER(MaximumOp, "maximum")
DLC_BINARY_INFER(MinimumOp, "minimum")
#undef DLC_BINARY_INFER

LogicalResult CompareOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  StringRef p = adaptor.getPredicate();
  if (!llvm::is_contained({"eq", "ne", "lt", "le", "gt", "ge"}, p))
    return fail(loc, "compare", "unknown predicate '" + p + "' (expected eq, ne, lt, le, gt or ge)");
  auto a = rankedOf(adaptor.getLhs()), b = rankedOf(adaptor.getRhs());
  if (a && b && a.getElementType() != b.getElementType())
    return fail(loc, "compare", "operands of different element types");
  if (a && a.getElementType().isInteger(1) && p != "eq" && p != "ne")
    return fail(loc, "compare", "booleans compare for eq and ne only, not '" + p + "'");
  if (failed(inferBroadcast(loc, "compare", adaptor.getLhs(), adaptor.getRhs(), results)))
    return failure();
  results[0] = RankedTensorType::get(cast<RankedTensorType>(results[0]).getShape(),
                                     IntegerType::get(ctx, 1));
  return success();
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto c = rankedOf(adaptor.getCondition()), t = rankedOf(adaptor.getTrueValue()),
       f = rankedOf(adaptor.getFalseValue());
  if (!c || !t || !f)
    return fail(loc, "select", "operands must be ranked tensors");
  if (t.getElementType() != f.getElementType())
    return fail(loc, "select", "true and false values of different element types");
  std::optional<Shape> shape = broadcastShapes(c.getShape(), t.getShape());
  if (shape)
    shape = broadcastShapes(*shape, f.getShape());
  if (!shape)
    return fail(loc, "select", "shapes " + formatShape(c.getShape()) + ", " +
                                   formatShape(t.getShape()) + " and " +
                                   formatShape(f.getShape()) + " do not broadcast");
  results.push_back(RankedTensorType::get(*shape, t.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling and normalization
//===----------------------------------------------------------------------===//

template <typename Adaptor>
static LogicalResult inferPool(std::optional<Location> loc, StringRef op,
                               Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto input = rankedOf(adaptor.getInput());
  if (failed(checkRank(loc, op, "input", input, 4)) ||
      failed(checkArraySize(loc, op, "kernel_size", adaptor.getKernelSize(), 2, 1)) ||
      failed(checkArraySize(loc, op, "strides", adaptor.getStrides(), 2, 1)) ||
      failed(checkArraySize(loc, op, "dilations", adaptor.getDilations(), 2, 1)) ||
      failed(checkArraySize(loc, op, "padding", adaptor.getPadding(), 4, 0)))
    return failure();
  FailureOr<ImageDims> d = imageDims(loc, op, adaptor.getLayout());
  if (failed(d))
    return failure();
  ArrayRef<int64_t> in = input.getShape(), k = adaptor.getKernelSize(),
                    s = adaptor.getStrides(), dil = adaptor.getDilations(),
                    p = adaptor.getPadding();
  auto window = [](int64_t k, int64_t d) { return static_cast<__int128>(k) * d; };
  if (p[0] >= window(k[0], dil[0]) || p[2] >= window(k[0], dil[0]) ||
      p[1] >= window(k[1], dil[1]) || p[3] >= window(k[1], dil[1]))
    return fail(loc, op, "padding must be smaller than the (dilated) kernel");
  int64_t spanH = in[d->h] + p[0] + p[2], spanW = in[d->w] + p[1] + p[3];
  if (!windowFits(spanH, k[0], dil[0]) || !windowFits(spanW, k[1], dil[1]))
    return fail(loc, op, "kernel " + Twine(k[0]) + "x" + Twine(k[1]) +
                             " is larger than the padded input " + Twine(spanH) +
                             "x" + Twine(spanW));
  bool ceil = adaptor.getCeilMode();
  int64_t oh = windowExtent(in[d->h], p[0], p[2], k[0], s[0], dil[0], ceil);
  int64_t ow = windowExtent(in[d->w], p[1], p[3], k[1], s[1], dil[1], ceil);
  results.push_back(RankedTensorType::get(
      imageShape(*d, in[d->n], in[d->c], oh, ow), input.getElementType()));
  return success();
}

LogicalResult MaxPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  return inferPool(loc, "max_pool2d", adaptor, results);
}

LogicalResult AvgPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  return inferPool(loc, "avg_pool2d", adaptor, results);
}

LogicalResult GlobalAvgPool2DOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  StringRef op = "global_avg_pool2d";
  auto input = rankedOf(adaptor.getInput());
  if (failed(checkRank(loc, op, "input", input, 4)))
    return failure();
  FailureOr<ImageDims> d = imageDims(loc, op, adaptor.getLayout());
  if (failed(d))
    return failure();
  ArrayRef<int64_t> in = input.getShape();
  results.push_back(RankedTensorType::get(
      imageShape(*d, in[d->n], in[d->c], 1, 1), input.getElementType()));
  return success();
}

static LogicalResult verifySoftmaxAxis(Operation *op, RankedTensorType input, int64_t axis) {
  if (!normalizeAxis(axis, input.getRank()))
    return op->emitOpError(axisOutOfRange(axis, input.getRank()));
  return success();
}
LogicalResult SoftmaxOp::verify() {
  return verifySoftmaxAxis(*this, getInput().getType(), getAxis());
}
LogicalResult FastSoftmaxOp::verify() {
  return verifySoftmaxAxis(*this, getInput().getType(), getAxis());
}

LogicalResult LayerNormOp::verify() {
  auto input = getInput().getType();
  std::optional<int64_t> axis = normalizeAxis(getAxis(), input.getRank());
  if (!axis)
    return emitOpError(axisOutOfRange(getAxis(), input.getRank()));
  ArrayRef<int64_t> normalized = input.getShape().drop_front(*axis);
  if (getGamma().getType().getShape() != normalized)
    return emitOpError("gamma and beta must have the normalized shape ")
           << formatShape(normalized) << ", got "
           << formatShape(getGamma().getType().getShape());
  if (getEpsilon().convertToDouble() < 0)
    return emitOpError("epsilon must be >= 0");
  return success();
}

template <typename Adaptor>
static LogicalResult inferReduce(std::optional<Location> loc, StringRef op,
                                 Adaptor adaptor,
                                 SmallVectorImpl<Type> &results) {
  auto input = rankedOf(adaptor.getInput());
  if (!input)
    return fail(loc, op, "input must be a ranked tensor");
  SmallVector<int64_t> axes;
  if (failed(normalizeAxes(loc, op, adaptor.getAxes(), input.getRank(), axes)))
    return failure();
  Shape shape;
  for (int64_t i = 0, e = input.getRank(); i < e; ++i) {
    bool reduced = axes.empty() || llvm::is_contained(axes, i);
    if (!reduced)
      shape.push_back(input.getDimSize(i));
    else if (adaptor.getKeepdims())
      shape.push_back(1);
  }
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

#define DLC_REDUCE_INFER(OP, NAME)                                             \
  LogicalResult OP::inferReturnTypes(MLIRContext *,                            \
                                     std::optional<Location> loc,             \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &results) {         \
    return inferReduce(loc, NAME, adaptor, results);                           \
  }
DLC_REDUCE_INFER(ReduceSumOp, "reduce_sum")
DLC_REDUCE_INFER(ReduceMeanOp, "reduce_mean")
DLC_REDUCE_INFER(ReduceMaxOp, "reduce_max")
DLC_REDUCE_INFER(ReduceMinOp, "reduce_min")
DLC_REDUCE_INFER(ReduceProdOp, "reduce_prod")
#undef DLC_REDUCE_INFER

template <typename Adaptor>
static LogicalResult inferArgReduce(std::optional<Location> loc, StringRef op, Adaptor adaptor,
                                    SmallVectorImpl<Type> &results) {
  auto input = rankedOf(adaptor.getInput());
  if (!input || input.getRank() < 1)
    return fail(loc, op, "input must be a ranked tensor of rank >= 1");
  std::optional<int64_t> axis = normalizeAxis(adaptor.getAxis(), input.getRank());
  if (!axis)
    return fail(loc, op, axisOutOfRange(adaptor.getAxis(), input.getRank()));
  Shape shape;
  for (int64_t i = 0, e = input.getRank(); i < e; ++i)
    if (i != *axis)
      shape.push_back(input.getDimSize(i));
    else if (adaptor.getKeepdims())
      shape.push_back(1);
  results.push_back(RankedTensorType::get(shape, IntegerType::get(input.getContext(), 64)));
  return success();
}

LogicalResult ArgMaxOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  return inferArgReduce(loc, "arg_max", adaptor, results);
}
LogicalResult ArgMinOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  return inferArgReduce(loc, "arg_min", adaptor, results);
}

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  StringRef op = "transpose";
  auto input = rankedOf(adaptor.getInput());
  ArrayRef<int64_t> perm = adaptor.getPerm();
  if (!input)
    return fail(loc, op, "input must be a ranked tensor");
  if (static_cast<int64_t>(perm.size()) != input.getRank())
    return fail(loc, op, "perm has " + Twine(perm.size()) +
                             " entries, input has rank " +
                             Twine(input.getRank()));
  SmallVector<int64_t> axes;
  if (failed(normalizeAxes(loc, op, perm, input.getRank(), axes)))
    return failure();
  Shape shape;
  for (int64_t a : axes)
    shape.push_back(input.getDimSize(a));
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto in = getInput().getType(), out = getOutput().getType();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("cannot reshape ")
           << formatShape(in.getShape()) << " (" << in.getNumElements()
           << " elements) to " << formatShape(out.getShape()) << " ("
           << out.getNumElements() << " elements)";
  return success();
}

LogicalResult DynamicReshapeOp::verify() {
  auto shape = getShape().getType();
  if (shape.getRank() != 1)
    return emitOpError("shape operand must be 1-D, got rank ")
           << shape.getRank();
  if (shape.getDimSize(0) != getOutput().getType().getRank())
    return emitOpError("shape operand has ")
           << shape.getDimSize(0) << " entries but the result has rank "
           << getOutput().getType().getRank();
  if (getInput().getType().getNumElements() !=
      getOutput().getType().getNumElements())
    return emitOpError("input and result element counts differ (")
           << getInput().getType().getNumElements() << " vs "
           << getOutput().getType().getNumElements() << ")";
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  StringRef op = "concat";
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return fail(loc, op, "needs at least one input");
  auto first = rankedOf(inputs.front());
  if (!first)
    return fail(loc, op, "inputs must be ranked tensors");
  std::optional<int64_t> axis = normalizeAxis(adaptor.getAxis(), first.getRank());
  if (!axis)
    return fail(loc, op, axisOutOfRange(adaptor.getAxis(), first.getRank()));
  Shape shape(first.getShape());
  for (auto [i, v] : llvm::enumerate(inputs.drop_front())) {
    auto t = rankedOf(v);
    if (!t || t.getRank() != first.getRank())
      return fail(loc, op, "input " + Twine(i + 1) + " has a different rank");
    for (int64_t d = 0; d < first.getRank(); ++d)
      if (d != *axis && t.getDimSize(d) != first.getDimSize(d))
        return fail(loc, op, "input " + Twine(i + 1) + " has shape " +
                                 formatShape(t.getShape()) +
                                 ", which differs from input 0 (" +
                                 formatShape(first.getShape()) +
                                 ") outside axis " + Twine(*axis));
    shape[*axis] += t.getDimSize(*axis);
  }
  results.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

LogicalResult SplitOp::verify() {
  auto input = getInput().getType();
  std::optional<int64_t> axis = normalizeAxis(getAxis(), input.getRank());
  if (!axis)
    return emitOpError(axisOutOfRange(getAxis(), input.getRank()));
  int64_t total = 0;
  for (auto [i, v] : llvm::enumerate(getOutputs())) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getRank() != input.getRank())
      return emitOpError("result ") << i << " has rank " << t.getRank()
                                    << ", expected " << input.getRank();
    for (int64_t d = 0; d < input.getRank(); ++d)
      if (d != *axis && t.getDimSize(d) != input.getDimSize(d))
        return emitOpError("result ")
               << i << " differs from the input outside axis " << *axis;
    total += t.getDimSize(*axis);
  }
  if (total != input.getDimSize(*axis))
    return emitOpError("result sizes along axis ")
           << *axis << " add up to " << total << ", input has "
           << input.getDimSize(*axis);
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  StringRef op = "slice";
  auto input = rankedOf(adaptor.getInput());
  if (!input)
    return fail(loc, op, "input must be a ranked tensor");
  int64_t rank = input.getRank();
  ArrayRef<int64_t> starts = adaptor.getStarts(), ends = adaptor.getEnds(),
                    steps = adaptor.getSteps();
  if (failed(checkArraySize(loc, op, "starts", starts, rank, INT64_MIN)) ||
      failed(checkArraySize(loc, op, "ends", ends, rank, INT64_MIN)) ||
      failed(checkArraySize(loc, op, "steps", steps, rank, INT64_MIN)))
    return failure();
  Shape shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = input.getDimSize(d), b = starts[d], e = ends[d], s = steps[d];
    if (s == 0)
      return fail(loc, op, "step of dimension " + Twine(d) + " is 0");
    bool ok = s > 0 ? (0 <= b && b <= e && e <= dim)
                    : (-1 <= e && e <= b && b < dim);
    if (!ok)
      return fail(loc, op, "dimension " + Twine(d) + " of size " + Twine(dim) +
                               ": start " + Twine(b) + ", end " + Twine(e) +
                               ", step " + Twine(s) + " is out of range");
    int64_t span = s > 0 ? e - b : b - e, step = s > 0 ? s : -s;
    shape.push_back((span + step - 1) / step);
  }
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  StringRef op = "pad";
  auto input = rankedOf(adaptor.getInput());
  if (!input)
    return fail(loc, op, "input must be a ranked tensor");
  int64_t rank = input.getRank();
  ArrayRef<int64_t> before = adaptor.getPadBefore(), after = adaptor.getPadAfter();
  if (failed(checkArraySize(loc, op, "pad_before", before, rank, 0)) ||
      failed(checkArraySize(loc, op, "pad_after", after, rank, 0)))
    return failure();
  StringRef mode = adaptor.getMode();
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return fail(loc, op, "mode must be \"constant\", \"reflect\" or \"edge\", "
                         "got \"" + mode + "\"");
  Shape shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = input.getDimSize(d);
    if (mode == "reflect" && (before[d] >= dim || after[d] >= dim))
      return fail(loc, op, "reflect padding of dimension " + Twine(d) +
                               " must be smaller than its size " + Twine(dim));
    if (mode == "edge" && dim == 0 && before[d] + after[d] > 0)
      return fail(loc, op, "edge padding of the empty dimension " + Twine(d));
    shape.push_back(dim + before[d] + after[d]);
  }
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  StringRef op = "gather";
  auto data = rankedOf(adaptor.getData()), indices = rankedOf(adaptor.getIndices());
  if (!data || !indices || data.getRank() < 1)
    return fail(loc, op, "data must have rank >= 1 and indices must be ranked");
  std::optional<int64_t> axis = normalizeAxis(adaptor.getAxis(), data.getRank());
  if (!axis)
    return fail(loc, op, axisOutOfRange(adaptor.getAxis(), data.getRank()));
  Shape shape(data.getShape().take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, data.getShape().drop_front(*axis + 1));
  results.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

LogicalResult ResizeOp::verify() {
  auto in = getInput().getType(), out = getOutput().getType();
  int64_t rank = in.getRank();
  if (out.getRank() != rank)
    return emitOpError("result rank ") << out.getRank() << " differs from the input's " << rank;
  if (static_cast<int64_t>(getScales().size()) != rank)
    return emitOpError("has ") << getScales().size() << " scales for rank " << rank;
  for (double s : getScales())
    if (!(s > 0) || !std::isfinite(s))
      return emitOpError("scales must be positive and finite, got ") << s;
  for (int64_t d = 0; d < rank; ++d)
    if (in.getDimSize(d) == 0 && out.getDimSize(d) != 0)
      return emitOpError("cannot resize the empty dimension ") << d << " to "
                                                               << out.getDimSize(d);
  if (!isResizeMode(getMode()))
    return emitOpError("unknown mode '") << getMode() << "' (nearest, linear or cubic)";
  if (!isResizeCoordinates(getCoordinateTransformationMode()))
    return emitOpError("unknown coordinate_transformation_mode '")
           << getCoordinateTransformationMode() << "'";
  if (!isResizeNearest(getNearestMode()))
    return emitOpError("unknown nearest_mode '") << getNearestMode() << "'";
  if (getMode() != "nearest" && !isa<FloatType>(in.getElementType()))
    return emitOpError(getMode()) << " interpolation needs floating-point elements";
  if (!getRoi().empty() && static_cast<int64_t>(getRoi().size()) != 2 * rank)
    return emitOpError("has ") << getRoi().size() << " roi values for rank " << rank
                               << " (starts then ends: " << 2 * rank << ")";
  return success();
}

LogicalResult GatherElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &results) {
  StringRef op = "gather_elements";
  auto data = rankedOf(adaptor.getData()), indices = rankedOf(adaptor.getIndices());
  if (!data || !indices || data.getRank() < 1)
    return fail(loc, op, "data must have rank >= 1 and indices must be ranked");
  if (indices.getRank() != data.getRank())
    return fail(loc, op, "indices have rank " + Twine(indices.getRank()) + ", data rank " +
                             Twine(data.getRank()) + " (they must be equal)");
  std::optional<int64_t> axis = normalizeAxis(adaptor.getAxis(), data.getRank());
  if (!axis)
    return fail(loc, op, axisOutOfRange(adaptor.getAxis(), data.getRank()));
  for (int64_t d = 0; d < data.getRank(); ++d)
    if (d != *axis && indices.getDimSize(d) > data.getDimSize(d))
      return fail(loc, op, "indices " + formatShape(indices.getShape()) +
                               " are larger than data " + formatShape(data.getShape()) +
                               " in dimension " + Twine(d) + ", which is not the axis");
  results.push_back(RankedTensorType::get(indices.getShape(), data.getElementType()));
  return success();
}

LogicalResult ExpandDimsOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  StringRef op = "expand_dims";
  auto input = rankedOf(adaptor.getInput());
  if (!input)
    return fail(loc, op, "input must be a ranked tensor");
  int64_t outRank = input.getRank() + adaptor.getAxes().size();
  SmallVector<int64_t> axes;
  if (failed(normalizeAxes(loc, op, adaptor.getAxes(), outRank, axes)))
    return failure();
  Shape shape;
  for (int64_t i = 0, next = 0; i < outRank; ++i)
    shape.push_back(llvm::is_contained(axes, i) ? 1 : input.getDimSize(next++));
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  StringRef op = "squeeze";
  auto input = rankedOf(adaptor.getInput());
  if (!input)
    return fail(loc, op, "input must be a ranked tensor");
  SmallVector<int64_t> axes;
  if (failed(normalizeAxes(loc, op, adaptor.getAxes(), input.getRank(), axes)))
    return failure();
  for (int64_t a : axes)
    if (input.getDimSize(a) != 1)
      return fail(loc, op, "dimension " + Twine(a) + " has size " +
                               Twine(input.getDimSize(a)) + ", not 1");
  Shape shape;
  for (int64_t i = 0, e = input.getRank(); i < e; ++i) {
    bool squeezed = axes.empty() ? input.getDimSize(i) == 1
                                 : llvm::is_contained(axes, i);
    if (!squeezed)
      shape.push_back(input.getDimSize(i));
  }
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult LayoutTransformOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  StringRef op = "layout_transform";
  auto input = rankedOf(adaptor.getInput());
  if (!input)
    return fail(loc, op, "input must be a ranked tensor");
  std::string error;
  std::optional<Layout> src = Layout::parse(adaptor.getSrcLayout(), error);
  if (!src)
    return fail(loc, op, "src_layout: " + error);
  std::optional<Layout> dst = Layout::parse(adaptor.getDstLayout(), error);
  if (!dst)
    return fail(loc, op, "dst_layout: " + error);
  std::optional<Shape> shape = dst->convertShape(*src, input.getShape(), error);
  if (!shape)
    return fail(loc, op, error);
  results.push_back(RankedTensorType::get(*shape, input.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

/// Scale and zero point are both scalars (per-tensor) or both 1-D with one
/// value per index of `axis` (per-axis).
static LogicalResult verifyQuantParams(Operation *op, RankedTensorType data,
                                       RankedTensorType scale,
                                       RankedTensorType zeroPoint,
                                       int64_t axisAttr) {
  if (scale.getShape() != zeroPoint.getShape())
    return op->emitOpError("scale and zero_point must have the same shape");
  if (scale.getNumElements() == 1 && scale.getRank() <= 1)
    return success();
  std::optional<int64_t> axis = normalizeAxis(axisAttr, data.getRank());
  if (!axis)
    return op->emitOpError(axisOutOfRange(axisAttr, data.getRank()));
  if (scale.getRank() != 1 || scale.getDimSize(0) != data.getDimSize(*axis))
    return op->emitOpError("per-axis scale must be 1-D with ")
           << data.getDimSize(*axis) << " elements (size of axis " << *axis
           << "), got " << scale;
  return success();
}

LogicalResult QuantizeOp::verify() {
  return verifyQuantParams(*this, getInput().getType(), getScale().getType(),
                           getZeroPoint().getType(), getAxis());
}

LogicalResult DequantizeOp::verify() {
  return verifyQuantParams(*this, getInput().getType(), getScale().getType(),
                           getZeroPoint().getType(), getAxis());
}

//===----------------------------------------------------------------------===//
// Detection
//===----------------------------------------------------------------------===//

LogicalResult NmsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  StringRef op = "nms";
  auto boxes = rankedOf(adaptor.getBoxes()), scores = rankedOf(adaptor.getScores());
  if (failed(checkRank(loc, op, "boxes", boxes, 3)) ||
      failed(checkRank(loc, op, "scores", scores, 3)))
    return failure();
  if (boxes.getDimSize(2) != 4)
    return fail(loc, op, "boxes must be [N, B, 4], got " +
                             formatShape(boxes.getShape()));
  if (scores.getDimSize(0) != boxes.getDimSize(0) ||
      scores.getDimSize(2) != boxes.getDimSize(1))
    return fail(loc, op, "scores must be [N, C, B] = [" +
                             Twine(boxes.getDimSize(0)) + ", C, " +
                             Twine(boxes.getDimSize(1)) + "], got " +
                             formatShape(scores.getShape()));
  int64_t k = adaptor.getMaxDetections();
  if (k < 1)
    return fail(loc, op, "max_detections must be >= 1, got " + Twine(k));
  double iou = adaptor.getIouThreshold().convertToDouble();
  if (iou < 0 || iou > 1)
    return fail(loc, op, "iou_threshold must be in [0, 1], got " + std::to_string(iou));
  int64_t n = boxes.getDimSize(0);
  Type f = boxes.getElementType();
  results.push_back(RankedTensorType::get({n, k, 4}, f));
  results.push_back(RankedTensorType::get({n, k}, scores.getElementType()));
  results.push_back(
      RankedTensorType::get({n, k}, IntegerType::get(f.getContext(), 64)));
  return success();
}

//===----------------------------------------------------------------------===//
// Region ops
//===----------------------------------------------------------------------===//

static LogicalResult verifyRegionOp(Operation *op, ValueRange inputs) {
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != inputs.size())
    return op->emitOpError("body has ")
           << body.getNumArguments() << " arguments but the op has "
           << inputs.size() << " inputs";
  for (auto [i, arg, in] : llvm::enumerate(body.getArguments(), inputs))
    if (arg.getType() != in.getType())
      return op->emitOpError("body argument ")
             << i << " has type " << arg.getType() << " but input " << i
             << " has type " << in.getType();
  Operation *term = body.getTerminator();
  if (term->getOperandTypes() != op->getResultTypes())
    return op->emitOpError("graph.yield types do not match the results");
  return success();
}

LogicalResult FusedOp::verify() { return verifyRegionOp(*this, getInputs()); }
LogicalResult CompositeOp::verify() {
  if (getName().empty())
    return emitOpError("name must not be empty");
  return verifyRegionOp(*this, getInputs());
}

void dlc::graph::inlineRegionOp(Operation *regionOp) {
  assert((isa<FusedOp, CompositeOp>(regionOp)) && "not a graph region op");
  Block &body = regionOp->getRegion(0).front();
  for (auto [arg, in] : llvm::zip(body.getArguments(), regionOp->getOperands()))
    arg.replaceAllUsesWith(in);
  Operation *yield = body.getTerminator();
  regionOp->replaceAllUsesWith(yield->getOperands());
  yield->erase();
  regionOp->getBlock()->getOperations().splice(regionOp->getIterator(), body.getOperations());
  regionOp->erase();
}

#define GET_OP_CLASSES
#include "dlc/Dialect/Graph/GraphOps.cpp.inc"
