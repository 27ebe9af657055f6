//===- SSAForm.cpp - TVM passes that have nothing to do on SSA graphs ------===//
#include "dlc/Transforms/PassLedger.h"
#include "dlc/Transforms/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_SSAFORMPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct SSAFormPass : dlc::impl::SSAFormPassBase<SSAFormPass> {
  using SSAFormPassBase::SSAFormPassBase;

  void runOnOperation() override {
    if (tvmName != "ToANormalForm" && tvmName != "ToGraphNormalForm" &&
        tvmName != "FirstOrderGradient") {
      getOperation().emitError() << "graph-ssa-form: unknown tvm-name '" << tvmName
                                 << "' (expected ToANormalForm, ToGraphNormalForm or "
                                    "FirstOrderGradient)";
      return signalPassFailure();
    }
    // The module is left as it is; the ledger says so.
    dlc::recordPassStat(getArgument(), tvmName + " (no effect in SSA form)", 1);
    markAllAnalysesPreserved();
  }
};
} // namespace
