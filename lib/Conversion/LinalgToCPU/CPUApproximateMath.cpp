//===- CPUApproximateMath.cpp - vectorizable exp, erf and tanh -------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_CPUAPPROXIMATEMATHPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The math ops (by full name) that otherwise become one libm call per
/// element.
static bool approximated(StringRef opName) {
  return llvm::is_contained({math::ExpOp::getOperationName(),
                             math::ErfOp::getOperationName(),
                             math::TanhOp::getOperationName()},
                            opName);
}

namespace {
struct CPUApproximateMathPass
    : dlc::impl::CPUApproximateMathPassBase<CPUApproximateMathPass> {
  void runOnOperation() override {
    auto countCalls = [&] {
      int64_t n = 0;
      getOperation().walk([&](Operation *op) {
        n += approximated(op->getName().getStringRef());
      });
      return n;
    };
    int64_t before = countCalls();
    RewritePatternSet patterns(&getContext());
    // f16 and bf16 ones computed in f32 (as LLVM would, through libm).
    populateMathF32ExpansionPatterns(patterns, approximated);
    populateMathPolynomialApproximationPatterns(patterns, approximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    dlc::recordPassStat(getArgument(), "approximated", before - countCalls());
  }
};
} // namespace
