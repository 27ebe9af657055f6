//===- Interpreter.cpp - the reference interpreter -------------------------===//
//
// One evaluation function per op family, written as direct loops over
// row-major data. Speed is secondary; being obviously right is the point.
//
//===----------------------------------------------------------------------===//
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Memory.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Support/Layout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

std::optional<DType> dlc::dtypeOf(Type t) {
  if (t.isF32()) return DType::F32;
  if (t.isF16()) return DType::F16;
  if (t.isBF16()) return DType::BF16;
  if (t.isF64()) return DType::F64;
  if (t.isInteger(1)) return DType::I1;
  if (t.isInteger(8)) return DType::I8;
  if (t.isInteger(32)) return DType::I32;
  if (t.isInteger(64)) return DType::I64;
  return std::nullopt;
}

Type dlc::mlirElementType(DType type, MLIRContext *ctx) {
  Builder b(ctx);
  switch (type) {
  case DType::F32: return b.getF32Type();
  case DType::F16: return b.getF16Type();
  case DType::BF16: return b.getBF16Type();
  case DType::F64: return b.getF64Type();
  case DType::I8: return b.getI8Type();
  case DType::I32: return b.getI32Type();
  case DType::I64: return b.getI64Type();
  case DType::I1: return b.getI1Type();
  }
  return {};
}

ElementsAttr dlc::elementsAttrFromTensor(const Tensor &t, MLIRContext *ctx,
                                         StringRef name,
                                         int64_t maxDenseElements) {
  auto type = RankedTensorType::get(t.shape, mlirElementType(t.dtype, ctx));
  bool splat = !t.data.empty() &&
               llvm::all_of(t.data, [&](double v) { return v == t.data[0]; });
  // Booleans (masks, never weights) stay dense: the backends read their
  // values.
  if (t.size() <= maxDenseElements || splat || t.dtype == DType::I1) {
    int64_t n = splat ? 1 : t.size();
    if (isFloat(t.dtype)) {
      const llvm::fltSemantics &sem =
          cast<FloatType>(type.getElementType()).getFloatSemantics();
      SmallVector<APFloat> values;
      for (int64_t i = 0; i < n; ++i) {
        APFloat f(t.data[i]);
        bool lost;
        f.convert(sem, APFloat::rmNearestTiesToEven, &lost);
        values.push_back(f);
      }
      return DenseElementsAttr::get(type, values);
    }
    unsigned width = type.getElementType().getIntOrFloatBitWidth();
    SmallVector<APInt> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(APInt(width, static_cast<int64_t>(t.data[i]),
                             /*isSigned=*/true, /*implicitTrunc=*/true));
    return DenseElementsAttr::get(type, values);
  }
  int64_t width = dtypeBytes(t.dtype);
  std::vector<char> bytes(t.size() * width);
  if (t.dtype == DType::F32) { // weights: no per-element dispatch
    for (int64_t i = 0; i < t.size(); ++i) {
      float f = static_cast<float>(t.data[i]);
      std::memcpy(bytes.data() + i * 4, &f, 4);
    }
  } else {
    for (int64_t i = 0; i < t.size(); ++i)
      encodeElement(t.dtype, t.data[i], bytes.data() + i * width);
  }
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(bytes), alignof(uint64_t));
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}

FailureOr<Tensor> dlc::tensorFromAttr(ElementsAttr attr, Location loc) {
  auto type = cast<ShapedType>(attr.getType());
  std::optional<DType> dtype = dtypeOf(type.getElementType());
  if (!dtype || !type.hasStaticShape() || !checkedNumElements(type.getShape()))
    return emitError(loc, "constant of type ") << type << " is not supported";
  std::string tooLarge = checkFitsInMemory(
      static_cast<uint64_t>(type.getNumElements()) * sizeof(double));
  if (!tooLarge.empty())
    return emitError(loc, "constant of type ") << type << " " << tooLarge;
  Tensor t(*dtype, type.getShape());
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (isFloat(*dtype)) {
      int64_t i = 0;
      for (const APFloat &v : dense.getValues<APFloat>())
        t.data[i++] = v.convertToDouble();
    } else {
      int64_t i = 0;
      for (const APInt &v : dense.getValues<APInt>())
        t.data[i++] = *dtype == DType::I1 ? double(!v.isZero())
                                           : double(v.getSExtValue());
    }
    return t;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitError(loc, "constant: dense_resource payload '")
             << resource.getRawHandle().getKey()
             << "' is missing (no dialect_resources entry)";
    ArrayRef<char> bytes = blob->getData();
    int64_t width = dtypeBytes(*dtype);
    if (static_cast<int64_t>(bytes.size()) != t.size() * width)
      return emitError(loc, "constant: dense_resource payload '")
             << resource.getRawHandle().getKey() << "' has " << bytes.size()
             << " bytes, type " << type << " needs " << t.size() * width;
    if (*dtype == DType::F32) { // weights: no per-element dispatch
      for (int64_t i = 0; i < t.size(); ++i) {
        float f;
        std::memcpy(&f, bytes.data() + i * 4, 4);
        t.data[i] = f;
      }
      return t;
    }
    for (int64_t i = 0; i < t.size(); ++i)
      t.data[i] = decodeElement(*dtype, bytes.data() + i * width);
    return t;
  }
  return emitError(loc, "constant payload kind is not supported: ") << attr;
}

