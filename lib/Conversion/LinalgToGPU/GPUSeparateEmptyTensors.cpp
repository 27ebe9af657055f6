//===- GPUSeparateEmptyTensors.cpp - one tensor.empty per use --------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace dlc {
#define GEN_PASS_DEF_GPUSEPARATEEMPTYTENSORSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct GPUSeparateEmptyTensorsPass
    : dlc::impl::GPUSeparateEmptyTensorsPassBase<GPUSeparateEmptyTensorsPass> {
  void runOnOperation() override {
    // In program order: the first use keeps the original.
    llvm::DenseSet<Value> used;
    OpBuilder b(&getContext());
    int64_t separated = 0;
    getOperation().walk([&](Operation *op) {
      for (OpOperand &use : op->getOpOperands()) {
        auto empty = use.get().getDefiningOp<tensor::EmptyOp>();
        if (!empty || used.insert(use.get()).second)
          continue;
        b.setInsertionPoint(op);
        use.set(b.clone(*empty)->getResult(0));
        ++separated;
      }
    });
    dlc::recordPassStat(getArgument(), "separated", separated);
  }
};
} // namespace
