//===- CPUResultsInPlace.cpp - results computed in the caller's buffers ----===//
//
// After bufferization every function result is an out-parameter, filled by
// a `memref.copy` just before the return. Where the copied buffer is an
// allocation of the function with the out-parameter's type, the function
// computes in the out-parameter instead: the allocation and the copy of the
// whole result go away. (MLIR's buffer-results-to-out-params does this for
// allocations returned directly, but only for allocation ops it knows
// through an interface, and not for buffers returned by calls.)
//
//===----------------------------------------------------------------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace dlc {
#define GEN_PASS_DEF_CPURESULTSINPLACEPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// The out-parameter that `copy` (in the function's body) fills if it is
/// one of the copies that end the function (only copies follow it, then
/// the return) and the out-parameter is used by nothing else.
BlockArgument filledOutParameter(memref::CopyOp copy) {
  auto out = dyn_cast<BlockArgument>(copy.getTarget());
  if (!out || !out.hasOneUse())
    return {};
  for (Operation *op = copy->getNextNode(); op; op = op->getNextNode())
    if (!isa<memref::CopyOp, func::ReturnOp>(op))
      return {};
  return out;
}

struct CPUResultsInPlacePass : dlc::impl::CPUResultsInPlacePassBase<CPUResultsInPlacePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    int64_t inPlace = 0;
    for (auto copy : llvm::make_early_inc_range(func.front().getOps<memref::CopyOp>())) {
      BlockArgument out = filledOutParameter(copy);
      auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
      if (!out || !alloc || alloc.getType() != out.getType() ||
          !alloc.getType().getLayout().isIdentity())
        continue;
      copy.erase();
      alloc.getResult().replaceAllUsesWith(out);
      alloc.erase();
      ++inPlace;
    }
    dlc::recordPassStat(getArgument(), "in-place", inPlace);
  }
};
} // namespace
