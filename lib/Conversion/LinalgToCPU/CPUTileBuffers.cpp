//===- CPUTileBuffers.cpp - tile buffers out of the heap -------------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_CPUTILEBUFFERSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct CPUTileBuffersPass : dlc::impl::CPUTileBuffersPassBase<CPUTileBuffersPass> {
  using CPUTileBuffersPassBase::CPUTileBuffersPassBase;

  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      // (Buffers of index have no bit width here: they stay on the heap.)
      if (isa<scf::ForOp, scf::ForallOp>(alloc->getParentOp()) && type.hasStaticShape() &&
          type.getLayout().isIdentity() && type.getElementType().isIntOrFloat() &&
          type.getNumElements() * type.getElementTypeBitWidth() / 8 <= maxBytes)
        allocs.push_back(alloc);
    });
    IRRewriter rewriter(&getContext());
    int64_t hoisted = 0, stacked = 0;
    for (memref::AllocOp alloc : allocs) {
      // A new buffer's contents are undefined, so a sequential loop can
      // reuse one buffer for all its iterations.
      bool moved = false;
      while (auto loop = dyn_cast<scf::ForOp>(alloc->getParentOp())) {
        rewriter.moveOpBefore(alloc, loop);
        moved = true;
      }
      hoisted += moved;
      // Threads need one each: on the stack, which the OpenMP loop body
      // releases after every iteration.
      if (isa<scf::ForallOp>(alloc->getParentOp())) {
        rewriter.setInsertionPoint(alloc);
        rewriter.replaceOpWithNewOp<memref::AllocaOp>(alloc, alloc.getType(),
                                                      alloc.getAlignmentAttr());
        ++stacked;
      }
    }
    dlc::recordPassStat(getArgument(), "hoisted", hoisted);
    dlc::recordPassStat(getArgument(), "stacked", stacked);
  }
};
} // namespace
