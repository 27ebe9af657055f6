//===- CPULoopOrder.cpp - innermost output dimension of window ops ---------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_CPULOOPORDERPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The permutation that keeps the parallel loops but the last in order, then
/// the reduction loops, then the last parallel loop; empty if the op is
/// neither a window op (an input map with a sum of dimensions) nor a
/// contraction (two or more inputs and reduction loops), or is already so
/// ordered. Plain reductions keep their order (their innermost loop already
/// walks contiguous memory).
static SmallVector<unsigned> innermostOutputOrder(linalg::GenericOp op) {
  bool window = llvm::any_of(op.getIndexingMapsArray(), [](AffineMap m) {
    return llvm::any_of(m.getResults(), [](AffineExpr e) {
      return e.getKind() == AffineExprKind::Add;
    });
  });
  bool contraction = op.getNumDpsInputs() >= 2 && op.getNumReductionLoops() > 0;
  if (!window && !contraction)
    return {};
  SmallVector<unsigned> parallel, reduction;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    (it == utils::IteratorType::parallel ? parallel : reduction).push_back(i);
  if (parallel.empty() || reduction.empty() ||
      parallel.back() == op.getNumLoops() - 1)
    return {};
  SmallVector<unsigned> perm(parallel.begin(), parallel.end() - 1);
  perm.append(reduction.begin(), reduction.end());
  perm.push_back(parallel.back());
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