static std::string describeType(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  std::optional<DType> dtype = t ? dtypeOf(t.getElementType()) : std::nullopt;
  if (!dtype)
    return "unsupported";
  return (dtypeName(*dtype) + "[" + formatShape(t.getShape()) + "]").str();
}

llvm::Error dlc::checkInputs(FunctionType type, ArrayRef<Tensor> inputs) {
  if (type.getNumInputs() != inputs.size())
    return llvm::createStringError(
        "the function takes " + std::to_string(type.getNumInputs()) +
        " inputs, " + std::to_string(inputs.size()) + " given");
  for (auto [i, argType, tensor] : llvm::enumerate(type.getInputs(), inputs)) {
    std::string want = describeType(argType);
    if (want != tensor.describe())
      return llvm::createStringError("input " + std::to_string(i) +
                                     ": expected " + want + ", got " +
                                     tensor.describe());
  }
  return llvm::Error::success();
}

namespace {

/// Calls fn(index) for every multi-index of `shape` in row-major order.
template <typename Fn>
void forEachIndex(ArrayRef<int64_t> shape, Fn fn) {
  int64_t n = numElements(shape);
  SmallVector<int64_t> idx(shape.size(), 0);
  for (int64_t linear = 0; linear < n; ++linear) {
    fn(ArrayRef<int64_t>(idx), linear);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
}

static int64_t dot(ArrayRef<int64_t> idx, ArrayRef<int64_t> strides) {
  int64_t off = 0;
  for (size_t i = 0; i < idx.size(); ++i)
    off += idx[i] * strides[i];
  return off;
}

/// max and min as ONNX (and IEEE 754-2019 maximum/minimum, which the CPU's
/// arith.maximumf/minimumf compute) define them: a NaN operand gives NaN.
static double nanMax(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN()
                                        : std::max(a, b);
}
static double nanMin(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN()
                                        : std::min(a, b);
}

/// A result tensor shaped like `v`'s type.
static Tensor resultFor(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return Tensor(*dtypeOf(type.getElementType()), type.getShape());
}

static void roundAll(Tensor &t) {
  if (t.dtype == DType::F64)
    return;
  for (double &v : t.data)
    v = roundToDType(t.dtype, v);
}

/// Strides of the N, C, H, W dimensions of an image in `layout`.
struct ImageView {
  int64_t n, c, h, w;     // sizes
  int64_t sn, sc, sh, sw; // strides
};

static ImageView imageView(ArrayRef<int64_t> shape, StringRef layout) {
  Shape st = rowMajorStrides(shape);
  if (layout == "NHWC")
    return {shape[0], shape[3], shape[1], shape[2], st[0], st[3], st[1], st[2]};
  return {shape[0], shape[1], shape[2], shape[3], st[0], st[1], st[2], st[3]};
}

class Interpreter {
public:
  explicit Interpreter(Operation *symbolScope) : scope(symbolScope) {}

  FailureOr<std::vector<Tensor>> runBlock(Block &block, ArrayRef<Tensor> args);
  FailureOr<std::vector<Tensor>> evalOne(Operation *op,
                                         ArrayRef<Tensor> operands) {
    SmallVector<const Tensor *> in;
    for (const Tensor &t : operands)
      in.push_back(&t);
    std::vector<Tensor> out;
    if (failed(eval(op, in, out)))
      return failure();
    return out;
  }

private:
  LogicalResult eval(Operation *op, ArrayRef<const Tensor *> in,
                     std::vector<Tensor> &out);
  LogicalResult evalConv(Conv2DOp op, const Tensor &x, const Tensor &w,
                         const Tensor *b, Tensor &y);
  template <typename PoolOp>
  void evalPool(PoolOp op, const Tensor &x, Tensor &y, bool isMax);

  Operation *scope;
};

FailureOr<std::vector<Tensor>> Interpreter::runBlock(Block &block,
                                                     ArrayRef<Tensor> args) {
  llvm::DenseMap<Value, Tensor> env;
  llvm::DenseMap<Value, int64_t> usesLeft;
  auto define = [&](Value v, Tensor t) {
    usesLeft[v] = std::distance(v.use_begin(), v.use_end());
    env[v] = std::move(t);
  };
  for (auto [arg, t] : llvm::zip(block.getArguments(), args))
    define(arg, t);
  for (Operation &op : block) {
    SmallVector<const Tensor *> in;
    for (Value operand : op.getOperands()) {
      auto it = env.find(operand);
      if (it == env.end())
        return op.emitError("reference interpreter: operand is not defined in "
                            "this block");
      in.push_back(&it->second);
    }
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      std::vector<Tensor> results;
      for (const Tensor *t : in)
        results.push_back(*t);
      return results;
    }
    std::vector<Tensor> out;
    if (failed(eval(&op, in, out)))
      return failure();
    for (auto [v, t] : llvm::zip(op.getResults(), out))
      define(v, std::move(t));
    // Free every tensor after its last use.
    for (Value operand : op.getOperands())
      if (--usesLeft[operand] == 0)
        env.erase(operand);
  }
  return emitError(block.getParentOp()->getLoc(),
                   "reference interpreter: block has no terminator");
}

LogicalResult Interpreter::evalConv(Conv2DOp op, const Tensor &x,
                                    const Tensor &w, const Tensor *b,
                                    Tensor &y) {
  ImageView xi = imageView(x.shape, op.getDataLayout());
  ImageView yi = imageView(y.shape, op.getDataLayout());
  Shape ws = rowMajorStrides(w.shape);
  bool oihw = op.getKernelLayout() == "OIHW";
  // Strides of weight dims O, I, KH, KW.
  int64_t so = oihw ? ws[0] : ws[3], si = oihw ? ws[1] : ws[2];
  int64_t skh = oihw ? ws[2] : ws[0], skw = oihw ? ws[3] : ws[1];
  int64_t kh = oihw ? w.shape[2] : w.shape[0];
  int64_t kw = oihw ? w.shape[3] : w.shape[1];
  int64_t groups = op.getGroups();
  int64_t icPerGroup = xi.c / groups, ocPerGroup = yi.c / groups;
  ArrayRef<int64_t> s = op.getStrides(), d = op.getDilations(),
                    p = op.getPadding();
  // Each output accumulates its terms in (ic, r, c) order, as a plain
  // seven-deep loop would; the loops are arranged so the innermost one runs
  // along an output row, which keeps big models tolerable.
  for (int64_t n = 0; n < yi.n; ++n)
    for (int64_t oc = 0; oc < yi.c; ++oc) {
      int64_t g = oc / ocPerGroup;
      double *py = y.data.data() + n * yi.sn + oc * yi.sc;
      for (int64_t oh = 0; oh < yi.h; ++oh)
        for (int64_t ow = 0; ow < yi.w; ++ow)
          py[oh * yi.sh + ow * yi.sw] = b ? b->data[oc] : 0.0;
      for (int64_t ic = 0; ic < icPerGroup; ++ic) {
        const double *px = x.data.data() + n * xi.sn + (g * icPerGroup + ic) * xi.sc;
        for (int64_t r = 0; r < kh; ++r)
          for (int64_t c = 0; c < kw; ++c) {
            double wv = w.data[oc * so + ic * si + r * skh + c * skw];
            // Output columns whose input column is inside the image.
            int64_t off = c * d[1] - p[1];
            int64_t owLo = off >= 0 ? 0 : (-off + s[1] - 1) / s[1];
            int64_t owHi = xi.w - 1 - off < 0 ? -1 : (xi.w - 1 - off) / s[1];
            owHi = std::min(owHi, yi.w - 1);
            for (int64_t oh = 0; oh < yi.h; ++oh) {
              int64_t ih = oh * s[0] - p[0] + r * d[0];
              if (ih < 0 || ih >= xi.h)
                continue;
              const double *row = px + ih * xi.sh;
              double *out = py + oh * yi.sh;
              for (int64_t ow = owLo; ow <= owHi; ++ow)
                out[ow * yi.sw] += wv * row[(ow * s[1] + off) * xi.sw];
            }
          }
      }
    }
  return success();
}

template <typename PoolOp>
void Interpreter::evalPool(PoolOp op, const Tensor &x, Tensor &y, bool isMax) {
  ImageView xi = imageView(x.shape, op.getLayout());
  ImageView yi = imageView(y.shape, op.getLayout());
  ArrayRef<int64_t> k = op.getKernelSize(), s = op.getStrides(),
                    d = op.getDilations(), p = op.getPadding();
  bool countPad = false;
  if constexpr (std::is_same_v<PoolOp, AvgPool2DOp>)
    countPad = op.getCountIncludePad();
  for (int64_t n = 0; n < yi.n; ++n)
    for (int64_t c = 0; c < yi.c; ++c)
      for (int64_t oh = 0; oh < yi.h; ++oh)
        for (int64_t ow = 0; ow < yi.w; ++ow) {
          double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
          int64_t count = 0;
          for (int64_t r = 0; r < k[0]; ++r)
            for (int64_t q = 0; q < k[1]; ++q) {
              int64_t ih = oh * s[0] - p[0] + r * d[0];
              int64_t iw = ow * s[1] - p[1] + q * d[1];
              bool inside = ih >= 0 && ih < xi.h && iw >= 0 && iw < xi.w;
              bool inPadded = ih < xi.h + p[2] && iw < xi.w + p[3];
              if (!inside) {
                count += countPad && inPadded;
                continue;
              }
              double v = x.data[n * xi.sn + c * xi.sc + ih * xi.sh + iw * xi.sw];
              acc = isMax ? nanMax(acc, v) : acc + v;
              ++count;
            }
          if (!isMax)
            acc = count ? acc / count : 0.0;
          y.data[n * yi.sn + c * yi.sc + oh * yi.sh + ow * yi.sw] = acc;
        }
}

/// y = f(a, b) with numpy broadcasting.
template <typename Fn>
static void broadcastBinary(const Tensor &a, const Tensor &b, Tensor &y, Fn f) {
  if (y.shape.empty()) {
    y.data[0] = f(a.data[0], b.data[0]);
    return;
  }
  // Row by row along the innermost dimension: the offsets of a row's first
  // element are computed once, then stepped by the innermost strides.
  Shape sa = broadcastStrides(a.shape, y.shape);
  Shape sb = broadcastStrides(b.shape, y.shape);
  int64_t inner = y.shape.back(), ia = sa.back(), ib = sb.back();
  ArrayRef<int64_t> outer = ArrayRef<int64_t>(y.shape).drop_back();
  if (inner == 0)
    return;
  forEachIndex(outer, [&](ArrayRef<int64_t> idx, int64_t row) {
    const double *pa = a.data.data() + dot(idx, sa);
    const double *pb = b.data.data() + dot(idx, sb);
    double *py = y.data.data() + row * inner;
    for (int64_t i = 0; i < inner; ++i)
      py[i] = f(pa[i * ia], pb[i * ib]);
  });
}

/// y = c ? t : f with numpy broadcasting of the three.
static void broadcastSelect(const Tensor &c, const Tensor &t, const Tensor &f, Tensor &y) {
  Shape sc = broadcastStrides(c.shape, y.shape), st = broadcastStrides(t.shape, y.shape),
        sf = broadcastStrides(f.shape, y.shape);
  forEachIndex(y.shape, [&](ArrayRef<int64_t> idx, int64_t i) {
    y.data[i] = c.data[dot(idx, sc)] != 0 ? t.data[dot(idx, st)] : f.data[dot(idx, sf)];
  });
}

/// Index along `axis` of every element of a tensor with `shape`.
static double gelu(double x, bool tanhApprox) {
  if (tanhApprox)
    return 0.5 * x *
           (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
}

static double iou(const double *a, const double *b) {
  auto area = [](const double *r) {
    return std::max(0.0, r[2] - r[0]) * std::max(0.0, r[3] - r[1]);
  };
  double w = std::min(a[2], b[2]) - std::max(a[0], b[0]);
  double h = std::min(a[3], b[3]) - std::max(a[1], b[1]);
  double inter = std::max(0.0, w) * std::max(0.0, h);
  double uni = area(a) + area(b) - inter;
  return uni > 0 ? inter / uni : 0.0;
}

/// Greedy per-class NMS, then the best max_detections over all classes.
static void evalNms(NmsOp op, const Tensor &boxes, const Tensor &scores,
                    std::vector<Tensor> &out) {
  int64_t n = boxes.shape[0], nb = boxes.shape[1], nc = scores.shape[1];
  int64_t k = op.getMaxDetections(), background = op.getBackgroundClass();
  double iouMax = op.getIouThreshold().convertToDouble();
  double minScore = op.getScoreThreshold().convertToDouble();
  struct Detection {
    double score;
    int64_t cls, box;
  };
  std::fill(out[2].data.begin(), out[2].data.end(), -1.0);
  for (int64_t i = 0; i < n; ++i) {
    const double *bx = boxes.data.data() + i * nb * 4;
    std::vector<Detection> kept;
    for (int64_t c = 0; c < nc; ++c) {
      if (c == background)
        continue;
      const double *sc = scores.data.data() + (i * nc + c) * nb;
      std::vector<int64_t> order;
      for (int64_t b = 0; b < nb; ++b)
        if (sc[b] > minScore)
          order.push_back(b);
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return sc[a] > sc[b]; });
      std::vector<int64_t> classKept;
      for (int64_t b : order) {
        bool suppressed = llvm::any_of(classKept, [&](int64_t q) {
          return iou(bx + b * 4, bx + q * 4) > iouMax;
        });
        if (!suppressed) {
          classKept.push_back(b);
          kept.push_back({sc[b], c, b});
        }
      }
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [](const Detection &a, const Detection &b) {
                       return a.score > b.score;
                     });
    for (int64_t j = 0; j < std::min<int64_t>(k, kept.size()); ++j) {
      for (int64_t q = 0; q < 4; ++q)
        out[0].data[(i * k + j) * 4 + q] = bx[kept[j].box * 4 + q];
      out[1].data[i * k + j] = kept[j].score;
      out[2].data[i * k + j] = kept[j].cls;
    }
  }
}

