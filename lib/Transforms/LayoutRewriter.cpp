//===- LayoutRewriter.cpp - run ops in wanted layouts ---------------------===//
//
// One forward walk over a function. A convolution whose layouts differ from
// what the table wants is rebuilt in the wanted ones: its input and weight
// are converted (constants at compile time, anything else by a
// graph.layout_transform), and its result is converted back for whoever
// reads it. A layout-agnostic op (elementwise, numpy or channel broadcasts,
// batch norm, softmax, concatenation, pooling) that reads such a converted-
// back value follows: it is rebuilt in the new layout too. Converting a
// value that is itself a conversion takes its source instead, so
// back-to-back transforms cancel and transforms remain only where a value
// crosses into an op that has to see the old layout. Transforms left unused
// are erased at the end.
//
//===----------------------------------------------------------------------===//
#include "LayoutRewriter.h"

#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"

#include "mlir/IR/Threading.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

llvm::StringRef dlc::convClass(Operation *op) {
  auto conv = cast<Conv2DOp>(op);
  int64_t groups = conv.getGroups();
  if (groups == 1)
    return tensorType(conv.getInput()).getElementType().isBF16() ? "conv2d.bf16" : "conv2d";
  int64_t c = tensorType(conv.getInput()).getDimSize(conv.getDataLayout() == "NHWC" ? 3 : 1);
  int64_t o = conv.getType().getDimSize(conv.getDataLayout() == "NHWC" ? 3 : 1);
  return groups == c && o == c ? "conv2d.depthwise" : "conv2d.grouped";
}

namespace {
struct LayoutRewriteStats {
  int64_t converted = 0, followed = 0, constants = 0, transforms = 0, unsupported = 0;
};

/// perm[i] is the position in `from` of axis i of `to`, when both are
/// permutations of the same upper-case axes.
std::optional<SmallVector<int64_t>> permutationBetween(StringRef from, StringRef to) {
  if (from.size() != to.size())
    return std::nullopt;
  SmallVector<int64_t> perm;
  for (char c : to) {
    size_t i = from.find(c);
    if (!std::isupper(static_cast<unsigned char>(c)) || i == StringRef::npos ||
        from.count(c) != 1 || to.count(c) != 1)
      return std::nullopt;
    perm.push_back(i);
  }
  return perm;
}

RankedTensorType permuted(RankedTensorType type, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return RankedTensorType::get(shape, type.getElementType());
}

/// The layouts the backends compile: NCHW with OIHW, NHWC with HWIO, and
/// grouped (not depthwise) convolutions in NCHW only.
bool backendsCompile(StringRef cls, const OpLayout &layout) {
  if (layout.data == "NCHW")
    return layout.kernel == "OIHW";
  return layout.data == "NHWC" && layout.kernel == "HWIO" && cls != "conv2d.grouped";
}

class LayoutRewriter {
public:
  LayoutRewriter(func::FuncOp func, const TargetDescription &target)
      : func(func), target(target) {}

  LogicalResult run() {
    SmallVector<Operation *> ops;
    for (Operation &op : func.getBody().getOps())
      ops.push_back(&op);
    for (Operation *op : ops) {
      FailureOr<bool> changed = isa<Conv2DOp>(op) ? rewriteConv(cast<Conv2DOp>(op)) : follow(op);
      if (failed(changed))
        return failure();
    }
    writePending();
    // A transform back that meets a transform forward made before this run
    // (by an earlier layout pass) cancels with it, as the op's folder says.
    for (auto t : llvm::make_early_inc_range(func.getBody().getOps<LayoutTransformOp>())) {
      SmallVector<OpFoldResult> folded;
      if (failed(t->fold(folded)) || folded.size() != 1 || !isa<Value>(folded[0]) ||
          cast<Value>(folded[0]) == t.getResult())
        continue;
      t.getResult().replaceAllUsesWith(cast<Value>(folded[0]));
      orphans.insert(t);
    }
    // Erase the transforms nobody reads (a result converted back and then
    // read only by followers), and the constants and transforms that only
    // the rebuilt ops read, last first so that chains go too.
    for (Operation *t : created)
      orphans.insert(t);
    SmallVector<Operation *> worklist(orphans.begin(), orphans.end());
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!orphans.contains(op) || !op->use_empty() ||
          !isa<ConstantOp, LayoutTransformOp>(op))
        continue;
      orphans.remove(op);
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp()) {
          orphans.insert(def);
          worklist.push_back(def);
        }
      op->erase();
    }
    llvm::SmallPtrSet<Operation *, 32> made(created.begin(), created.end());
    for (Operation &op : func.getBody().getOps())
      stats.transforms += made.contains(&op);
    return success();
  }

  LayoutRewriteStats stats;

