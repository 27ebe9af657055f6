//===- CPUUnrollWindows.cpp - small windows as straight-line code ----------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace dlc {
#define GEN_PASS_DEF_CPUUNROLLWINDOWSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The loop order (parallel loops in the order of the output's dimensions,
/// then the reduction loops) if `op` is a window op on buffers (an input
/// indexed by a sum of loops) whose reduction loops have static ranges of at
/// most `maxWindow` iterations together; empty otherwise.
static SmallVector<unsigned> windowOrder(linalg::GenericOp op, int64_t maxWindow) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return {};
  bool window = llvm::any_of(op.getIndexingMapsArray(), [](AffineMap m) {
    return llvm::any_of(m.getResults(),
                        [](AffineExpr e) { return e.getKind() == AffineExprKind::Add; });
  });
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  auto last = out.getNumResults() ? dyn_cast<AffineDimExpr>(out.getResults().back()) : nullptr;
  if (!window || !last)
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

namespace {
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
    int64_t unrolled = 0;
    for (linalg::GenericOp op : ops) {
      SmallVector<unsigned> order = windowOrder(op, maxWindow);
      if (order.empty())
        continue;
      int64_t numReductions = op.getNumReductionLoops();
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> ordered = linalg::interchangeGenericOp(rewriter, op, order);
      if (failed(ordered))
        continue;
      FailureOr<linalg::LinalgLoops> loops = linalg::linalgOpToLoops(rewriter, *ordered);
      if (failed(loops))
        continue;
      rewriter.eraseOp(*ordered);
      // Innermost first, so that each unrolled body is straight-line code.
      for (Operation *loop : llvm::reverse(ArrayRef(*loops).take_back(numReductions)))
        if (auto f = dyn_cast<scf::ForOp>(loop); f && failed(loopUnrollFull(f)))
          return signalPassFailure();
      if (loops->size() > static_cast<size_t>(numReductions)) {
        // Identical indices become identical values, then loads and stores
        // of the output element pair up.
        Operation *row = (*loops)[loops->size() - numReductions - 1];
        if (failed(applyOpPatternsGreedily(collectOps(row), frozenCleanup)))
          return signalPassFailure();
        DominanceInfo dominance;
        eliminateCommonSubExpressions(rewriter, dominance, row);
        forwardStores(row->getRegion(0).front());
      }
      ++unrolled;
    }
    dlc::recordPassStat(getArgument(), "unrolled", unrolled);
  }
};
} // namespace
