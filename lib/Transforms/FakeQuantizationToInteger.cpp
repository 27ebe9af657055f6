//===- FakeQuantizationToInteger.cpp - QDQ regions to integer ops ----------===//
//
// TVM's FakeQuantizationToInteger. A quantized model in QDQ form computes in
// float between graph.dequantize and graph.quantize ops; from each quantize,
// this pass walks back over the float ops to the dequantizes that bound the
// region and rewrites the region into integer ops. Every value keeps its
// affine map back to reals, real = (q - zero_point) * scale (per tensor, or
// per index of one axis): products read i8 values widened to i32 with their
// zero points subtracted and accumulate in i32 with scale s_x * s_w (biases
// quantized to that scale), max pooling, reshapes and concatenations keep
// the map, relu and clip become integer bounds at the zero point, and the
// quantize at the end requantizes the accumulator to its own parameters.
// Regions with an op outside these rules, or parameters that are not
// constants, stay float and are counted.
//
//===----------------------------------------------------------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace dlc {
#define GEN_PASS_DEF_FAKEQUANTIZATIONTOINTEGERPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {

/// real = (q - zeroPoint) * scale, one value per tensor or one per index of
/// `axis`.
struct QParams {
  std::vector<double> scale, zeroPoint;
  int64_t axis = -1; ///< of the quantized value; -1 per tensor

  bool perTensor() const { return scale.size() == 1; }
  bool zeroIsZero() const {
    return llvm::all_of(zeroPoint, [](double z) { return z == 0; });
  }
  double scaleAt(int64_t i) const { return scale[perTensor() ? 0 : i]; }
  double zeroAt(int64_t i) const { return zeroPoint[perTensor() ? 0 : i]; }
  /// The parameters' index for element `linear` of the quantized tensor.
  int64_t channel(int64_t linear, ArrayRef<int64_t> shape) const {
    return perTensor() ? 0 : axisIndex(linear, shape, axis);
  }
  bool operator==(const QParams &o) const {
    return scale == o.scale && zeroPoint == o.zeroPoint &&
           (perTensor() || axis == o.axis);
  }
};

/// An integer value standing for a float one.
struct QValue {
  Value q; ///< i8 or i32
  QParams params;
};

/// The parameters of a quantize or dequantize op, if they are constants.
template <typename OpTy>
std::optional<QParams> paramsOf(OpTy op, RankedTensorType data) {
  std::optional<Tensor> scale = constantValue(op.getScale());
  std::optional<Tensor> zero = constantValue(op.getZeroPoint());
  if (!scale || !zero)
    return std::nullopt;
  QParams p{scale->data, zero->data, -1};
  if (!p.perTensor())
    p.axis = *normalizeAxis(op.getAxis(), data.getRank());
  return p;
}

/// Converts the float region that ends at one quantize op. Nothing is in the
/// IR until the caller commits `ops`.
class RegionConverter {
public:
  explicit RegionConverter(StagedOps &ops) : ops(ops) {}

  FailureOr<QValue> convert(Value v) {
    auto it = converted.find(v);
    if (it != converted.end())
      return it->second;
    Operation *def = v.getDefiningOp();
    if (!def)
      return fail("a function argument is used as a float value");
    FailureOr<QValue> result = convertOp(def);
    if (succeeded(result)) {
      converted[v] = *result;
      (isa<DequantizeOp>(def) ? dequantizes : floatOps).insert(def);
    }
    return result;
  }

  /// (q - zero point) in i32: computed now for a constant, else widened and
  /// subtracted in the graph (the zero point broadcast along its axis).
  Value centered(const QValue &v, Location loc) {
    auto type = tensorType(v.q);
    auto i32Type = type.clone(IntegerType::get(type.getContext(), 32));
    if (std::optional<Tensor> t = constantValue(v.q)) {
      Tensor out(DType::I32, t->shape);
      for (int64_t i = 0; i < t->size(); ++i)
        out.data[i] = t->data[i] - v.params.zeroAt(v.params.channel(i, t->shape));
      return ops.constant(loc, out, "centered");
    }
    Value wide = type.getElementType().isInteger(32)
                     ? v.q
                     : ops.create<CastOp>(loc, v.q, {}, i32Type);
    if (v.params.zeroIsZero())
      return wide;
    return ops.create<SubOp>(loc, {wide, paramTensor(loc, v.params.zeroPoint, v.params,
                                                      type.getRank(), DType::I32)});
  }

