//===- CPUUnrollWindows.cpp - small windows as straight-line code ----------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace dlc {
#define GEN_PASS_DEF_CPUUNROLLWINDOWSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The loop order (parallel loops in the order of the output's dimensions,
/// then the reduction loops) if `op` is an op on buffers with a single
/// output that is either a window op (an input indexed by a sum or multiple
/// of loops) whose reduction loops have static ranges of at most
/// `maxWindow` iterations together, or has no reductions at all (a windowed
/// copy such as an im2col, an elementwise op, a broadcast); empty otherwise.
static SmallVector<unsigned> windowOrder(linalg::GenericOp op, int64_t maxWindow) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1)
    return {};
  bool window = llvm::any_of(op.getIndexingMapsArray(), [](AffineMap m) {
    return llvm::any_of(m.getResults(), [](AffineExpr e) {
      return e.getKind() == AffineExprKind::Add || e.getKind() == AffineExprKind::Mul;
    });
  });
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  auto last = out.getNumResults() ? dyn_cast<AffineDimExpr>(out.getResults().back()) : nullptr;
  if (!last || (!window && op.getNumReductionLoops() > 0))
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto iters = op.getIteratorTypesArray();
  // Parallel loops the output does not index (none in practice) first.
  SmallVector<unsigned> order, reduction;
  for (auto [i, it] : llvm::enumerate(iters))
    if (it == utils::IteratorType::parallel && !out.isFunctionOfDim(i))
      order.push_back(i);
  for (AffineExpr e : out.getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      order.push_back(dim.getPosition());
  int64_t windowSize = 1;
  for (auto [i, it] : llvm::enumerate(iters)) {
    if (it == utils::IteratorType::parallel)
      continue;
    if (ShapedType::isDynamic(ranges[i]))
      return {};
    windowSize *= ranges[i];
    reduction.push_back(i);
  }
  if (windowSize > maxWindow || order.size() + reduction.size() != iters.size())
    return {};
  order.append(reduction.begin(), reduction.end());
  return order;
}

/// Within `block` (straight-line code of an unrolled window), a load of
/// the element the last store wrote takes the stored value, and a store
/// that a later one to the same element overwrites before any other read of
/// that buffer goes: the output element stays in a register across the
/// window. Other buffers are taken not to alias the output (the op's
/// operands are distinct buffers after bufferization).
static void forwardStores(Block &block) {
  auto sameElement = [](memref::StoreOp store, Value memref, ValueRange indices) {
    return store.getMemref() == memref && llvm::equal(store.getIndices(), indices);
  };
  SmallVector<memref::StoreOp> pending; // not yet read back
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      auto it = llvm::find_if(pending, [&](memref::StoreOp s) {
        return sameElement(s, load.getMemref(), load.getIndices());
      });
      if (it != pending.end()) {
        load.replaceAllUsesWith(it->getValueToStore());
        load.erase();
      } else {
        llvm::erase_if(pending, [&](memref::StoreOp s) { return s.getMemref() == load.getMemref(); });
      }
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      auto it = llvm::find_if(pending, [&](memref::StoreOp s) {
        return sameElement(s, store.getMemref(), store.getIndices());
      });
      if (it != pending.end()) {
        it->erase();
        pending.erase(it);
      }
      pending.push_back(store);
      continue;
    }
    if (!isMemoryEffectFree(&op))
      pending.clear();
  }
}

