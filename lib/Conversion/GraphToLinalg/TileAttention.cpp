//===- TileAttention.cpp - attention as one loop over heads and rows -------===//
//
// A kernel outlined from MergeComposite's `attention` (scores Q x K', an
// optional scale and additive mask, a softmax over the keys, the context
// P x V) computes, unfused, every head's whole score matrix and goes over it
// four or five times in memory. Each row of the scores needs only its own
// row of Q and the whole of K and V of its head, so the kernel becomes one
// parallel loop over heads and blocks of query rows whose body computes the
// chain on that block: its scores stay in cache from the product that makes
// them to the product that reads them. K is transposed once, before the
// loop, rather than by every block. The body stays graph ops on the block's
// slices; graph-to-linalg lowers them where they are. The CPU runs the loop
// on its threads, the GPU as one kernel of a block per iteration.
//
//===----------------------------------------------------------------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Support/Shape.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

namespace dlc {
#define GEN_PASS_DEF_TILEATTENTIONPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
/// The matched chain: `scores = batch_matmul(q, k)`, then `between` (one
/// use each, in order: reshapes, a scale, a mask, the softmax; each reads
/// the chain's value at `operand`), then `context = batch_matmul(
/// probabilities, v)`.
struct Attention {
  struct Step {
    Operation *op;
    unsigned operand;
    /// For a mask per sample (`[batch, 1, .., 1, keys]` against values
    /// `[batch, heads, .., rows, keys]`): the heads of a sample, whose
    /// block reads the mask's row h / samplesHeads; 0 otherwise.
    int64_t sampleHeads = 0;
  };
  graph::BatchMatmulOp scores, context;
  SmallVector<Step> between;
  /// The context's heads merged into its rows' layout, where the chain
  /// ends so (MergeComposite's longer patterns): `split` [B*H, S, W] to
  /// [B, H, S, W], `transpose` to [B, S, H, W], and `join` to any shape of
  /// it, if the kernel has it (outlining may leave it to the caller). The
  /// loop then writes each block where the transpose has it.
  graph::ReshapeOp split, join;
  graph::TransposeOp transpose;
};

RankedTensorType staticType(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape() ? t : RankedTensorType();
}

/// Whether `v`, an operand of the scale or mask, broadcasts along every
/// dimension of the scores but the keys (the last): each block reads it
/// whole.
bool perKeyOnly(Value v, int64_t rank) {
  RankedTensorType t = staticType(v);
  if (!t || t.getRank() > rank)
    return false;
  ArrayRef<int64_t> shape = t.getShape();
  return llvm::all_of(shape.drop_back(shape.empty() ? 0 : 1), [](int64_t d) { return d == 1; });
}

/// The heads of a sample if `v` is a mask per sample against `values`
/// ([batch, heads.., rows, keys], batch > 1): `[batch, 1, .., 1, keys]`,
/// the same keys or one; 0 otherwise.
int64_t sampleHeads(Value v, RankedTensorType values) {
  RankedTensorType t = staticType(v);
  int64_t rank = values.getRank();
  if (!t || t.getRank() != rank || rank < 3 || t.getDimSize(0) != values.getDimSize(0) ||
      t.getDimSize(0) == 1 || !llvm::all_of(t.getShape().slice(1, rank - 2), [](int64_t d) {
        return d == 1;
      }))
    return 0;
  int64_t heads = 1;
  for (int64_t d : values.getShape().slice(1, rank - 3))
    heads *= d;
  return heads;
}

/// Records in `a` the merge of the context's heads ending the chain at
/// `result` (Attention::split), if there is one: reshape [B*H, S, W] to
/// [B, H, S, W], transpose (0, 2, 1, 3), and a reshape or not, each read
/// once.
void matchHeadsMerge(Value result, Attention &a) {
  auto join = result.getDefiningOp<graph::ReshapeOp>();
  auto transpose = (join ? join.getInput() : result).getDefiningOp<graph::TransposeOp>();
  auto split = transpose ? transpose.getInput().getDefiningOp<graph::ReshapeOp>() : nullptr;
  RankedTensorType context = split ? staticType(split.getInput()) : RankedTensorType();
  RankedTensorType heads = split ? staticType(split.getResult()) : RankedTensorType();
  if (!context || !heads || context.getRank() != 3 || heads.getRank() != 4 ||
      heads.getNumElements() == 0 || transpose.getPerm() != ArrayRef<int64_t>{0, 2, 1, 3} ||
      heads.getDimSize(0) * heads.getDimSize(1) != context.getDimSize(0) ||
      heads.getShape().take_back(2) != context.getShape().take_back(2) ||
      !split.getResult().hasOneUse() || !transpose.getResult().hasOneUse() ||
      (join && !staticType(join.getResult())))
    return;
  a.split = split;
  a.transpose = transpose;
  a.join = join;
}

/// The chain `kernel` computes, if it is one this pass tiles (the reason
/// why not in each failure, for reading).
FailureOr<Attention> matchAttention(func::FuncOp kernel) {
  auto fail = [](const char *) { return failure(); };
  auto ret = dyn_cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
  if (!ret || ret.getNumOperands() != 1)
    return fail("not one result");
  Attention a;
  // The context: the result, or behind the reshapes and transposes that
  // MergeComposite's longer patterns end with. Those that merge the heads
  // become the loop's writes; others stay after the loop.
  Value result = ret.getOperand(0), context = result;
  for (int tail = 0; tail < 3 && isa_and_present<graph::ReshapeOp, graph::TransposeOp>(
                                     context.getDefiningOp());
       ++tail)
    context = context.getDefiningOp()->getOperand(0);
  a.context = context.getDefiningOp<graph::BatchMatmulOp>();
  if (!a.context || a.context.getTransposeA() || a.context.getTransposeB())
    return fail("its result is not a plain batch_matmul");
  if (context != result && !context.hasOneUse())
    return fail("the context has other uses");
  matchHeadsMerge(result, a);
  Value v = a.context.getLhs();
  // Back from the context's probabilities to the scores.
  while (Operation *op = v.getDefiningOp()) {
    if ((a.scores = dyn_cast<graph::BatchMatmulOp>(op)))
      break;
    if (!v.hasOneUse())
      return fail("an intermediate value has other uses");
    std::optional<int64_t> axis;
    if (auto s = dyn_cast<graph::SoftmaxOp>(op))
      axis = s.getAxis();
    if (auto s = dyn_cast<graph::FastSoftmaxOp>(op))
      axis = s.getAxis();
    if (axis && *axis != -1 && (!staticType(v) || *axis != staticType(v).getRank() - 1))
      return fail("the softmax is not over the keys");
    if (!isa<graph::ReshapeOp, graph::MulOp, graph::DivOp, graph::AddOp, graph::SoftmaxOp,
             graph::FastSoftmaxOp>(op))
      return fail("another op between the products");
    // A scale or mask reads the chain's value at the operand of the
    // result's shape (the other broadcasts).
    unsigned operand = op->getNumOperands() == 2 &&
                       op->getOperand(0).getType() != op->getResult(0).getType();
    a.between.push_back({op, operand});
    v = op->getOperand(operand);
  }
  if (!a.scores || a.scores.getTransposeA() || !v.hasOneUse())
    return fail("no plain batch_matmul of scores");
  std::reverse(a.between.begin(), a.between.end());
  if (llvm::count_if(a.between, [](Attention::Step s) {
        return isa<graph::SoftmaxOp, graph::FastSoftmaxOp>(s.op);
      }) != 1)
    return fail("not one softmax");
  RankedTensorType s = staticType(a.scores.getResult()), c = staticType(a.context.getResult());
  if (!s || !c || !staticType(a.context.getRhs()) || !staticType(a.scores.getLhs()) ||
      !staticType(a.scores.getRhs()))
    return fail("dynamic shapes");
  // One head per block of every operand: no batch broadcast.
  int64_t heads = s.getDimSize(0);
  if (llvm::any_of(ValueRange{a.scores.getLhs(), a.scores.getRhs(), a.context.getRhs()},
                   [&](Value x) { return staticType(x).getDimSize(0) != heads; }))
    return fail("operands of different batches");
  for (Attention::Step &step : a.between) {
    Operation *op = step.op;
    RankedTensorType t = staticType(op->getResult(0));
    // Reshapes only split or merge the leading (batch and head)
    // dimensions; the rows and keys stay the last two.
    if (!t || t.getRank() < 2 || t.getShape().take_back(2) != s.getShape().take_back(2))
      return fail("an intermediate shape moves the rows or keys");
    if (!isa<graph::MulOp, graph::DivOp, graph::AddOp>(op))
      continue;
    Value other = op->getOperand(1 - step.operand);
    step.sampleHeads = sampleHeads(other, t);
    if (op->getOperand(step.operand).getType() != t ||
        (!step.sampleHeads && !perKeyOnly(other, t.getRank())))
      return fail("a scale or mask varies along heads or rows");
  }
  return a;
}

/// The rows of a block: a multiple of `multiple` dividing `rows` whose
/// scores fit in `bytes`; where none does (AVX2's 6-row register tiles of
/// 512 rows), any divisor that fits, the CPU's product kernel peeling its
/// partial register tile; all the rows where they fit or nothing divides.
int64_t blockRows(int64_t rows, int64_t keys, int64_t multiple, int64_t bytes) {
  int64_t limit = std::max<int64_t>(multiple, bytes / (keys * 4));
  if (int64_t t = dividingTile(rows, std::min(multiple, rows), limit))
    return t;
  int64_t t = rows > limit ? dividingTile(rows, 1, limit) : 0;
  return t ? t : rows;
}

/// `op` cloned onto `operands` (the block's values), its result typed for
/// them: inferred, the operand's for a softmax, `rowsKeys` with leading 1s
/// at its rank for a reshape.
Value cloneOnBlock(OpBuilder &b, Operation *op, ValueRange operands, ArrayRef<int64_t> rowsKeys) {
  Operation *clone = b.clone(*op);
  clone->setOperands(operands);
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Type result;
  if (isa<graph::ReshapeOp>(op)) {
    SmallVector<int64_t> shape(type.getRank() - 2, 1);
    shape.append(rowsKeys.begin(), rowsKeys.end());
    result = type.clone(shape);
  } else if (isa<graph::SoftmaxOp, graph::FastSoftmaxOp>(op)) {
    result = operands[0].getType();
  } else {
    SmallVector<Type> inferred;
    auto infer = cast<InferTypeOpInterface>(clone);
    if (failed(infer.inferReturnTypes(b.getContext(), clone->getLoc(), clone->getOperands(),
                                      clone->getAttrDictionary(), clone->getPropertiesStorage(),
                                      clone->getRegions(), inferred)))
      return {};
    result = inferred.front();
  }
  clone->getResult(0).setType(result);
  return clone->getResult(0);
}

/// Rebuilds the kernel as one scf.forall over heads and blocks of rows;
/// fails, changing nothing, where a step's type cannot be inferred.
LogicalResult tile(Attention &a, int64_t rowsPerBlock) {
  // Before the context, where every operand of the chain is defined.
  OpBuilder b(a.context);
  Location loc = a.scores.getLoc();
  Value q = a.scores.getLhs(), k = a.scores.getRhs(), v = a.context.getRhs();
  auto qType = staticType(q), vType = staticType(v), outType = staticType(a.context.getResult());
  int64_t heads = qType.getDimSize(0), rows = qType.getDimSize(1), depth = qType.getDimSize(2);
  int64_t keys = staticType(a.scores.getResult()).getDimSize(2), width = vType.getDimSize(2);
  // K as [heads, depth, keys], once.
  Operation *transpose = nullptr;
  if (a.scores.getTransposeB()) {
    auto kType = staticType(k);
    auto kt = RankedTensorType::get({heads, depth, keys}, kType.getElementType());
    transpose = graph::TransposeOp::create(b, loc, kt, k, b.getDenseI64ArrayAttr({0, 2, 1}));
    k = transpose->getResult(0);
  }
  // The loop's result: the context, or with its heads merged [B, S, H, W].
  SmallVector<int64_t> resultShape(outType.getShape());
  int64_t headsPerSample = 0;
  if (a.split) {
    headsPerSample = staticType(a.split.getResult()).getDimSize(1);
    resultShape = {heads / headsPerSample, rows, headsPerSample, width};
  }
  Value init = tensor::EmptyOp::create(b, loc, resultShape, outType.getElementType());
  SmallVector<OpFoldResult> lbs = {b.getIndexAttr(0), b.getIndexAttr(0)};
  SmallVector<OpFoldResult> ubs = {b.getIndexAttr(heads), b.getIndexAttr(rows)};
  SmallVector<OpFoldResult> steps = {b.getIndexAttr(1), b.getIndexAttr(rowsPerBlock)};
  auto loop = scf::ForallOp::create(b, loc, lbs, ubs, steps, ValueRange{init}, std::nullopt);
  b.setInsertionPointToStart(loop.getBody());
  Value h = loop.getInductionVar(0), r = loop.getInductionVar(1);
  // Head h's [1, n, m] from row `row`: offsets, sizes and strides.
  auto box = [&](OpFoldResult row, int64_t n, int64_t m) {
    return std::array<SmallVector<OpFoldResult>, 3>{
        SmallVector<OpFoldResult>{h, row, b.getIndexAttr(0)},
        SmallVector<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(n), b.getIndexAttr(m)},
        SmallVector<OpFoldResult>(3, b.getIndexAttr(1))};
  };
  auto slice = [&](Value t, OpFoldResult row, int64_t n, int64_t m) {
    auto [offsets, sizes, strides] = box(row, n, m);
    return tensor::ExtractSliceOp::create(b, loc, t, offsets, sizes, strides).getResult();
  };
  Value qBlock = slice(q, r, rowsPerBlock, depth);
  Value kHead = slice(k, b.getIndexAttr(0), depth, keys);
  Value vHead = slice(v, b.getIndexAttr(0), keys, width);
  Type element = staticType(a.scores.getResult()).getElementType();
  Value x = graph::BatchMatmulOp::create(
      b, loc, RankedTensorType::get({1, rowsPerBlock, keys}, element), qBlock, kHead,
      /*transpose_a=*/false, /*transpose_b=*/false);
  for (auto [op, operand, perSample] : a.between) {
    SmallVector<Value> operands(op->getOperands());
    operands[operand] = x;
    if (perSample) { // the mask's row of the block's sample
      Value other = operands[1 - operand];
      auto type = staticType(other);
      Value sample =
          arith::DivUIOp::create(b, loc, h, arith::ConstantIndexOp::create(b, loc, perSample));
      SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
      offsets[0] = sample;
      SmallVector<OpFoldResult> sizes(type.getRank(), b.getIndexAttr(1));
      sizes.back() = b.getIndexAttr(type.getShape().back());
      SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
      operands[1 - operand] =
          tensor::ExtractSliceOp::create(b, loc, other, offsets, sizes, strides);
    }
    if (!(x = cloneOnBlock(b, op, operands, {rowsPerBlock, keys}))) {
      loop.erase();
      if (transpose)
        transpose->erase();
      init.getDefiningOp()->erase();
      return failure();
    }
  }
  Value out = graph::BatchMatmulOp::create(
      b, loc, RankedTensorType::get({1, rowsPerBlock, width}, outType.getElementType()), x,
      vHead, false, false);
  Value sample, head;
  if (a.split) {
    Value perSample = arith::ConstantIndexOp::create(b, loc, headsPerSample);
    sample = arith::DivUIOp::create(b, loc, h, perSample);
    head = arith::RemUIOp::create(b, loc, h, perSample);
  }
  b.setInsertionPointToStart(loop.getTerminator().getBody());
  auto [offsets, sizes, strides] = box(r, rowsPerBlock, width);
  if (a.split) { // the block [1, rows, W] at [sample, r, head, 0] of [B, S, H, W]
    offsets = {sample, r, head, b.getIndexAttr(0)};
    sizes = {b.getIndexAttr(1), b.getIndexAttr(rowsPerBlock), b.getIndexAttr(1),
             b.getIndexAttr(width)};
    strides.push_back(b.getIndexAttr(1));
  }
  tensor::ParallelInsertSliceOp::create(b, loc, out, loop.getRegionIterArgs()[0], offsets, sizes,
                                        strides);
  // The loop replaces the chain's last op: the context, or its heads' merge.
  b.setInsertionPointAfter(loop);
  Value result = loop.getResult(0);
  if (a.join)
    result = graph::ReshapeOp::create(b, loc, a.join.getType(), result);
  Operation *last = a.join      ? a.join.getOperation()
                    : a.split ? a.transpose.getOperation()
                              : a.context.getOperation();
  last->getResult(0).replaceAllUsesWith(result);
  for (Operation *op : {a.join.getOperation(), a.transpose.getOperation(), a.split.getOperation(),
                        a.context.getOperation()})
    if (op)
      op->erase();
  for (Attention::Step s : llvm::reverse(a.between))
    s.op->erase();
  a.scores.erase();
  return success();
}

