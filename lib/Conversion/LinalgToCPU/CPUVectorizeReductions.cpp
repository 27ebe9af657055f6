//===- CPUVectorizeReductions.cpp - row reductions in vector registers -----===//
//
// A reduction along a contiguous row (a softmax's max and sum, a layer
// norm's mean and variance) lowered by linalg to loops is a chain of scalar
// additions through one accumulator, which LLVM may not reorder: one
// addition per 3-4 cycles. Here each row accumulates a vector of partial
// results instead, which one horizontal reduction finishes: a vector's
// worth of additions per step.
//
//===----------------------------------------------------------------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"

namespace dlc {
#define GEN_PASS_DEF_CPUVECTORIZEREDUCTIONSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// How the body of a row reduction combines its value into the output, and
/// the value the vector of partial results starts from.
struct Combiner {
  Operation *op;
  vector::CombiningKind kind;
  double identity;
};

std::optional<Combiner> combinerOf(linalg::GenericOp op) {
  Block &body = *op.getBlock();
  BlockArgument out = body.getArguments().back();
  Operation *yielded = body.getTerminator()->getOperand(0).getDefiningOp();
  if (!yielded || !out.hasOneUse() || *out.user_begin() != yielded)
    return std::nullopt;
  const double inf = std::numeric_limits<double>::infinity();
  using Kind = vector::CombiningKind;
  return llvm::TypeSwitch<Operation *, std::optional<Combiner>>(yielded)
      .Case([&](arith::AddFOp c) { return Combiner{c, Kind::ADD, 0.0}; })
      .Case([&](arith::MulFOp c) { return Combiner{c, Kind::MUL, 1.0}; })
      .Case([&](arith::MaximumFOp c) { return Combiner{c, Kind::MAXIMUMF, -inf}; })
      .Case([&](arith::MaxNumFOp c) { return Combiner{c, Kind::MAXNUMF, -inf}; })
      .Case([&](arith::MinimumFOp c) { return Combiner{c, Kind::MINIMUMF, inf}; })
      .Case([&](arith::MinNumFOp c) { return Combiner{c, Kind::MINNUMF, inf}; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Whether `op` reduces the rows of f32 buffers along its last loop: every
/// other loop parallel, static ranges, inputs read along the row contiguous
/// (the loop indexes only their last dimension) or not at all, the output
/// not indexed by it, and a body of elementwise arith and math ops that
/// combines one value into the output.
bool isRowReduction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 || op.getNumDpsInputs() == 0 ||
      op.getNumLoops() == 0)
    return false;
  unsigned row = op.getNumLoops() - 1;
  auto iters = op.getIteratorTypesArray();
  for (auto [i, it] : llvm::enumerate(iters))
    if ((it == utils::IteratorType::reduction) != (i == row))
      return false;
  if (llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!type || !type.getElementType().isF32() || !map.isProjectedPermutation(true))
      return false;
    bool isInit = op.isDpsInit(&operand);
    for (auto [i, e] : llvm::enumerate(map.getResults()))
      if (e.isFunctionOfDim(row) &&
          (isInit || i + 1 != map.getNumResults() || !type.areTrailingDimsContiguous(1)))
        return false;
  }
  return combinerOf(op) && llvm::all_of(op.getBlock()->without_terminator(), [](Operation &o) {
           return isa<arith::ArithDialect, math::MathDialect>(o.getDialect()) &&
                  o.getNumRegions() == 0 && o.getNumResults() == 1 && isMemoryEffectFree(&o) &&
                  o.getResult(0).getType().isIntOrFloat();
         });
}

struct RowReduction {
  linalg::GenericOp op;
  Combiner combiner;
  int64_t lanes;
  /// The padding value of vector reads (never read: reads are in bounds).
  Value pad;

  /// The indices of `operand`'s element at loop indices `ivs`.
  SmallVector<Value> indices(OpBuilder &b, Location loc, OpOperand &operand, ValueRange ivs) {
    SmallVector<Value> result;
    for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults()) {
      OpFoldResult i = affine::makeComposedFoldedAffineApply(
          b, loc, AffineMap::get(ivs.size(), 0, e), getAsOpFoldResult(ivs));
      result.push_back(getValueOrCreateConstantIndexOp(b, loc, i));
    }
    return result;
  }