/// Moves the reads of buffers that `nest` (a window op's loops, lowered and
/// vectorized) does not write, with the pure ops they need, out of every
/// loop of the nest whose iterations they do not depend on: an NCHW
/// depthwise convolution's nine weights (broadcast scalars along its rows)
/// are read once per channel instead of once per output vector, which
/// halves the loads of a 3 x 3 window (an NHWC tile's weights are vectors
/// along its channels, the row loop, and stay). Distinct buffers do not
/// alias, as in forwardStores. Returns the reads moved.
static int64_t hoistInvariantReads(scf::ForOp nest) {
  SmallVector<scf::ForOp> loops; // innermost first
  nest->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  DenseSet<Value> written;
  bool unknown = false;
  nest->walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      unknown |= !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list) {
      if (!isa<MemoryEffects::Write>(e.getEffect()))
        continue;
      if (auto buffer = dyn_cast_or_null<MemrefValue>(e.getValue()))
        written.insert(memref::skipViewLikeOps(buffer));
      else
        unknown = true;
    }
  });
  if (unknown)
    return 0;
  int64_t moved = 0;
  auto readOnly = [&](Value buffer) {
    return !written.contains(memref::skipViewLikeOps(cast<MemrefValue>(buffer)));
  };
  for (scf::ForOp loop : loops)
    moveLoopInvariantCode(
        {&loop.getRegion()},
        [&](Value v, Region *r) { return !r->isAncestor(v.getParentRegion()); },
        [&](Operation *op, Region *) {
          if (auto load = dyn_cast<memref::LoadOp>(op))
            return readOnly(load.getMemref());
          if (auto read = dyn_cast<vector::TransferReadOp>(op))
            return readOnly(read.getBase());
          return op->getNumRegions() == 0 && isPure(op);
        },
        [&](Operation *op, Region *) {
          moved += isa<memref::LoadOp, vector::TransferReadOp>(op);
          op->moveBefore(loop);
        });
  return moved;
}

/// The coefficient of dimension `pos` in the single result of `map` if that
/// result is linear (no mod or division).
static std::optional<int64_t> linearCoefficient(AffineMap map, unsigned pos) {
  if (map.getNumResults() != 1)
    return std::nullopt;
  AffineExpr e = map.getResult(0);
  bool linear = e.isPureAffine();
  e.walk([&](AffineExpr s) {
    AffineExprKind k = s.getKind();
    linear &= k != AffineExprKind::Mod && k != AffineExprKind::FloorDiv &&
              k != AffineExprKind::CeilDiv;
  });
  if (!linear)
    return std::nullopt;
  auto at = [&](int64_t v) -> std::optional<int64_t> {
    SmallVector<AffineExpr> dims, syms;
    for (unsigned i = 0; i < map.getNumDims(); ++i)
      dims.push_back(getAffineConstantExpr(i == pos ? v : 0, map.getContext()));
    for (unsigned i = 0; i < map.getNumSymbols(); ++i)
      syms.push_back(getAffineConstantExpr(0, map.getContext()));
    auto c = dyn_cast<AffineConstantExpr>(e.replaceDimsAndSymbols(dims, syms));
    return c ? std::optional<int64_t>(c.getValue()) : std::nullopt;
  };
  std::optional<int64_t> zero = at(0), one = at(1);
  if (!zero || !one)
    return std::nullopt;
  return *one - *zero;
}

