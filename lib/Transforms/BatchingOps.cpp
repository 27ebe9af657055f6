//===- BatchingOps.cpp - the three parallel-op combiners in sequence -------===//
#include "dlc/Transforms/PassLedger.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

namespace dlc {
#define GEN_PASS_DEF_BATCHINGOPSPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct BatchingOpsPass : dlc::impl::BatchingOpsPassBase<BatchingOpsPass> {
  void runOnOperation() override {
    // TVM's Sequential of the three, with their defaults; each records its
    // own counters.
    OpPassManager pm(func::FuncOp::getOperationName());
    pm.addPass(dlc::createCombineParallelConv2DPass());
    pm.addPass(dlc::createCombineParallelDensePass());
    pm.addPass(dlc::createCombineParallelBatchMatmulPass());
    if (failed(runPipeline(pm, getOperation())))
      return signalPassFailure();
    dlc::recordPassStat(getArgument(), "runs", 1);
  }
};
} // namespace
