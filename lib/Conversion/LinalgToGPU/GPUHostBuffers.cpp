//===- GPUHostBuffers.cpp - a function's buffers in device memory ----------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_GPUHOSTBUFFERSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct GPUHostBuffersPass : dlc::impl::GPUHostBuffersPassBase<GPUHostBuffersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &body = func.getBody().front();
    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::GetGlobalOp> globals;
    SmallVector<memref::DeallocOp> deallocs;
    WalkResult walk = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (isa<memref::AllocOp, memref::GetGlobalOp>(op) && op->getBlock() != &body) {
        op->emitError("a buffer allocated inside a region cannot be put in device memory");
        return WalkResult::interrupt();
      }
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        allocs.push_back(alloc);
      else if (auto global = dyn_cast<memref::GetGlobalOp>(op))
        globals.push_back(global);
      else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        deallocs.push_back(dealloc);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    for (memref::DeallocOp dealloc : deallocs)
      rewriter.eraseOp(dealloc);
    SmallVector<Value> buffers;
    auto deviceBuffer = [&](Operation *op, MemRefType type, ValueRange sizes) {
      auto alloc = gpu::AllocOp::create(rewriter, op->getLoc(), type, /*asyncToken=*/Type(),
                                        /*asyncDependencies=*/ValueRange(), sizes,
                                        /*symbolOperands=*/ValueRange(), /*hostShared=*/UnitAttr());
      buffers.push_back(alloc.getMemref());
      return alloc.getMemref();
    };
    for (memref::AllocOp alloc : allocs) {
      rewriter.setInsertionPoint(alloc);
      rewriter.replaceOp(alloc, deviceBuffer(alloc, alloc.getType(), alloc.getDynamicSizes()));
    }
    for (memref::GetGlobalOp global : globals) {
      rewriter.setInsertionPointAfter(global);
      Value device = deviceBuffer(global, global.getType(), ValueRange());
      rewriter.replaceAllUsesExcept(global.getResult(), device, {});
      gpu::MemcpyOp::create(rewriter, global.getLoc(), /*asyncToken=*/Type(), ValueRange(),
                            device, global.getResult());
    }
    for (Operation &op : body)
      if (op.hasTrait<OpTrait::ReturnLike>()) {
        rewriter.setInsertionPoint(&op);
        for (Value buffer : buffers)
          gpu::DeallocOp::create(rewriter, op.getLoc(), /*asyncToken=*/Type(), ValueRange(),
                                 buffer);
      }
    dlc::recordPassStat(getArgument(), "buffers", allocs.size());
    dlc::recordPassStat(getArgument(), "constants", globals.size());
  }
};
} // namespace