/// The elementwise op that reads `window`'s output next (its bias and
/// activation), if its body can run in the window's row loop: all its loops
/// parallel, the output (a local buffer) read element by element (identity
/// maps) and only there, the ops between the two free of memory effects, a
/// body of the arithmetic RowVectorizer handles, and an output that is not
/// the window's input.
static linalg::GenericOp epilogueOf(linalg::GenericOp window) {
  Value acc = window.getDpsInitOperand(0)->get();
  Operation *op = window->getNextNode();
  while (op && !isa<linalg::GenericOp>(op) && isMemoryEffectFree(op))
    op = op->getNextNode();
  auto e = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!e || !e.hasPureBufferSemantics() || e.getNumReductionLoops() != 0 ||
      e.getNumDpsInits() != 1 || e.getDpsInitOperand(0)->get() == acc ||
      !e.getMatchingIndexingMap(e.getDpsInitOperand(0)).isIdentity() ||
      !e.getMatchingBlockArgument(e.getDpsInitOperand(0)).use_empty())
    return {};
  int64_t reads = 0;
  for (OpOperand *in : e.getDpsInputOperands())
    if (in->get() == acc) {
      if (!e.getMatchingIndexingMap(in).isIdentity())
        return {};
      ++reads;
    }
  bool arithmetic = llvm::all_of(e.getBody()->without_terminator(), [](Operation &b) {
    return isa<arith::MulFOp, arith::AddFOp, arith::SubFOp, arith::DivFOp, arith::MaximumFOp,
               arith::MinimumFOp, arith::NegFOp, arith::ConstantOp>(b);
  });
  // Read nowhere else (a fill right before the window may write it).
  bool onlyThere = llvm::all_of(acc.getUsers(), [&](Operation *user) {
    auto fill = dyn_cast<linalg::GenericOp>(user);
    return user == window || user == e || isa<memref::DeallocOp>(user) ||
           (fill && user == window->getPrevNode() && linalg::isaFillOpInterface(fill));
  });
  // The window reads its inputs around each element after the epilogue
  // wrote the ones before: none of them may be a view of the epilogue's
  // buffer (distinct buffers do not alias, as in forwardStores).
  auto root = [](Value v) { return memref::skipViewLikeOps(cast<MemrefValue>(v)); };
  Value out = root(e.getDpsInitOperand(0)->get());
  bool apart = out != acc && llvm::none_of(window.getDpsInputs(), [&](Value in) {
                 return isa<MemRefType>(in.getType()) && root(in) == out;
               });
  return reads == 1 && arithmetic && onlyThere && apart && acc.getDefiningOp<memref::AllocOp>()
             ? e
             : nullptr;
}

/// Whether `fill` can run once before the loop around it instead of in every
/// iteration: it fills a buffer allocated outside the loop (a padded plane)
/// with a value defined outside, and in each iteration, after the fill, one
/// all-parallel op writes the same view of it (the plane's interior) before
/// anything else reads it, so the rest (the border) keeps the fill's value.
static bool fillIsInvariant(linalg::GenericOp fill) {
  auto loop = dyn_cast<scf::ForOp>(fill->getParentOp());
  Value buffer = fill.getDpsInitOperand(0)->get();
  if (!loop || !buffer.getDefiningOp<memref::AllocOp>() ||
      !loop.isDefinedOutsideOfLoop(buffer) ||
      !loop.isDefinedOutsideOfLoop(*linalg::isaFillOpInterface(fill)))
    return false;
  Operation *writer = nullptr;
  SmallVector<Operation *> readers;
  for (Operation *user : buffer.getUsers()) {
    if (user == fill || !loop->isAncestor(user))
      continue;
    if (user->getBlock() != fill->getBlock() || !fill->isBeforeInBlock(user))
      return false;
    auto view = dyn_cast<memref::SubViewOp>(user);
    if (view && !writer) {
      // The same view in every iteration, written whole by one op.
      if (!llvm::all_of(view->getOperands(), [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }) ||
          !view->hasOneUse())
        return false;
      auto write = dyn_cast<linalg::GenericOp>(*view->user_begin());
      if (!write || write.getNumReductionLoops() != 0 || write.getNumDpsInits() != 1 ||
          write.getDpsInitOperand(0)->get() != view.getResult() ||
          !write.getMatchingIndexingMap(write.getDpsInitOperand(0)).isIdentity() ||
          write->getBlock() != fill->getBlock())
        return false;
      writer = write;
      continue;
    }
    auto read = dyn_cast<linalg::GenericOp>(user);
    if (!read || llvm::is_contained(read.getDpsInits(), buffer))
      return false;
    readers.push_back(read);
  }
  return writer && llvm::all_of(readers, [&](Operation *r) { return writer->isBeforeInBlock(r); });
}

