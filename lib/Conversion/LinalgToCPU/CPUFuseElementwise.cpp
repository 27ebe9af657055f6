//===- CPUFuseElementwise.cpp - elementwise fusion without recomputation ---===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "llvm/ADT/SmallPtrSet.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_CPUFUSEELEMENTWISEPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Whether the fusion may take `use`: a consumer whose every loop is
/// parallel (a producer fused into a reduction would be recomputed at every
/// reduction step).
static bool fusable(OpOperand &use) {
  auto consumer = dyn_cast<linalg::LinalgOp>(use.getOwner());
  return consumer && consumer.getNumReductionLoops() == 0;
}

/// Whether `op` computes math (exp, erf, ...): dearer to compute again than
/// to read back.
static bool computesMath(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic)
    return false;
  return generic.getBody()
      ->walk([](Operation *inner) {
        return isa<math::MathDialect>(inner->getDialect()) && !isa<math::FmaOp>(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
struct CPUFuseElementwisePass
    : dlc::impl::CPUFuseElementwisePassBase<CPUFuseElementwisePass> {
  using CPUFuseElementwisePassBase::CPUFuseElementwisePassBase;

  void runOnOperation() override {
    llvm::SmallPtrSet<Operation *, 8> kept;
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns, [&](OpOperand *operand) {
      if (!fusable(*operand))
        return false;
      Operation *producer = operand->get().getDefiningOp();
      if (recomputeSharedMath || !computesMath(producer))
        return true;
      // A user the fusion cannot take keeps the producer materialized: read
      // it there rather than compute it again.
      for (OpOperand &use : operand->get().getUses())
        if (!fusable(use)) {
          kept.insert(producer);
          return false;
        }
      return true;
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
    dlc::recordPassStat(getArgument(), "kept", kept.size());
  }
};
} // namespace
