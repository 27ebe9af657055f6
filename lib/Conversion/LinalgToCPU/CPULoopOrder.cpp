//===- CPULoopOrder.cpp - innermost output dimension of window ops ---------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_CPULOOPORDERPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The permutation that keeps the parallel loops in order but the one that
/// walks the output's contiguous (last) dimension, then the reduction loops,
/// then that loop; empty if the op is neither a window op (an input map with
/// a sum of dimensions) nor a contraction (two or more inputs and reduction
/// loops), or is already so ordered. Plain reductions keep their order (their
/// innermost loop already walks contiguous memory).
static SmallVector<unsigned> innermostOutputOrder(linalg::GenericOp op) {
  bool window = llvm::any_of(op.getIndexingMapsArray(), [](AffineMap m) {
    return llvm::any_of(m.getResults(), [](AffineExpr e) {
      return e.getKind() == AffineExprKind::Add;
    });
  });
  bool contraction = op.getNumDpsInputs() >= 2 && op.getNumReductionLoops() > 0;
  if ((!window && !contraction) || op.getNumDpsInits() != 1)
    return {};
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() == 0)
    return {};
  auto last = dyn_cast<AffineDimExpr>(out.getResults().back());
  auto iters = op.getIteratorTypesArray();
  if (!last || iters[last.getPosition()] != utils::IteratorType::parallel)
    return {};
  unsigned inner = last.getPosition();
  SmallVector<unsigned> parallel, reduction;
  for (auto [i, it] : llvm::enumerate(iters))
    if (i != inner)
      (it == utils::IteratorType::parallel ? parallel : reduction).push_back(i);
  if (reduction.empty())
    return {};
  SmallVector<unsigned> perm(parallel);
  perm.append(reduction.begin(), reduction.end());
  perm.push_back(inner);
  if (llvm::equal(perm, llvm::seq<unsigned>(0, perm.size())))
    return {};
  return perm;
}

namespace {
struct CPULoopOrderPass : dlc::impl::CPULoopOrderPassBase<CPULoopOrderPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    int64_t interchanged = 0;
    for (linalg::GenericOp op : ops) {
      SmallVector<unsigned> perm = innermostOutputOrder(op);
      if (perm.empty())
        continue;
      rewriter.setInsertionPoint(op);
      if (succeeded(linalg::interchangeGenericOp(rewriter, op, perm)))
        ++interchanged;
    }
    dlc::recordPassStat(getArgument(), "interchanged", interchanged);
  }
};
} // namespace