/// Gives the row's one read of the output element (the row is the
/// straight-line body forwardStores left) the value `fill` wrote, and erases
/// the fill: the window then writes every element without reading one.
static LogicalResult foldFill(RewriterBase &rewriter, linalg::GenericOp fill, scf::ForOp row,
                              Value output) {
  auto loads = llvm::filter_to_vector(row.getBody()->getOps<memref::LoadOp>(),
                                      [&](memref::LoadOp l) { return l.getMemref() == output; });
  if (loads.size() != 1)
    return failure();
  rewriter.replaceOp(loads.front(), *linalg::isaFillOpInterface(fill));
  rewriter.eraseOp(fill);
  return success();
}

/// The induction variables of the `rank` loops around and including `row`,
/// outermost first (the loops over the output's dimensions); fewer if they
/// are not all scf.for.
static SmallVector<Value> outputIndices(scf::ForOp row, int64_t rank) {
  SmallVector<Value> ivs;
  for (auto loop = row; loop && static_cast<int64_t>(ivs.size()) < rank;
       loop = dyn_cast<scf::ForOp>(loop->getParentOp()))
    ivs.insert(ivs.begin(), loop.getInductionVar());
  return ivs;
}

/// Computes `epilogue`'s body in `row`, the row loop of its window op whose
/// loops `ivs` index the output (outermost first), on the value the row
/// stores to the output, and stores its result instead: the window's output
/// is then never written.
static LogicalResult fuseEpilogue(RewriterBase &rewriter, linalg::GenericOp epilogue,
                                  scf::ForOp row, Value acc, ValueRange ivs) {
  auto stores = llvm::filter_to_vector(row.getBody()->getOps<memref::StoreOp>(),
                                       [&](memref::StoreOp s) { return s.getMemref() == acc; });
  if (stores.size() != 1 || !llvm::equal(stores.front().getIndices(), ivs))
    return failure();
  memref::StoreOp store = stores.front();
  Location loc = epilogue.getLoc();
  rewriter.setInsertionPoint(store);
  IRMapping values;
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    BlockArgument arg = epilogue.getMatchingBlockArgument(in);
    if (in->get() == acc) {
      values.map(arg, store.getValueToStore());
      continue;
    }
    if (!isa<MemRefType>(in->get().getType())) {
      values.map(arg, in->get());
      continue;
    }
    SmallVector<Value> indices;
    for (AffineExpr r : epilogue.getMatchingIndexingMap(in).getResults()) {
      OpFoldResult index = affine::makeComposedFoldedAffineApply(
          rewriter, loc, AffineMap::get(ivs.size(), 0, r), getAsOpFoldResult(ivs));
      indices.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, index));
    }
    values.map(arg, memref::LoadOp::create(rewriter, loc, in->get(), indices));
  }
  for (Operation &op : epilogue.getBody()->without_terminator())
    rewriter.clone(op, values);
  auto yield = cast<linalg::YieldOp>(epilogue.getBody()->getTerminator());
  memref::StoreOp::create(rewriter, loc, values.lookupOrDefault(yield.getOperand(0)),
                          epilogue.getDpsInitOperand(0)->get(), ivs);
  rewriter.eraseOp(store);
  return success();
}

namespace {
/// Whether the row vectorizer computes values of `t`: f32, and f16 and
/// bf16, which it widens where loaded and rounds where stored (a bf16 max
/// pooling is exact so; a sum is rounded once, as an elementwise chain in
/// dlc-cpu-widen-narrow-elementwise).
static bool rowFloat(Type t) { return t.isF32() || t.isF16() || t.isBF16(); }

/// Vectorizes the loop over an output row around an unrolled window (loads,
/// float arithmetic, in f32 vectors, and stores whose last index is affine
/// in the loop's induction variable, every other index invariant): `lanes`
/// outputs per iteration. Loads with unit stride along the row become vector reads,
/// stride 2 a read of twice the lanes and a shuffle of its even elements,
/// invariant ones broadcasts; reads and writes past a buffer's row are
/// masked, so the last iteration needs no scalar remainder (the extra lanes
/// of a read that stays within its row are computed and never stored).
struct RowVectorizer {
  scf::ForOp loop;
  int64_t lanes;
  DenseMap<Value, int64_t> stride; // index values: coefficient of the row position
  DenseSet<Value> varying;         // float values that differ along the row

