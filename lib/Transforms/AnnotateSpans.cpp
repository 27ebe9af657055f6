//===- AnnotateSpans.cpp - locations into a printed snapshot ---------------===//
#include "dlc/Transforms/PassLedger.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Transforms/LocationSnapshot.h"

namespace dlc {
#define GEN_PASS_DEF_ANNOTATESPANSPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using dlc::recordPassStat;

namespace {
struct AnnotateSpansPass : dlc::impl::AnnotateSpansPassBase<AnnotateSpansPass> {
  using AnnotateSpansPassBase::AnnotateSpansPassBase;
  void runOnOperation() override {
    // Upstream's snapshot utility prints the module and fuses
    // tag(file:line:col) with each op's original location.
    // The snapshot itself carries no locations: it is what they point into.
    OpPrintingFlags flags;
    flags.enableDebugInfo(false);
    if (failed(generateLocationsFromIR(file, tag, getOperation(), flags))) {
      getOperation().emitError("graph-annotate-spans: cannot write the "
                               "snapshot to '")
          << file << "'";
      return signalPassFailure();
    }
    int64_t annotated = 0;
    getOperation().walk([&](Operation *) { ++annotated; });
    recordPassStat(getArgument(), "annotated", annotated);
  }
};
} // namespace
