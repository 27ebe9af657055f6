//===- CPUCopiesToLinalg.cpp - strided buffer copies as loops --------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_CPUCOPIESTOLINALGPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Whether a copy from or to `type` would not lower to a memcpy but to a
/// call of the generic strided copy of MLIR's runtime: neither an identity
/// layout nor a static, contiguous one (a band of rows of dynamic height,
/// dlc-cpu-tile-and-fuse).
static bool isStrided(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && !memref.getLayout().isIdentity() &&
         !(memref.hasStaticShape() && memref.areTrailingDimsContiguous(memref.getRank()));
}

namespace {
struct CPUCopiesToLinalgPass
    : dlc::impl::CPUCopiesToLinalgPassBase<CPUCopiesToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (isStrided(copy.getSource().getType()) ||
          isStrided(copy.getTarget().getType()))
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