  /// The row stride of `indices`' last element if no other index varies.
  std::optional<int64_t> accessStride(ValueRange indices) const {
    for (Value v : indices.drop_back())
      if (stride.contains(v))
        return std::nullopt;
    return stride.lookup(indices.back());
  }

  /// The constant c if `index` is the induction variable `iv` plus c.
  static std::optional<int64_t> constantOffset(Value index, Value iv) {
    if (index == iv)
      return 0;
    auto apply = index.getDefiningOp<affine::AffineApplyOp>();
    if (!apply || apply.getMapOperands().size() != 1 || apply.getMapOperands()[0] != iv)
      return std::nullopt;
    auto sum = dyn_cast<AffineBinaryOpExpr>(apply.getAffineMap().getResult(0));
    auto c = sum && sum.getKind() == AffineExprKind::Add ? dyn_cast<AffineConstantExpr>(sum.getRHS())
                                                         : nullptr;
    if (!c || sum.getLHS() != getAffineDimExpr(0, index.getContext()))
      return std::nullopt;
    return c.getValue();
  }

  /// Whether `op` is a varying product whose only use is an addition, which
  /// computes it as an FMA.
  bool fusedIntoFma(Operation &op) const {
    return isa<arith::MulFOp>(op) && varying.contains(op.getResult(0)) &&
           op.getResult(0).hasOneUse() && isa<arith::AddFOp>(*op.getResult(0).user_begin());
  }

