//===- CPULocalizeConstants.cpp - constants inside parallel loops ----------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

namespace dlc {
#define GEN_PASS_DEF_CPULOCALIZECONSTANTSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct CPULocalizeConstantsPass
    : dlc::impl::CPULocalizeConstantsPassBase<CPULocalizeConstantsPass> {
  void runOnOperation() override {
    int64_t copied = 0;
    getOperation().walk([&](scf::ForallOp forall) {
      Region &body = forall.getRegion();
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(body, captured);
      OpBuilder b = OpBuilder::atBlockBegin(&body.front());
      for (Value v : captured) {
        Operation *def = v.getDefiningOp();
        if (!def || !def->hasTrait<OpTrait::ConstantLike>())
          continue;
        Value copy = b.clone(*def)->getResult(0);
        replaceAllUsesInRegionWith(v, copy, body);
        ++copied;
      }
    });
    dlc::recordPassStat(getArgument(), "copied", copied);
  }
};
} // namespace