  /// The combination into `acc` of the body's value at row position `k`,
  /// `vl` elements of the row at once (0: one, as scalars). `row` maps the
  /// block arguments of the inputs that the row loop does not index to
  /// their values (vectors for `vl`), loaded once per row.
  Value combine(OpBuilder &b, Location loc, SmallVector<Value> ivs, Value k, int64_t vl,
                const IRMapping &row, Value acc) {
    Block &body = *op.getBlock();
    ivs.push_back(k);
    IRMapping map = row;
    map.map(body.getArguments().back(), acc);
    auto vectorType = [&](Type t) { return VectorType::get({vl}, t); };
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      if (map.contains(arg))
        continue;
      SmallVector<Value> at = indices(b, loc, *input, ivs);
      if (vl)
        map.map(arg, vector::TransferReadOp::create(b, loc, vectorType(b.getF32Type()),
                                                    input->get(), at, pad,
                                                    ArrayRef<bool>{true}));
      else
        map.map(arg, memref::LoadOp::create(b, loc, input->get(), at));
    }
    // The body's ops, vectors where an operand is one (a value of the row,
    // or the accumulator); the others' operands broadcast.
    auto isVector = [&](Value v) { return isa<VectorType>(map.lookupOrDefault(v).getType()); };
    for (Operation &o : body.without_terminator()) {
      bool vary = llvm::any_of(o.getOperands(), isVector);
      IRMapping operands;
      for (Value v : o.getOperands()) {
        Value m = map.lookupOrDefault(v);
        operands.map(v, vary && !isVector(v)
                            ? vector::BroadcastOp::create(b, loc, vectorType(m.getType()), m)
                            : m);
      }
      Operation *clone = b.clone(o, operands);
      if (vary)
        clone->getResult(0).setType(vectorType(o.getResult(0).getType()));
      if (&o == combiner.op)
        return clone->getResult(0);
      map.map(o.getResult(0), clone->getResult(0));
    }
    llvm_unreachable("the combiner is in the body");
  }

  /// The row loop of `op` at outer loop indices `ivs`: whole vectors, their
  /// horizontal reduction, the rest of the row one element at a time, then
  /// the output's value combined in.
  void emitRow(OpBuilder &b, Location loc, SmallVector<Value> ivs, int64_t n) {
    int64_t vl = std::min<int64_t>(lanes, static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(n))));
    int64_t whole = n / vl * vl;
    auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
    // The inputs the row loop does not index, once per row.
    Block &body = *op.getBlock();
    unsigned rowLoop = op.getNumLoops() - 1;
    IRMapping scalars, vectors;
    SmallVector<Value> at = ivs;
    at.push_back(index(0));
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (op.getMatchingIndexingMap(input).isFunctionOfDim(rowLoop))
        continue;
      Value v = memref::LoadOp::create(b, loc, input->get(), indices(b, loc, *input, at));
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      scalars.map(arg, v);
      vectors.map(arg, vector::BroadcastOp::create(b, loc, VectorType::get({vl}, v.getType()), v));
    }
    auto vecType = VectorType::get({vl}, b.getF32Type());
    Value start = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vecType, b.getF32FloatAttr(combiner.identity)));
    auto partial = scf::ForOp::create(
        b, loc, index(0), index(whole), index(vl), ValueRange{start},
        [&](OpBuilder &nb, Location l, Value k, ValueRange acc) {
          scf::YieldOp::create(nb, l, combine(nb, l, ivs, k, vl, vectors, acc.front()));
        });
    // Lanes in any order: the partial results already are.
    Value acc = vector::ReductionOp::create(b, loc, combiner.kind, partial.getResult(0),
                                            arith::FastMathFlags::reassoc);
    if (whole < n)
      acc = scf::ForOp::create(b, loc, index(whole), index(n), index(1), ValueRange{acc},
                               [&](OpBuilder &nb, Location l, Value k, ValueRange a) {
                                 scf::YieldOp::create(
                                     nb, l, combine(nb, l, ivs, k, 0, scalars, a.front()));
                               })
                .getResult(0);
    OpOperand *init = op.getDpsInitOperand(0);
    SmallVector<Value> outAt = indices(b, loc, *init, at);
    Value old = memref::LoadOp::create(b, loc, init->get(), outAt);
    IRMapping operands;
    operands.map(combiner.op->getOperand(0), old);
    operands.map(combiner.op->getOperand(1), acc);
    Value result = b.clone(*combiner.op, operands)->getResult(0);
    memref::StoreOp::create(b, loc, result, init->get(), outAt);
  }

  void run(RewriterBase &rewriter) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t n = ranges.pop_back_val();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    pad = arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t r : ranges) {
      lbs.push_back(arith::ConstantIndexOp::create(rewriter, loc, 0));
      ubs.push_back(arith::ConstantIndexOp::create(rewriter, loc, r));
      steps.push_back(arith::ConstantIndexOp::create(rewriter, loc, 1));
    }
    scf::buildLoopNest(rewriter, loc, lbs, ubs, steps,
                       [&](OpBuilder &b, Location l, ValueRange ivs) {
                         emitRow(b, l, llvm::to_vector(ivs), n);
                       });
    rewriter.eraseOp(op);
  }
};

struct CPUVectorizeReductionsPass
    : dlc::impl::CPUVectorizeReductionsPassBase<CPUVectorizeReductionsPass> {
  using CPUVectorizeReductionsPassBase::CPUVectorizeReductionsPassBase;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      // Rows shorter than 4 elements gain nothing from vectors.
      if (isRowReduction(op) && op.getStaticLoopRanges().back() >= 4)
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops)
      RowReduction{op, *combinerOf(op), vectorBits / 32, Value()}.run(rewriter);
    dlc::recordPassStat(getArgument(), "vectorized", ops.size());
  }
};
} // namespace