  /// A constant of `values` (one, or one per index of `p.axis`) shaped to
  /// broadcast against a tensor of rank `rank`: [C, 1, ..., 1].
  Value paramTensor(Location loc, ArrayRef<double> values, const QParams &p,
                    int64_t rank, DType dtype) {
    Shape shape;
    if (values.size() > 1) {
      shape.push_back(values.size());
      shape.append(rank - p.axis - 1, 1);
    }
    return constantOf(loc, values, shape, dtype);
  }

  /// A constant of `values` shaped `shape`, in `dtype`.
  Value constantOf(Location loc, ArrayRef<double> values, ArrayRef<int64_t> shape,
                   DType dtype) {
    Tensor t(dtype, shape);
    for (size_t i = 0; i < values.size(); ++i)
      t.data[i] = roundToDType(dtype, values[i]);
    return ops.constant(loc, t, "qparam");
  }

  /// The dequantize ops that bound the region.
  llvm::SmallPtrSet<Operation *, 16> dequantizes;

  /// Why the region could not be converted.
  std::string reason;
  /// The float ops the region replaced (erased once dead).
  llvm::SmallPtrSet<Operation *, 16> floatOps;

private:
  FailureOr<QValue> fail(const Twine &why) {
    if (reason.empty())
      reason = why.str();
    return failure();
  }

  /// The real values of a bias: a float constant or the dequantization of
  /// an integer constant (evaluated with the interpreter's semantics).
  std::optional<Tensor> realConstant(Value v) {
    if (auto dq = v.getDefiningOp<DequantizeOp>()) {
      std::vector<Tensor> operands;
      for (Value operand : dq->getOperands()) {
        std::optional<Tensor> t = constantValue(operand);
        if (!t)
          return std::nullopt;
        operands.push_back(std::move(*t));
      }
      ScopedDiagnosticHandler quiet(dq.getContext(), [](Diagnostic &) { return success(); });
      FailureOr<std::vector<Tensor>> real = evaluateOp(dq, operands);
      return succeeded(real) ? std::optional<Tensor>(std::move(real->front())) : std::nullopt;
    }
    std::optional<Tensor> t = constantValue(v);
    if (!t || !isFloat(t->dtype))
      return std::nullopt;
    return t;
  }

  /// `real` in i32 at the accumulator's scale (zero point 0); `channelAxis`
  /// is the axis of `real` that runs along the accumulator's per-axis scale.
  std::optional<Tensor> quantizeToAccumulator(const Tensor &real, const QParams &acc,
                                              std::optional<int64_t> channelAxis) {
    if (!acc.perTensor() && !channelAxis)
      return std::nullopt;
    Tensor out(DType::I32, real.shape);
    for (int64_t i = 0; i < real.size(); ++i) {
      int64_t c = acc.perTensor() ? 0 : axisIndex(i, real.shape, *channelAxis);
      double q = std::nearbyint(real.data[i] / acc.scaleAt(c));
      if (std::abs(q) > 2147483647.0)
        return std::nullopt;
      out.data[i] = q;
    }
    return out;
  }

  /// Products: scale s_a * s_b per tensor, or per index of `outAxis` when
  /// `b` is quantized per index of `bAxis` (its output-channel axis).
  std::optional<QParams> productParams(const QValue &a, const QValue &b, int64_t bAxis,
                                       int64_t outAxis) {
    if (!a.params.perTensor() || (!b.params.perTensor() && b.params.axis != bAxis))
      return std::nullopt;
    QParams acc;
    for (double s : b.params.scale)
      acc.scale.push_back(a.params.scale[0] * s);
    acc.zeroPoint.assign(acc.scale.size(), 0.0);
    acc.axis = acc.perTensor() ? -1 : outAxis;
    return acc;
  }

  template <typename OpTy>
  FailureOr<QValue> product(OpTy op, Value lhs, Value rhs, int64_t rhsChannelAxis,
                            int64_t outAxis, Value bias = {}) {
    FailureOr<QValue> a = convert(lhs);
    if (failed(a))
      return failure();
    FailureOr<QValue> b = convert(rhs);
    if (failed(b))
      return failure();
    std::optional<QParams> acc = productParams(*a, *b, rhsChannelAxis, outAxis);
    if (!acc)
      return fail(op->getName().getStringRef() + ": the input is quantized per axis, or the "
                  "weight along an axis other than its output channels");
    Location loc = op.getLoc();
    SmallVector<Value> operands{centered(*a, loc), centered(*b, loc)};
    if (bias) {
      std::optional<Tensor> real = realConstant(bias);
      std::optional<Tensor> q = real ? quantizeToAccumulator(*real, *acc, 0) : std::nullopt;
      if (!q)
        return fail(op->getName().getStringRef() + ": the bias is not a constant");
      operands.push_back(ops.constant(loc, *q, "bias"));
    }
    Value y = ops.create<OpTy>(loc, operands, op->getAttrDictionary().getValue());
    if (!y)
      return fail(op->getName().getStringRef() + ": no integer form of these operands");
    return QValue{y, *acc};
  }