struct TileAttentionPass : dlc::impl::TileAttentionPassBase<TileAttentionPass> {
  using TileAttentionPassBase::TileAttentionPassBase;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    if (rowMultiple < 1) {
      kernel.emitError() << getArgument() << ": row-multiple=" << int64_t(rowMultiple)
                         << " is not a number of rows (1 or more)";
      return signalPassFailure();
    }
    if (blockBytes < 4) {
      kernel.emitError() << getArgument() << ": block-bytes=" << int64_t(blockBytes)
                         << " holds no f32 score (4 bytes or more)";
      return signalPassFailure();
    }
    auto name = kernel->getAttrOfType<StringAttr>("dlc.composite");
    if (!name || name.getValue() != "attention")
      return;
    FailureOr<Attention> a = matchAttention(kernel);
    auto q = succeeded(a) ? staticType(a->scores.getLhs()) : RankedTensorType();
    int64_t keys = q ? staticType(a->scores.getResult()).getDimSize(2) : 0;
    // (a row of scores larger than a block's: left)
    bool tiled = q && keys * 4 <= blockBytes &&
                 succeeded(tile(*a, blockRows(q.getDimSize(1), keys, rowMultiple, blockBytes)));
    // Left as it was (a chain of another shape): computed op by op.
    recordPassStat(getArgument(), tiled ? "tiled" : "left", 1);
  }
};
} // namespace
