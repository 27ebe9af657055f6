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
    auto run = [&](void (*populate)(RewritePatternSet &), StringRef counter) {
      RewritePatternSet patterns(&getContext());
      populate(patterns);
      FailureOr<int64_t> n = applyCountedPatterns(getOperation(), std::move(patterns));
      if (succeeded(n))
        recordPassStat(getArgument(), counter, *n);
      return n;
    };
    if (failed(run(populateBackwardFoldScaleAxisPatterns, "backward")) ||
        failed(run(populateForwardFoldScaleAxisPatterns, "forward")) ||
        failed(run([](RewritePatternSet &p) { populateFoldConstantPatterns(p); },
                   "folded")))
      signalPassFailure();
  }
};
} // namespace