  /// Ops that keep their input's parameters: the same op on the integers.
  FailureOr<QValue> sameParams(Operation *op, bool perAxisOk, int64_t channelAxis = -1) {
    FailureOr<QValue> a = convert(op->getOperand(0));
    if (failed(a))
      return failure();
    if (!a->params.perTensor() && !(perAxisOk && a->params.axis == channelAxis))
      return fail(op->getName().getStringRef() + " of a value quantized per axis");
    auto type = cast<RankedTensorType>(op->getResult(0).getType())
                    .clone(tensorType(a->q).getElementType());
    Value y = ops.createLike(op, op->getLoc(), a->q, op->getAttrDictionary().getValue(), type);
    if (!y)
      return fail(op->getName().getStringRef() + ": no integer form");
    return QValue{y, a->params};
  }

  /// x + constant, or bias_add: the constant at the accumulator's scale.
  FailureOr<QValue> addConstant(Operation *op, Value x, Value c, std::optional<int64_t> biasAxis) {
    FailureOr<QValue> a = convert(x);
    if (failed(a))
      return failure();
    std::optional<Tensor> real = realConstant(c);
    if (!real || !a->params.zeroIsZero())
      return fail(op->getName().getStringRef() +
                  ": adds to a value with a zero point, or a non-constant");
    auto type = tensorType(a->q);
    // The axis of the constant that runs along the accumulator's channels.
    std::optional<int64_t> channelAxis;
    if (!a->params.perTensor()) {
      if (biasAxis) {
        if (*biasAxis != a->params.axis)
          return fail("bias_add along another axis than the scales");
        channelAxis = 0;
      } else {
        int64_t offset = type.getRank() - static_cast<int64_t>(real->shape.size());
        int64_t axis = a->params.axis - offset;
        if (axis < 0 || real->shape[axis] != type.getDimSize(a->params.axis))
          return fail("add: the constant does not vary along the scales' axis");
        channelAxis = axis;
      }
    }
    std::optional<Tensor> q = quantizeToAccumulator(*real, a->params, channelAxis);
    if (!q || !tensorType(a->q).getElementType().isInteger(32))
      return fail(op->getName().getStringRef() + ": the constant does not fit in i32");
    Value cq = ops.constant(op->getLoc(), *q, "bias");
    Value y = biasAxis ? ops.createLike(op, op->getLoc(), {a->q, cq}, op->getAttrDictionary().getValue())
                       : ops.create<AddOp>(op->getLoc(), {a->q, cq});
    if (!y)
      return fail(op->getName().getStringRef() + ": no integer form");
    return QValue{y, a->params};
  }