/// Per-tensor or per-axis quantization parameter of element `linear`.
static double quantParam(const Tensor &param, const Tensor &data,
                         int64_t linear, int64_t axis) {
  if (param.size() == 1)
    return param.data[0];
  int64_t a = *normalizeAxis(axis, data.shape.size());
  return param.data[axisIndex(linear, data.shape, a)];
}

LogicalResult Interpreter::eval(Operation *op, ArrayRef<const Tensor *> in,
                                std::vector<Tensor> &out) {
  for (Value r : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(r.getType());
    if (!type || !type.hasStaticShape() || !dtypeOf(type.getElementType()))
      return op->emitError("reference interpreter: result type ")
             << r.getType() << " is not supported";
    // The interpreter holds each element as a double.
    std::string tooLarge = checkFitsInMemory(
        static_cast<uint64_t>(type.getNumElements()) * sizeof(double));
    if (!tooLarge.empty())
      return op->emitError("reference interpreter: result ")
             << r.getType() << " " << tooLarge;
    out.push_back(resultFor(r));
  }
  // Nothing to compute when every result is empty (a dimension of size 0);
  // this also keeps the loops below free of divisions by zero extents.
  if (!out.empty() && !isa<FusedOp, CompositeOp, func::CallOp>(op) &&
      llvm::all_of(out, [](const Tensor &t) { return t.size() == 0; }))
    return success();
  auto unary = [&](auto f) {
    Tensor &y = out[0];
    for (int64_t i = 0; i < y.size(); ++i)
      y.data[i] = f(in[0]->data[i]);
    return success();
  };
  auto binary = [&](auto f) {
    broadcastBinary(*in[0], *in[1], out[0], f);
    return success();
  };
  bool isInt = !op->getResults().empty() && !isFloat(out[0].dtype);

  LogicalResult result =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case([&](ConstantOp c) -> LogicalResult {
            FailureOr<Tensor> t = tensorFromAttr(c.getValue(), c.getLoc());
            if (failed(t))
              return failure();
            out[0] = std::move(*t);
            return success();
          })
          .Case([&](Conv2DOp c) {
            return evalConv(c, *in[0], *in[1], in.size() > 2 ? in[2] : nullptr,
                            out[0]);
          })
          .Case([&](BatchNormOp c) {
            const Tensor &x = *in[0];
            int64_t axis = *normalizeAxis(c.getAxis(), x.shape.size());
            double eps = c.getEpsilon().convertToDouble();
            for (int64_t i = 0; i < x.size(); ++i) {
              int64_t ch = axisIndex(i, x.shape, axis);
              out[0].data[i] = (x.data[i] - in[3]->data[ch]) /
                                   std::sqrt(in[4]->data[ch] + eps) *
                                   in[1]->data[ch] +
                               in[2]->data[ch];
            }
            return success();
          })
          .Case([&](BiasAddOp c) {
            const Tensor &x = *in[0];
            int64_t axis = *normalizeAxis(c.getAxis(), x.shape.size());
            for (int64_t i = 0; i < x.size(); ++i)
              out[0].data[i] = x.data[i] + in[1]->data[axisIndex(i, x.shape, axis)];
            return success();
          })
          .Case([&](DenseOp) {
            const Tensor &x = *in[0], &w = *in[1];
            int64_t k = x.shape.back(), o = w.shape[0];
            int64_t m = numElements(ArrayRef(x.shape).drop_back());
            for (int64_t r = 0; r < m; ++r)
              for (int64_t j = 0; j < o; ++j) {
                double acc = in.size() > 2 ? in[2]->data[j] : 0.0;
                for (int64_t i = 0; i < k; ++i)
                  acc += x.data[r * k + i] * w.data[j * k + i];
                out[0].data[r * o + j] = acc;
              }
            return success();
          })
          .Case([&](MatmulOp) {
            Shape a(in[0]->shape), b(in[1]->shape);
            if (a.size() == 1)
              a.insert(a.begin(), 1);
            if (b.size() == 1)
              b.push_back(1);
            int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
            Shape batch = *broadcastShapes(ArrayRef(a).drop_back(2),
                                           ArrayRef(b).drop_back(2));
            Shape sa = broadcastStrides(ArrayRef(a).drop_back(2), batch);
            Shape sb = broadcastStrides(ArrayRef(b).drop_back(2), batch);
            forEachIndex(batch, [&](ArrayRef<int64_t> idx, int64_t linear) {
              const double *pa = in[0]->data.data() + dot(idx, sa) * m * k;
              const double *pb = in[1]->data.data() + dot(idx, sb) * k * n;
              double *py = out[0].data.data() + linear * m * n;
              for (int64_t i = 0; i < m; ++i)
                for (int64_t j = 0; j < n; ++j) {
                  double acc = 0;
                  for (int64_t l = 0; l < k; ++l)
                    acc += pa[i * k + l] * pb[l * n + j];
                  py[i * n + j] = acc;
                }
            });
            return success();
          })
          .Case([&](BatchMatmulOp c) {
            const Tensor &a = *in[0], &b = *in[1];
            bool ta = c.getTransposeA(), tb = c.getTransposeB();
            int64_t batch = out[0].shape[0], m = out[0].shape[1],
                    n = out[0].shape[2], k = ta ? a.shape[1] : a.shape[2];
            for (int64_t bi = 0; bi < batch; ++bi) {
              int64_t ba = a.shape[0] == 1 ? 0 : bi, bb = b.shape[0] == 1 ? 0 : bi;
              const double *pa = a.data.data() + ba * m * k;
              const double *pb = b.data.data() + bb * k * n;
              for (int64_t i = 0; i < m; ++i)
                for (int64_t j = 0; j < n; ++j) {
                  double acc = 0;
                  for (int64_t l = 0; l < k; ++l)
                    acc += (ta ? pa[l * m + i] : pa[i * k + l]) *
                           (tb ? pb[j * k + l] : pb[l * n + j]);
                  out[0].data[(bi * m + i) * n + j] = acc;
                }
            }
            return success();
          })
          .Case([&](ReluOp) { return unary([](double x) { return nanMax(x, 0.0); }); })
          .Case([&](SigmoidOp) {
            return unary([](double x) { return 1.0 / (1.0 + std::exp(-x)); });
          })
          // FastMath's forms are approximations of the same functions: the
          // reference is the function itself.
          .Case<TanhOp, FastTanhOp>([&](auto) { return unary([](double x) { return std::tanh(x); }); })
          .Case<ErfOp, FastErfOp>([&](auto) { return unary([](double x) { return std::erf(x); }); })
          .Case<ExpOp, FastExpOp>([&](auto) { return unary([](double x) { return std::exp(x); }); })
          .Case([&](LogOp) { return unary([](double x) { return std::log(x); }); })
          .Case([&](SqrtOp) { return unary([](double x) { return std::sqrt(x); }); })
          .Case([&](RsqrtOp) {
            return unary([](double x) { return 1.0 / std::sqrt(x); });
          })
          .Case([&](NegOp) { return unary([](double x) { return -x; }); })
          .Case([&](AbsOp) { return unary([](double x) { return std::fabs(x); }); })
          .Case([&](GeluOp c) {
            bool approx = c.getApproximate() == "tanh";
            return unary([&](double x) { return gelu(x, approx); });
          })
          .Case([&](ClipOp c) {
            double lo = c.getMin().convertToDouble(), hi = c.getMax().convertToDouble();
            return unary([&](double x) { return nanMin(nanMax(x, lo), hi); });
          })
          .Case([&](AddOp) { return binary([](double a, double b) { return a + b; }); })
          .Case([&](SubOp) { return binary([](double a, double b) { return a - b; }); })
          .Case([&](MulOp) { return binary([](double a, double b) { return a * b; }); })
          .Case([&](DivOp c) -> LogicalResult {
            bool divByZero = false;
            broadcastBinary(*in[0], *in[1], out[0], [&](double a, double b) {
              if (!isInt)
                return a / b;
              if (b == 0) {
                divByZero = true;
                return 0.0;
              }
              return std::trunc(a / b);
            });
            if (divByZero)
              return c.emitError("div: integer division by zero");
            return success();
          })
          .Case([&](PowOp) {
            return binary([](double a, double b) { return std::pow(a, b); });
          })
          .Case([&](MaximumOp) {
            return binary(nanMax);
          })
          .Case([&](CompareOp c) {
            // IEEE: NaN is unequal to everything, and ordered with nothing.
            StringRef p = c.getPredicate();
            return binary([p](double a, double b) -> double {
              return p == "eq"   ? a == b
                     : p == "ne" ? a != b
                     : p == "lt" ? a < b
                     : p == "le" ? a <= b
                     : p == "gt" ? a > b
                                 : a >= b;
            });
          })
          .Case([&](SelectOp) {
            broadcastSelect(*in[0], *in[1], *in[2], out[0]);
            return success();
          })
          .Case([&](MinimumOp) {
            return binary(nanMin);
          })
          .Case([&](MaxPool2DOp c) {
            evalPool(c, *in[0], out[0], /*isMax=*/true);
            return success();
          })
          .Case([&](AvgPool2DOp c) {
            evalPool(c, *in[0], out[0], /*isMax=*/false);
            return success();
          })
          .Case([&](GlobalAvgPool2DOp c) {
            ImageView xi = imageView(in[0]->shape, c.getLayout());
            ImageView yi = imageView(out[0].shape, c.getLayout());
            for (int64_t n = 0; n < xi.n; ++n)
              for (int64_t ch = 0; ch < xi.c; ++ch) {
                double acc = 0;
                for (int64_t h = 0; h < xi.h; ++h)
                  for (int64_t w = 0; w < xi.w; ++w)
                    acc += in[0]->data[n * xi.sn + ch * xi.sc + h * xi.sh +
                                       w * xi.sw];
                out[0].data[n * yi.sn + ch * yi.sc] = acc / (xi.h * xi.w);
              }
            return success();
          })
          .Case<SoftmaxOp, FastSoftmaxOp>([&](auto c) {
            const Tensor &x = *in[0];
            int64_t axis = *normalizeAxis(c.getAxis(), x.shape.size());
            int64_t len = x.shape[axis];
            int64_t inner = rowMajorStrides(x.shape)[axis];
            int64_t outer = x.size() / (len * inner);
            for (int64_t o = 0; o < outer; ++o)
              for (int64_t i = 0; i < inner; ++i) {
                int64_t base = o * len * inner + i;
                double mx = -std::numeric_limits<double>::infinity(), sum = 0;
                for (int64_t j = 0; j < len; ++j)
                  mx = nanMax(mx, x.data[base + j * inner]);
                for (int64_t j = 0; j < len; ++j)
                  sum += std::exp(x.data[base + j * inner] - mx);
                for (int64_t j = 0; j < len; ++j)
                  out[0].data[base + j * inner] =
                      std::exp(x.data[base + j * inner] - mx) / sum;
              }
            return success();
          })
          .Case([&](LayerNormOp c) {
            const Tensor &x = *in[0];
            int64_t axis = *normalizeAxis(c.getAxis(), x.shape.size());
            int64_t inner = numElements(ArrayRef(x.shape).drop_front(axis));
            double eps = c.getEpsilon().convertToDouble();
            for (int64_t o = 0; o < x.size() / inner; ++o) {
              const double *px = x.data.data() + o * inner;
              double mean = 0, var = 0;
              for (int64_t i = 0; i < inner; ++i)
                mean += px[i];
              mean /= inner;
              for (int64_t i = 0; i < inner; ++i)
                var += (px[i] - mean) * (px[i] - mean);
              var /= inner;
              double inv = 1.0 / std::sqrt(var + eps);
              for (int64_t i = 0; i < inner; ++i)
                out[0].data[o * inner + i] =
                    (px[i] - mean) * inv * in[1]->data[i] + in[2]->data[i];
            }
            return success();
          })
          .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp>([&](auto c) {
            const Tensor &x = *in[0];
            int64_t rank = x.shape.size();
            SmallVector<bool> reduced(rank, c.getAxes().empty());
            for (int64_t a : c.getAxes())
              reduced[*normalizeAxis(a, rank)] = true;
            // Strides into the output for each input dim (0 when reduced).
            Shape keptShape;
            for (int64_t d = 0; d < rank; ++d)
              keptShape.push_back(reduced[d] ? 1 : x.shape[d]);
            Shape st = broadcastStrides(keptShape, x.shape);
            bool isMax = isa<ReduceMaxOp>(c.getOperation());
            std::fill(out[0].data.begin(), out[0].data.end(),
                      isMax ? -std::numeric_limits<double>::infinity() : 0.0);
            forEachIndex(x.shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
              double &acc = out[0].data[dot(idx, st)];
              acc = isMax ? nanMax(acc, x.data[linear]) : acc + x.data[linear];
            });
            if (isa<ReduceMeanOp>(c.getOperation())) {
              int64_t count = x.size() / std::max<int64_t>(out[0].size(), 1);
              for (double &v : out[0].data)
                v /= count;
            }
            return success();
          })
          .Case([&](TransposeOp c) {
            const Tensor &x = *in[0];
            Shape xs = rowMajorStrides(x.shape), st;
            for (int64_t p : c.getPerm())
              st.push_back(xs[*normalizeAxis(p, x.shape.size())]);
            forEachIndex(out[0].shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
              out[0].data[linear] = x.data[dot(idx, st)];
            });
            return success();
          })
          .Case<ReshapeOp, ExpandDimsOp, SqueezeOp>([&](auto) {
            out[0].data = in[0]->data;
            return success();
          })
          .Case([&](DynamicReshapeOp c) -> LogicalResult {
            const Tensor &x = *in[0];
            Shape target;
            int64_t inferAt = -1, known = 1;
            for (auto [i, v] : llvm::enumerate(in[1]->data)) {
              int64_t dim = static_cast<int64_t>(v);
              if (dim == 0 && i < x.shape.size())
                dim = x.shape[i];
              if (dim == -1) {
                if (inferAt >= 0)
                  return c.emitError("dynamic_reshape: shape operand has more "
                                     "than one -1");
                inferAt = i;
              } else if (dim < 0) {
                return c.emitError("dynamic_reshape: negative size ") << dim;
              } else {
                known *= dim;
              }
              target.push_back(dim);
            }
            if (inferAt >= 0)
              target[inferAt] = known ? x.size() / known : 0;
            if (ArrayRef<int64_t>(target) != ArrayRef<int64_t>(out[0].shape))
              return c.emitError("dynamic_reshape: shape operand gives ")
                     << formatShape(target) << " but the result type is "
                     << formatShape(out[0].shape);
            out[0].data = x.data;
            return success();
          })
          .Case([&](ConcatOp c) {
            int64_t axis = *normalizeAxis(c.getAxis(), out[0].shape.size());
            int64_t inner = rowMajorStrides(out[0].shape)[axis];
            int64_t outer = out[0].size() / (out[0].shape[axis] * inner);
            int64_t pos = 0;
            for (int64_t o = 0; o < outer; ++o)
              for (const Tensor *t : in) {
                int64_t chunk = t->shape[axis] * inner;
                std::copy_n(t->data.begin() + o * chunk, chunk,
                            out[0].data.begin() + pos);
                pos += chunk;
              }
            return success();
          })
          .Case([&](SplitOp c) {
            const Tensor &x = *in[0];
            int64_t axis = *normalizeAxis(c.getAxis(), x.shape.size());
            int64_t inner = rowMajorStrides(x.shape)[axis];
            int64_t outer = x.size() / (x.shape[axis] * inner);
            int64_t pos = 0;
            for (int64_t o = 0; o < outer; ++o)
              for (Tensor &t : out) {
                int64_t chunk = t.shape[axis] * inner;
                std::copy_n(x.data.begin() + pos, chunk,
                            t.data.begin() + o * chunk);
                pos += chunk;
              }
            return success();
          })
          .Case([&](SliceOp c) {
            const Tensor &x = *in[0];
            Shape xs = rowMajorStrides(x.shape);
            ArrayRef<int64_t> starts = c.getStarts(), steps = c.getSteps();
            forEachIndex(out[0].shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
              int64_t off = 0;
              for (size_t d = 0; d < idx.size(); ++d)
                off += (starts[d] + idx[d] * steps[d]) * xs[d];
              out[0].data[linear] = x.data[off];
            });
            return success();
          })
          .Case([&](PadOp c) {
            const Tensor &x = *in[0];
            Shape xs = rowMajorStrides(x.shape);
            ArrayRef<int64_t> before = c.getPadBefore();
            StringRef mode = c.getMode();
            double value = c.getValue().convertToDouble();
            forEachIndex(out[0].shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
              int64_t off = 0;
              for (size_t d = 0; d < idx.size(); ++d) {
                int64_t p = idx[d] - before[d], dim = x.shape[d];
                if (p < 0 || p >= dim) {
                  if (mode == "constant") {
                    off = -1;
                    break;
                  }
                  if (mode == "reflect")
                    p = p < 0 ? -p : 2 * (dim - 1) - p;
                  else
                    p = p < 0 ? 0 : dim - 1;
                }
                off += p * xs[d];
              }
              out[0].data[linear] = off < 0 ? value : x.data[off];
            });
            return success();
          })
          .Case([&](DropoutOp) { // inference: the identity
            out[0].data = in[0]->data;
            return success();
          })
          .Case([&](CastOp) {
            out[0].data = in[0]->data;
            return success();
          })
          .Case([&](GatherOp c) -> LogicalResult {
            const Tensor &data = *in[0], &indices = *in[1];
            int64_t axis = *normalizeAxis(c.getAxis(), data.shape.size());
            int64_t dim = data.shape[axis];
            int64_t inner = rowMajorStrides(data.shape)[axis];
            int64_t outer = data.size() / (dim * inner);
            int64_t pos = 0;
            for (int64_t o = 0; o < outer; ++o)
              for (double v : indices.data) {
                int64_t i = static_cast<int64_t>(v);
                if (i < 0)
                  i += dim;
                i = std::clamp<int64_t>(i, 0, dim - 1); // see graph.gather
                std::copy_n(data.data.begin() + (o * dim + i) * inner, inner,
                            out[0].data.begin() + pos);
                pos += inner;
              }
            return success();
          })
          .Case([&](LayoutTransformOp c) {
            std::string error;
            Layout src = *Layout::parse(c.getSrcLayout(), error);
            Layout dst = *Layout::parse(c.getDstLayout(), error);
            Shape xs = rowMajorStrides(in[0]->shape);
            SmallVector<int64_t> srcIdx;
            forEachIndex(out[0].shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
              dst.mapIndex(src, idx, srcIdx);
              out[0].data[linear] = in[0]->data[dot(srcIdx, xs)];
            });
            return success();
          })
          .Case([&](QuantizeOp c) {
            const Tensor &x = *in[0];
            double lo = out[0].dtype == DType::I8 ? -128.0 : -2147483648.0;
            double hi = out[0].dtype == DType::I8 ? 127.0 : 2147483647.0;
            for (int64_t i = 0; i < x.size(); ++i) {
              double scale = quantParam(*in[1], x, i, c.getAxis());
              double zp = quantParam(*in[2], x, i, c.getAxis());
              double q = std::nearbyint(x.data[i] / scale) + zp;
              out[0].data[i] = std::min(std::max(q, lo), hi);
            }
            return success();
          })
          .Case([&](DequantizeOp c) {
            const Tensor &x = *in[0];
            for (int64_t i = 0; i < x.size(); ++i)
              out[0].data[i] = (x.data[i] - quantParam(*in[2], x, i, c.getAxis())) *
                               quantParam(*in[1], x, i, c.getAxis());
            return success();
          })
          .Case([&](NmsOp c) {
            evalNms(c, *in[0], *in[1], out);
            return success();
          })
          .Case<FusedOp, CompositeOp>([&](auto c) -> LogicalResult {
            std::vector<Tensor> args;
            for (const Tensor *t : in)
              args.push_back(*t);
            FailureOr<std::vector<Tensor>> r =
                runBlock(c.getBody().front(), args);
            if (failed(r))
              return failure();
            out = std::move(*r);
            return success();
          })
          .Case([&](func::CallOp c) -> LogicalResult {
            auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
                c, c.getCalleeAttr());
            if (!callee || callee.isExternal())
              return c.emitError("reference interpreter: callee @")
                     << c.getCallee() << " has no body";
            std::vector<Tensor> args;
            for (const Tensor *t : in)
              args.push_back(*t);
            FailureOr<std::vector<Tensor>> r =
                runBlock(callee.getBody().front(), args);
            if (failed(r))
              return failure();
            out = std::move(*r);
            return success();
          })
          .Default([&](Operation *o) {
            return o->emitError("reference interpreter: unsupported op '")
                   << o->getName() << "'";
          });
  if (failed(result))
    return failure();
  for (Tensor &t : out)
    roundAll(t);
  return success();
}

} // namespace

FailureOr<std::vector<Tensor>> dlc::evaluateOp(Operation *op,
                                                ArrayRef<Tensor> operands) {
  Interpreter interpreter(op->getParentOp());
  return interpreter.evalOne(op, operands);
}

FailureOr<std::vector<Tensor>> dlc::interpret(func::FuncOp func,
                                              ArrayRef<Tensor> inputs) {
  if (func.isExternal())
    return func.emitError("reference interpreter: function @")
           << func.getSymName() << " has no body";
  if (!func.getBody().hasOneBlock())
    return func.emitError("reference interpreter: function @")
           << func.getSymName() << " has more than one block";
  Interpreter interpreter(func->getParentOp());
  return interpreter.runBlock(func.getBody().front(), inputs);
}