private:
  /// `v`, which its readers see in layout `from`, in layout `to`.
  FailureOr<Value> convert(Value v, StringRef from, StringRef to) {
    if (from == to)
      return v;
    if (auto t = v.getDefiningOp<LayoutTransformOp>(); t && t.getDstLayout() == from)
      return t.getSrcLayout() == to ? t.getInput()
                                    : convert(t.getInput(), t.getSrcLayout(), to);
    auto key = std::make_pair(v, StringAttr::get(func.getContext(), to));
    if (Value known = cache.lookup(key))
      return known;
    OpBuilder b(func.getContext());
    b.setInsertionPointAfterValue(v);
    if (Value moved = permutedConstant(b, v, from, to)) {
      ++stats.constants;
      cache[key] = moved;
      return moved;
    }
    auto t = LayoutTransformOp::create(b, v.getLoc(), v, from, to);
    Value result = t.getResult();
    if (std::optional<Tensor> value = readConstant(v)) {
      FailureOr<std::vector<Tensor>> folded = evaluateOp(t, {*value});
      if (failed(folded))
        return t.emitError("cannot transform the constant from ") << from << " to " << to;
      result = createConstant(b, v.getLoc(), folded->front(), "layout");
      t.erase();
      ++stats.constants;
    } else {
      created.push_back(t);
    }
    cache[key] = result;
    return result;
  }

  /// `v`, a constant with raw bytes of 1, 2, 4 or 8 per element (f32,
  /// f16, bf16, integers), with its axes permuted from `from` to `to` on
  /// those bytes (weights: megabytes, which the reference interpreter's
  /// doubles would copy three times, and narrow floats round-trip through
  /// them); null otherwise. The bytes are written later, all constants' at
  /// once on the context's threads (writePending).
  Value permutedConstant(OpBuilder &b, Value v, StringRef from, StringRef to) {
    auto c = v.getDefiningOp<ConstantOp>();
    std::optional<SmallVector<int64_t>> perm = permutationBetween(from, to);
    auto type = cast<RankedTensorType>(v.getType());
    written(v);
    std::optional<ArrayRef<char>> bytes = c ? payloadBytes(c) : std::nullopt;
    if (!bytes || !perm || static_cast<int64_t>(perm->size()) != type.getRank() ||
        type.getNumElements() == 0)
      return {};
    // payloadBytes holds whole bytes per element of an integer or float.
    int64_t width = type.getElementTypeBitWidth() / 8;
    if (!llvm::is_contained({1, 2, 4, 8}, width))
      return {};
    RankedTensorType outType = permuted(type, *perm);
    AsmResourceBlob blob = allocateBlob(bytes->size());
    char *out = blob.getMutableData().data();
    auto attr = DenseResourceElementsAttr::get(outType, "layout", std::move(blob));
    auto moved = ConstantOp::create(b, v.getLoc(), attr);
    pending.insert(moved);
    permutes.push_back({bytes->data(), width, llvm::to_vector(type.getShape()), *perm, out});
    return moved;
  }

  /// `v`, with its bytes written first if it is a constant whose bytes
  /// are pending.
  Value written(Value v) {
    if (auto c = v.getDefiningOp<ConstantOp>(); c && pending.contains(c))
      writePending();
    return v;
  }
  std::optional<Tensor> readConstant(Value v) { return constantValue(written(v)); }

  /// Writes the permuted constants' bytes, on the context's threads: most
  /// of the time is the kernel zeroing their new pages (the torchvision
  /// ResNet-50's 76 MB: AlterOpLayout's median 84 -> 29 ms on two cores,
  /// faster in 12 of 12 paired runs).
  void writePending() {
    parallelForEach(func.getContext(), permutes, [](const Permute &p) {
      permuteElements(p.in, p.width, p.shape, p.perm, p.out);
    });
    permutes.clear();
    pending.clear();
  }

  /// Replaces `op` by `replacement`, whose result is in `newLayout`, for
  /// readers that expect `oldLayout`.
  void replace(Operation *op, Operation *replacement, StringRef newLayout, StringRef oldLayout) {
    OpBuilder b(replacement->getContext());
    b.setInsertionPointAfter(replacement);
    auto back = LayoutTransformOp::create(b, op->getLoc(), replacement->getResult(0),
                                          newLayout, oldLayout);
    created.push_back(back);
    backs.insert(back);
    op->getResult(0).replaceAllUsesWith(back.getResult());
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        orphans.insert(def);
    op->erase();
  }

  FailureOr<bool> rewriteConv(Conv2DOp conv) {
    StringRef cls = convClass(conv);
    std::optional<OpLayout> want = target.layoutFor(cls);
    StringRef data = conv.getDataLayout(), kernel = conv.getKernelLayout();
    if (!want || (want->data == data && want->kernel == kernel))
      return false;
    std::optional<SmallVector<int64_t>> perm = permutationBetween(data, want->data);
    if (!backendsCompile(cls, *want) || !perm) {
      ++stats.unsupported;
      return false;
    }
    FailureOr<Value> x = convert(conv.getInput(), data, want->data);
    FailureOr<Value> w = convert(conv.getWeight(), kernel, want->kernel);
    if (failed(x) || failed(w))
      return failure();
    OpBuilder b(conv);
    Operation *n = b.clone(*conv);
    n->setOperand(0, *x);
    n->setOperand(1, *w);
    auto newConv = cast<Conv2DOp>(n);
    newConv.setDataLayout(want->data);
    newConv.setKernelLayout(want->kernel);
    n->getResult(0).setType(permuted(conv.getType(), *perm));
    std::string oldData = data.str(); // `conv` is erased below
    replace(conv, n, want->data, oldData);
    ++stats.converted;
    return true;
  }

  /// The axis attribute of the ops that carry one, and a setter.
  static std::optional<int64_t> axisOf(Operation *op) {
    return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
        .Case<BiasAddOp, BatchNormOp, SoftmaxOp, FastSoftmaxOp, ConcatOp>(
            [](auto o) -> std::optional<int64_t> { return o.getAxis(); })
        .Default([](Operation *) { return std::nullopt; });
  }
  static void setAxis(Operation *op, int64_t axis) {
    llvm::TypeSwitch<Operation *>(op).Case<BiasAddOp, BatchNormOp, SoftmaxOp, FastSoftmaxOp,
                                           ConcatOp>([&](auto o) { o.setAxis(axis); });
  }

  static StringRef poolLayout(Operation *op) {
    return llvm::TypeSwitch<Operation *, StringRef>(op)
        .Case<MaxPool2DOp, AvgPool2DOp, GlobalAvgPool2DOp>([](auto o) { return o.getLayout(); })
        .Default([](Operation *) { return ""; });
  }

  /// Rebuilds a layout-agnostic `op` in the layout of the first operand that
  /// is a conversion of something else.
  FailureOr<bool> follow(Operation *op) {
    if (op->getNumResults() != 1 || op->getNumRegions() != 0)
      return false;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    LayoutTransformOp source;
    for (Value v : op->getOperands())
      if (auto t = v.getDefiningOp<LayoutTransformOp>();
          t && backs.contains(t) && type && t.getDstLayout().size() == static_cast<size_t>(type.getRank()) &&
          permutationBetween(t.getDstLayout(), t.getSrcLayout())) {
        source = t;
        break;
      }
    if (!source)
      return false;
    std::string from = source.getDstLayout().str(), to = source.getSrcLayout().str();
    SmallVector<int64_t> perm = *permutationBetween(from, to);
    int64_t rank = type.getRank();

    bool pool = isa<MaxPool2DOp, AvgPool2DOp, GlobalAvgPool2DOp>(op);
    bool numpy = isa<AddOp, SubOp, MulOp, DivOp, PowOp, MaximumOp, MinimumOp>(op);
    std::optional<int64_t> axis = axisOf(op);
    if (pool && (poolLayout(op) != from ||
                 (to != "NCHW" && to != "NHWC")))
      return false;
    if (!pool && !numpy && !axis && !op->hasTrait<OpTrait::Elementwise>())
      return false;

    // Decide first, so that a refusal changes nothing.
    enum class Take { Convert, Keep, PadConstant };
    SmallVector<Take> plan;
    for (Value v : op->getOperands()) {
      auto vt = dyn_cast<RankedTensorType>(v.getType());
      if (!vt)
        return false;
      if (vt.getRank() == rank)
        plan.push_back(Take::Convert);
      else if (axis || vt.getNumElements() == 1) // per-axis parameters, scalars
        plan.push_back(Take::Keep);
      else if (numpy && readConstant(v))
        plan.push_back(Take::PadConstant);
      else
        return false;
    }
    SmallVector<Value> operands;
    for (auto [v, take] : llvm::zip(op->getOperands(), plan)) {
      Value in = v;
      if (take == Take::PadConstant) {
        // Numpy alignment: leading ones up to the result's rank.
        Tensor t = *readConstant(v);
        t.shape.insert(t.shape.begin(), rank - t.shape.size(), 1);
        OpBuilder b(op);
        in = createConstant(b, v.getLoc(), t, "broadcast");
      }
      if (take == Take::Keep) {
        operands.push_back(in);
        continue;
      }
      FailureOr<Value> converted = convert(in, from, to);
      if (failed(converted))
        return failure();
      if (in != v) { // the padded copy is folded into the converted one
        cache.erase({in, StringAttr::get(func.getContext(), to)});
        in.getDefiningOp()->erase();
      }
      // A broadcast constant whose only ones lead (a bias [1, 1, 1, C] in
      // NHWC) without them, [C]: the lowering then indexes it by loops
      // alone, which lets a convolution's epilogue fuse through the reshape
      // of its product.
      ArrayRef<int64_t> shape = cast<RankedTensorType>(converted->getType()).getShape();
      auto rest = llvm::find_if(shape, [](int64_t d) { return d != 1; });
      if (numpy && take != Take::Keep && rest != shape.begin() && rest != shape.end() &&
          !llvm::is_contained(llvm::make_range(rest, shape.end()), 1))
        if (std::optional<Tensor> t = readConstant(*converted)) {
          t->shape.assign(rest, shape.end());
          OpBuilder b(op);
          converted = createConstant(b, v.getLoc(), *t, "broadcast");
        }
      operands.push_back(*converted);
    }
    OpBuilder b(op);
    Operation *n = b.clone(*op);
    n->setOperands(operands);
    n->getResult(0).setType(permuted(type, perm));
    if (pool)
      llvm::TypeSwitch<Operation *>(n).Case<MaxPool2DOp, AvgPool2DOp, GlobalAvgPool2DOp>(
          [&](auto o) { o.setLayout(to); });
    if (axis) {
      int64_t a = *normalizeAxis(*axis, rank);
      setAxis(n, to.find(from[a]));
    }
    replace(op, n, to, from);
    ++stats.followed;
    return true;
  }

  /// A constant's bytes to write: `in` [shape] with its axes permuted.
  struct Permute {
    const char *in;
    int64_t width; ///< bytes per element
    SmallVector<int64_t> shape, perm;
    char *out;
  };

  func::FuncOp func;
  const TargetDescription &target;
  SmallVector<Permute> permutes;              ///< bytes not written yet
  llvm::SmallPtrSet<Operation *, 32> pending; ///< the constants they are for
  DenseMap<std::pair<Value, Attribute>, Value> cache;
  SmallVector<Operation *> created; ///< transforms made, in creation order
  llvm::SmallPtrSet<Operation *, 32> backs; ///< those converting results back
  llvm::SetVector<Operation *> orphans;      ///< read by ops since rebuilt
};
} // namespace

LogicalResult dlc::rewriteLayouts(func::FuncOp func, const TargetDescription &target,
                                  StringRef pass) {
  LayoutRewriter rewriter(func, target);
  if (failed(rewriter.run()))
    return failure();
  const LayoutRewriteStats &s = rewriter.stats;
  recordPassStat(pass, "converted", s.converted);
  recordPassStat(pass, "followed", s.followed);
  recordPassStat(pass, "constants", s.constants);
  recordPassStat(pass, "transforms", s.transforms);
  recordPassStat(pass, "unsupported", s.unsupported);
  return success();
}