  FailureOr<QValue> convertOp(Operation *op) {
    return llvm::TypeSwitch<Operation *, FailureOr<QValue>>(op)
        .Case([&](DequantizeOp dq) -> FailureOr<QValue> {
          std::optional<QParams> p = paramsOf(dq, dq.getInput().getType());
          if (!p)
            return fail("dequantize with parameters that are not constants");
          return QValue{dq.getInput(), *p};
        })
        .Case([&](Conv2DOp c) -> FailureOr<QValue> {
          int64_t outChannels = c.getKernelLayout() == "HWIO" ? 3 : 0;
          return product(c, c.getInput(), c.getWeight(), outChannels,
                         c.getDataLayout() == "NHWC" ? 3 : 1, c.getBias());
        })
        .Case([&](DenseOp d) -> FailureOr<QValue> {
          return product(d, d.getInput(), d.getWeight(), 0, d.getType().getRank() - 1,
                         d.getBias());
        })
        .Case([&](MatmulOp m) { return product(m, m.getLhs(), m.getRhs(), -2, -2); })
        .Case([&](BatchMatmulOp m) { return product(m, m.getLhs(), m.getRhs(), -2, -2); })
        .Case([&](BiasAddOp b) {
          return addConstant(b, b.getInput(), b.getBias(),
                             *normalizeAxis(b.getAxis(), b.getType().getRank()));
        })
        .Case([&](AddOp a) -> FailureOr<QValue> {
          if (realConstant(a.getRhs()))
            return addConstant(a, a.getLhs(), a.getRhs(), std::nullopt);
          if (realConstant(a.getLhs()))
            return addConstant(a, a.getRhs(), a.getLhs(), std::nullopt);
          // Two accumulators of one scale add exactly.
          FailureOr<QValue> x = convert(a.getLhs());
          if (failed(x))
            return failure();
          FailureOr<QValue> y = convert(a.getRhs());
          if (failed(y))
            return failure();
          if (!(x->params == y->params) || !x->params.zeroIsZero() ||
              tensorType(x->q).getElementType() != tensorType(y->q).getElementType())
            return fail("add of values with different scales or zero points");
          Value sum = ops.create<AddOp>(a.getLoc(), {x->q, y->q});
          if (!sum)
            return fail("add: no integer form");
          return QValue{sum, x->params};
        })
        .Case([&](ReluOp r) -> FailureOr<QValue> {
          FailureOr<QValue> a = convert(r.getInput());
          if (failed(a))
            return failure();
          if (a->params.zeroIsZero()) {
            Value y = ops.create<ReluOp>(r.getLoc(), a->q);
            return y ? FailureOr<QValue>(QValue{y, a->params}) : fail("relu: no integer form");
          }
          // relu(x) = max(q, zero point).
          auto type = tensorType(a->q);
          Value z = paramTensor(r.getLoc(), a->params.zeroPoint, a->params, type.getRank(),
                                *dtypeOf(type.getElementType()));
          Value y = ops.create<MaximumOp>(r.getLoc(), {a->q, z});
          return y ? FailureOr<QValue>(QValue{y, a->params}) : fail("relu: no integer form");
        })
        .Case([&](ClipOp c) -> FailureOr<QValue> {
          FailureOr<QValue> a = convert(c.getInput());
          if (failed(a))
            return failure();
          if (!a->params.perTensor())
            return fail("clip of a value quantized per axis");
          double s = a->params.scale[0], z = a->params.zeroPoint[0];
          double lo = std::nearbyint(c.getMin().convertToDouble() / s) + z;
          double hi = std::nearbyint(c.getMax().convertToDouble() / s) + z;
          OpBuilder b(c.getContext());
          Value y = ops.create<ClipOp>(c.getLoc(), a->q,
                                       {b.getNamedAttr("min", b.getF64FloatAttr(lo)),
                                        b.getNamedAttr("max", b.getF64FloatAttr(hi))});
          return y ? FailureOr<QValue>(QValue{y, a->params}) : fail("clip: no integer form");
        })
        .Case([&](MaxPool2DOp p) {
          return sameParams(p, /*perAxisOk=*/true, p.getLayout() == "NHWC" ? 3 : 1);
        })
        .Case<ReshapeOp, ExpandDimsOp, SqueezeOp, TransposeOp>(
            [&](Operation *o) { return sameParams(o, /*perAxisOk=*/false); })
        .Case([&](PadOp p) -> FailureOr<QValue> {
          if (p.getMode() != "constant" || p.getValue().convertToDouble() != 0)
            return fail("pad that is not with zeros");
          FailureOr<QValue> a = convert(p.getInput());
          if (failed(a))
            return failure();
          if (!a->params.perTensor())
            return fail("pad of a value quantized per axis");
          OpBuilder b(p.getContext());
          NamedAttrList attrs(p->getAttrDictionary());
          attrs.set("value", b.getF64FloatAttr(a->params.zeroPoint[0]));
          Value y = ops.create<PadOp>(p.getLoc(), a->q, attrs.getAttrs());
          return y ? FailureOr<QValue>(QValue{y, a->params}) : fail("pad: no integer form");
        })
        .Case([&](ConcatOp c) -> FailureOr<QValue> {
          SmallVector<Value> inputs;
          std::optional<QParams> params;
          for (Value v : c.getInputs()) {
            FailureOr<QValue> a = convert(v);
            if (failed(a))
              return failure();
            if (params && (!(*params == a->params) ||
                           tensorType(a->q).getElementType() != tensorType(inputs[0]).getElementType()))
              return fail("concat of values with different scales or zero points");
            params = a->params;
            inputs.push_back(a->q);
          }
          if (!params->perTensor())
            return fail("concat of values quantized per axis");
          Value y = ops.create<ConcatOp>(c.getLoc(), inputs, c->getAttrDictionary().getValue());
          return y ? FailureOr<QValue>(QValue{y, *params}) : fail("concat: no integer form");
        })
        .Default([&](Operation *o) -> FailureOr<QValue> {
          return fail("no integer rule for " + o->getName().getStringRef());
        });
  }