  LogicalResult analyze(int64_t n) {
    stride[loop.getInductionVar()] = 1;
    auto depends = [&](Operation &op) {
      return llvm::any_of(op.getOperands(),
                          [&](Value v) { return stride.contains(v) || varying.contains(v); });
    };
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
        int64_t a = 0;
        for (auto [k, operand] : llvm::enumerate(apply.getMapOperands())) {
          if (!stride.contains(operand))
            continue;
          std::optional<int64_t> c = linearCoefficient(apply.getAffineMap(), k);
          if (!c)
            return failure();
          a += stride.lookup(operand) * *c;
        }
        if (a)
          stride[apply.getResult()] = a;
        continue;
      }
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        std::optional<int64_t> s = accessStride(load.getIndices());
        if (!s || *s < 0 || *s > 2 || !rowFloat(load.getType()))
          return failure();
        if (*s)
          varying.insert(load.getResult());
        continue;
      }
      if (auto store = dyn_cast<memref::StoreOp>(op)) {
        // Masked by the buffer's row: the row must be the loop's range, and
        // the element the induction variable itself.
        std::optional<int64_t> s = accessStride(store.getIndices());
        if (s != 1 || store.getIndices().back() != loop.getInductionVar() ||
            store.getMemRefType().getShape().back() != n ||
            !rowFloat(store.getValueToStore().getType()))
          return failure();
        continue;
      }
      if (isa<arith::MulFOp, arith::AddFOp, arith::SubFOp, arith::DivFOp, arith::MaximumFOp,
              arith::MinimumFOp, arith::NegFOp>(op)) {
        if (depends(op))
          varying.insert(op.getResult(0));
        continue;
      }
      if (!isMemoryEffectFree(&op) || depends(op))
        return failure();
    }
    return success();
  }

  /// Vectorized copy of the row loop's body for iterations [start, end), `vl`
  /// lanes per iteration.
  void emitLoop(RewriterBase &rewriter, int64_t start, int64_t end, int64_t vl) {
    Location loc = loop.getLoc();
    Type f32 = rewriter.getF32Type();
    auto vecType = VectorType::get({vl}, f32);
    auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
    // The padding of reads, a zero of each element type the row loads.
    DenseMap<Type, Value> zeros;
    for (Operation &op : loop.getBody()->without_terminator())
      if (auto load = dyn_cast<memref::LoadOp>(op); load && !zeros.contains(load.getType()))
        zeros[load.getType()] =
            arith::ConstantOp::create(rewriter, loc, rewriter.getFloatAttr(load.getType(), 0));
    auto vecLoop = scf::ForOp::create(rewriter, loc, index(start), index(end), index(vl));
    rewriter.setInsertionPointToStart(vecLoop.getBody());
    IRMapping scalars;
    scalars.map(loop.getInductionVar(), vecLoop.getInductionVar());
    DenseMap<Value, Value> vectors;
    auto widened = [&](Value v) -> Value {
      return v.getType() == f32 ? v : arith::ExtFOp::create(rewriter, loc, f32, v).getResult();
    };
    auto asVector = [&](Value v) -> Value {
      if (Value w = vectors.lookup(v))
        return w;
      return vector::BroadcastOp::create(rewriter, loc, vecType,
                                         widened(scalars.lookupOrDefault(v)));
    };
    auto mapped = [&](ValueRange values) {
      return llvm::map_to_vector(values, [&](Value v) { return scalars.lookupOrDefault(v); });
    };
    // Whether every read or write of `vl * s` elements at `index` stays
    // within the row of `type`: the index is the induction variable plus a
    // constant, and the last iteration's vector ends within the row.
    int64_t last = start + (end - start - 1) / vl * vl;
    auto inBounds = [&](Value index, MemRefType type, int64_t s) {
      std::optional<int64_t> offset = constantOffset(index, loop.getInductionVar());
      int64_t row = type.getShape().back();
      return SmallVector<bool>{offset && !ShapedType::isDynamic(row) &&
                               s * last + *offset + s * vl <= row};
    };
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (auto load = dyn_cast<memref::LoadOp>(op); load && varying.contains(load.getResult())) {
        int64_t s = *accessStride(load.getIndices());
        Type element = load.getType();
        auto readType = VectorType::get({vl * s}, element);
        Value read = vector::TransferReadOp::create(
            rewriter, loc, readType, load.getMemRef(), mapped(load.getIndices()), zeros[element],
            ArrayRef<bool>(inBounds(load.getIndices().back(), load.getMemRefType(), s)));
        if (s == 2) {
          SmallVector<int64_t> even;
          for (int64_t i = 0; i < vl; ++i)
            even.push_back(2 * i);
          read = vector::ShuffleOp::create(rewriter, loc, read, read, even);
        }
        if (element != f32)
          read = arith::ExtFOp::create(rewriter, loc, vecType, read);
        vectors[load.getResult()] = read;
        continue;
      }
      if (auto store = dyn_cast<memref::StoreOp>(op)) {
        Value value = asVector(store.getValueToStore());
        Type element = store.getMemRefType().getElementType();
        if (element != f32)
          value = arith::TruncFOp::create(rewriter, loc, VectorType::get({vl}, element), value);
        vector::TransferWriteOp::create(
            rewriter, loc, value, store.getMemRef(), mapped(store.getIndices()),
            ArrayRef<bool>(inBounds(store.getIndices().back(), store.getMemRefType(), 1)));
        continue;
      }
      if (fusedIntoFma(op))
        continue;
      if (auto add = dyn_cast<arith::AddFOp>(op); add && varying.contains(add.getResult())) {
        // a * b + c as one FMA: half the instructions and a shorter chain.
        for (auto [product, other] : {std::pair(add.getLhs(), add.getRhs()),
                                      std::pair(add.getRhs(), add.getLhs())}) {
          auto mul = product.getDefiningOp<arith::MulFOp>();
          if (!mul || !fusedIntoFma(*mul))
            continue;
          vectors[add.getResult()] = vector::FMAOp::create(
              rewriter, loc, asVector(mul.getLhs()), asVector(mul.getRhs()), asVector(other));
          break;
        }
        if (vectors.contains(add.getResult()))
          continue;
      }
      if (op.getNumResults() == 1 && varying.contains(op.getResult(0))) {
        IRMapping operands;
        for (Value v : op.getOperands())
          operands.map(v, asVector(v));
        Operation *vop = rewriter.clone(op, operands);
        vop->getResult(0).setType(vecType);
        vectors[op.getResult(0)] = vop->getResult(0);
        continue;
      }
      rewriter.clone(op, scalars);
    }
  }

  LogicalResult run(RewriterBase &rewriter) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!lb || !ub || !step || *lb != 0 || *step != 1 || loop.getNumResults() || *ub < 2 ||
        failed(analyze(*ub)))
      return failure();
    int64_t vl = std::min<int64_t>(lanes, std::max<int64_t>(4, llvm::PowerOf2Ceil(*ub)));
    // Whole vectors first, then the rest of the row as one masked vector:
    // a masked store in every iteration is slow (microcoded on AMD cores).
    int64_t whole = *ub / vl * vl;
    for (auto [start, end] : {std::pair<int64_t, int64_t>(0, whole), {whole, *ub}}) {
      if (start == end)
        continue;
      rewriter.setInsertionPoint(loop);
      emitLoop(rewriter, start, end, vl);
    }
    rewriter.eraseOp(loop);
    return success();
  }
};

