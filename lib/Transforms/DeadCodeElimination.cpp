//===- DeadCodeElimination.cpp - erase unused side-effect-free ops ---------===//
#include "dlc/Transforms/PassLedger.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Transforms/RegionUtils.h"

namespace dlc {
#define GEN_PASS_DEF_DEADCODEELIMINATIONPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using dlc::recordPassStat;

namespace {
struct DeadCodeEliminationPass
    : dlc::impl::DeadCodeEliminationPassBase<DeadCodeEliminationPass> {
  void runOnOperation() override {
    // Reverse order sees users before producers, so whole dead chains go in
    // one sweep; nested regions (fused bodies) are visited too.
    SmallVector<Operation *> ops;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op != getOperation())
        ops.push_back(op);
    });
    int64_t erased = 0;
    for (Operation *op : llvm::reverse(ops))
      if (isOpTriviallyDead(op)) {
        op->erase();
        ++erased;
      }
    recordPassStat(getArgument(), "erased", erased);
  }
};
} // namespace