  StagedOps &ops;
  llvm::DenseMap<Value, QValue> converted;
};

struct FakeQuantizationToIntegerPass
    : dlc::impl::FakeQuantizationToIntegerPassBase<FakeQuantizationToIntegerPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    int64_t regions = 0, integerOps = 0, skipped = 0;
    llvm::SmallPtrSet<Operation *, 32> replaced;
    SmallVector<QuantizeOp> anchors;
    func.walk([&](QuantizeOp q) {
      if (!q->getParentOfType<FusedOp>() && !q->getParentOfType<CompositeOp>())
        anchors.push_back(q);
    });
    for (QuantizeOp q : anchors) {
      // A quantize of values no dequantize produced (the model's input
      // quantization) bounds no region.
      if (!computesFromDequantized(q.getInput()))
        continue;
      OpBuilder builder(q);
      StagedOps ops(builder);
      RegionConverter region(ops);
      FailureOr<Value> result = convertRegion(q, region, ops);
      if (failed(result)) {
        ++skipped;
        q.emitRemark("FakeQuantizationToInteger: region kept in float: ") << region.reason;
        continue;
      }
      ops.commit();
      q.replaceAllUsesWith(*result);
      q.erase();
      ++regions;
      integerOps += region.floatOps.size();
      replaced.insert(region.floatOps.begin(), region.floatOps.end());
      replaced.insert(region.dequantizes.begin(), region.dequantizes.end());
    }
    // The float ops and dequantizes the regions replaced, where nothing
    // else reads them, and the constants only they read.
    llvm::SmallPtrSet<Operation *, 32> inputs;
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(func.getBody().front()))) {
      bool dead = op.use_empty() && (replaced.contains(&op) ||
                                     (inputs.contains(&op) && isa<ConstantOp>(op)));
      if (!dead)
        continue;
      for (Value v : op.getOperands())
        if (Operation *def = v.getDefiningOp())
          inputs.insert(def);
      op.erase();
    }
    recordPassStat(getArgument(), "regions", regions);
    recordPassStat(getArgument(), "integer-ops", integerOps);
    recordPassStat(getArgument(), "skipped", skipped);
  }

  /// Some dequantize feeds `v` through float ops.
  static bool computesFromDequantized(Value v) {
    SmallVector<Value> work{v};
    llvm::SmallPtrSet<Operation *, 16> seen;
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def || !seen.insert(def).second || isa<QuantizeOp>(def))
        continue;
      if (isa<DequantizeOp>(def))
        return true;
      llvm::append_range(work, def->getOperands());
    }
    return false;
  }

  /// The integer value that replaces `q`'s result, built in `ops`.
  FailureOr<Value> convertRegion(QuantizeOp q, RegionConverter &region, StagedOps &ops) {
    std::optional<QParams> out = paramsOf(q, q.getInput().getType());
    if (!out) {
      region.reason = "quantize with parameters that are not constants";
      return failure();
    }
    FailureOr<QValue> in = region.convert(q.getInput());
    if (failed(in))
      return failure();
    if (in->params == *out && tensorType(in->q) == q.getType())
      return in->q;
    // Requantize: round((q - z_in) * s_in / s_out) + z_out, saturated.
    if (!in->params.perTensor() && !out->perTensor() && in->params.axis != out->axis) {
      region.reason = "requantization between two different axes";
      return failure();
    }
    QParams rq = out->perTensor() ? in->params : *out;
    size_t n = std::max(in->params.scale.size(), out->scale.size());
    std::vector<double> scale(n), zero(n);
    for (size_t i = 0; i < n; ++i) {
      scale[i] = out->scaleAt(i) / in->params.scaleAt(i);
      zero[i] = out->zeroAt(i);
    }
    Location loc = q.getLoc();
    auto type = tensorType(in->q);
    Value real = ops.create<CastOp>(loc, region.centered(*in, loc), {},
                                    type.clone(Float32Type::get(q.getContext())));
    // quantize takes 1-D per-axis parameters.
    Shape paramShape;
    if (n > 1)
      paramShape.push_back(n);
    OpBuilder b(q.getContext());
    Value y = ops.create<QuantizeOp>(
        loc,
        {real, region.constantOf(loc, scale, paramShape, DType::F32),
         region.constantOf(loc, zero, paramShape, *dtypeOf(q.getType().getElementType()))},
        {b.getNamedAttr("axis", b.getI64IntegerAttr(n > 1 ? rq.axis : 1))}, q.getType());
    if (!y) {
      region.reason = "no requantization to the quantize's type";
      return failure();
    }
    return y;
  }
};

} // namespace