struct CPUUnrollWindowsPass : dlc::impl::CPUUnrollWindowsPassBase<CPUUnrollWindowsPass> {
  using CPUUnrollWindowsPassBase::CPUUnrollWindowsPassBase;

  static SmallVector<Operation *> collectOps(Operation *root) {
    SmallVector<Operation *> ops;
    root->walk([&](Operation *op) { ops.push_back(op); });
    return ops;
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet cleanup(ctx);
    affine::AffineApplyOp::getCanonicalizationPatterns(cleanup, ctx);
    FrozenRewritePatternSet frozenCleanup(std::move(cleanup));
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    int64_t unrolled = 0, vectorized = 0, fillsFolded = 0, fillsHoisted = 0, epiloguesFused = 0,
            readsHoisted = 0;
    // A window op's first read of each output element takes the value a
    // fill right before it wrote (a convolution's zero): the fill's pass
    // over the buffer goes.
    DenseMap<Operation *, linalg::GenericOp> fillBefore;
    for (linalg::GenericOp op : ops)
      if (auto fill = dyn_cast_or_null<linalg::GenericOp>(op->getPrevNode());
          fill && op.getNumReductionLoops() > 0 && linalg::isaFillOpInterface(fill) &&
          fill.getDpsInitOperand(0)->get() == op.getDpsInitOperand(0)->get() &&
          !llvm::is_contained(op.getDpsInputs(), op.getDpsInitOperand(0)->get()) &&
          !windowOrder(op, maxWindow).empty())
        fillBefore[op] = fill;
    DenseSet<Operation *> deferred;
    for (auto [op, fill] : fillBefore)
      deferred.insert(fill);
    // A padded plane's fill once before the loop over planes.
    for (linalg::GenericOp op : ops)
      if (!deferred.contains(op) && linalg::isaFillOpInterface(op) && fillIsInvariant(op)) {
        op->moveBefore(op->getParentOp());
        ++fillsHoisted;
      }
    // Its elementwise epilogue joins the window's row loop: the window's
    // output is neither written nor read again.
    DenseMap<Operation *, linalg::GenericOp> epilogueAfter;
    for (linalg::GenericOp op : ops) {
      if (op.getNumReductionLoops() == 0 || windowOrder(op, maxWindow).empty())
        continue;
      linalg::GenericOp e = epilogueOf(op);
      if (!e)
        continue;
      // The ops in between (subviews of the epilogue's operands) go first.
      while (op->getNextNode() != e.getOperation())
        op->getNextNode()->moveBefore(op);
      epilogueAfter[op] = e;
      deferred.insert(e);
    }
    // The loops of the window op lower() lowered last, around its row
    // loop (null if none).
    scf::ForOp nest;
    // Loops with the window unrolled; the row loop (null if none) to vectorize.
    auto lower = [&](linalg::GenericOp op) -> FailureOr<scf::ForOp> {
      nest = {};
      SmallVector<unsigned> order = windowOrder(op, maxWindow);
      if (order.empty())
        return scf::ForOp();
      int64_t numReductions = op.getNumReductionLoops();
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> ordered = linalg::interchangeGenericOp(rewriter, op, order);
      if (failed(ordered))
        return scf::ForOp();
      FailureOr<linalg::LinalgLoops> loops = linalg::linalgOpToLoops(rewriter, *ordered);
      if (failed(loops))
        return scf::ForOp();
      rewriter.eraseOp(*ordered);
      // Innermost first, so that each unrolled body is straight-line code.
      for (Operation *loop : llvm::reverse(ArrayRef(*loops).take_back(numReductions)))
        if (auto f = dyn_cast<scf::ForOp>(loop); f && failed(loopUnrollFull(f)))
          return failure();
      unrolled += numReductions > 0;
      if (loops->size() <= static_cast<size_t>(numReductions))
        return scf::ForOp();
      // Identical indices become identical values, then loads and stores
      // of the output element pair up.
      Operation *row = (*loops)[loops->size() - numReductions - 1];
      if (numReductions > 0 && row != loops->front())
        nest = dyn_cast<scf::ForOp>(loops->front());
      if (failed(applyOpPatternsGreedily(collectOps(row), frozenCleanup)))
        return failure();
      DominanceInfo dominance;
      eliminateCommonSubExpressions(rewriter, dominance, row);
      forwardStores(row->getRegion(0).front());
      return dyn_cast<scf::ForOp>(row);
    };
    auto vectorize = [&](scf::ForOp row) {
      if (row)
        vectorized += succeeded(RowVectorizer{row, vectorBits / 32}.run(rewriter));
    };
    for (linalg::GenericOp op : ops) {
      if (deferred.contains(op))
        continue;
      Value output = op.getDpsInitOperand(0)->get();
      linalg::GenericOp fill = fillBefore.lookup(op);
      FailureOr<scf::ForOp> row = lower(op);
      if (failed(row))
        return signalPassFailure();
      if (fill && *row && succeeded(foldFill(rewriter, fill, *row, output))) {
        fill = {};
        ++fillsFolded;
      }
      linalg::GenericOp epilogue = epilogueAfter.lookup(op);
      if (epilogue && *row) {
        int64_t rank = cast<MemRefType>(output.getType()).getRank();
        SmallVector<Value> ivs = outputIndices(*row, rank);
        if (static_cast<int64_t>(ivs.size()) == rank &&
            succeeded(fuseEpilogue(rewriter, epilogue, *row, output, ivs))) {
          rewriter.eraseOp(epilogue);
          epilogue = {};
          ++epiloguesFused;
          // The window's buffer, written by none now, goes too.
          if (llvm::all_of(output.getUsers(), llvm::IsaPred<memref::DeallocOp>)) {
            for (Operation *dealloc : llvm::make_early_inc_range(output.getUsers()))
              rewriter.eraseOp(dealloc);
            rewriter.eraseOp(output.getDefiningOp());
          }
        }
      }
      vectorize(*row);
      if (nest)
        readsHoisted += hoistInvariantReads(nest);
      for (linalg::GenericOp left : {fill, epilogue}) {
        if (!left)
          continue;
        FailureOr<scf::ForOp> leftRow = lower(left);
        if (failed(leftRow))
          return signalPassFailure();
        vectorize(*leftRow);
      }
    }
    dlc::recordPassStat(getArgument(), "unrolled", unrolled);
    dlc::recordPassStat(getArgument(), "vectorized", vectorized);
    dlc::recordPassStat(getArgument(), "fills-folded", fillsFolded);
    dlc::recordPassStat(getArgument(), "epilogues-fused", epiloguesFused);
    dlc::recordPassStat(getArgument(), "fills-hoisted", fillsHoisted);
    dlc::recordPassStat(getArgument(), "reads-hoisted", readsHoisted);
  }
};
} // namespace
