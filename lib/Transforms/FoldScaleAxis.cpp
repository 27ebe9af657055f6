//===- FoldScaleAxis.cpp - Backward, Forward, then FoldConstant ------------===//
#include "PassUtils.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_FOLDSCALEAXISPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct FoldScaleAxisPass : dlc::impl::FoldScaleAxisPassBase<FoldScaleAxisPass> {
  void runOnOperation() override {
    // The three steps run in order, as TVM's Sequential does.
    Operation *op = getOperation();
    if (failed(applyAndRecordPatterns(op, getArgument(), "backward",
                                      populateBackwardFoldScaleAxisPatterns)) ||
        failed(applyAndRecordPatterns(op, getArgument(), "forward",
                                      populateForwardFoldScaleAxisPatterns)) ||
        failed(applyAndRecordPatterns(op, getArgument(), "folded", [](RewritePatternSet &p) {
          populateFoldConstantPatterns(p);
        })))
      signalPassFailure();
  }
};
} // namespace
