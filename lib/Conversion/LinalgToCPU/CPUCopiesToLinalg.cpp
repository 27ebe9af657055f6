//===- CPUCopiesToLinalg.cpp - strided buffer copies as loops --------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_CPUCOPIESTOLINALGPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Whether `type` has a static shape and is not contiguous.
static bool isStaticStrided(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.hasStaticShape() &&
         !memref.areTrailingDimsContiguous(memref.getRank());
}

namespace {
struct CPUCopiesToLinalgPass
    : dlc::impl::CPUCopiesToLinalgPassBase<CPUCopiesToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (isStaticStrided(copy.getSource().getType()) ||
          isStaticStrided(copy.getTarget().getType()))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(), copy.getTarget());
      rewriter.eraseOp(copy);
    }
    dlc::recordPassStat(getArgument(), "copies", copies.size());
  }
};
} // namespace
