//===- GPUMergeKernelModules.cpp - one gpu.module for all kernels ----------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace dlc {
#define GEN_PASS_DEF_GPUMERGEKERNELMODULESPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct GPUMergeKernelModulesPass
    : dlc::impl::GPUMergeKernelModulesPassBase<GPUMergeKernelModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> kernelModules(module.getOps<gpu::GPUModuleOp>());
    if (kernelModules.empty())
      return;
    MLIRContext *ctx = &getContext();
    OpBuilder b(kernelModules.front());
    auto merged = gpu::GPUModuleOp::create(b, kernelModules.front().getLoc(), "dlc_kernels");
    SymbolTable symbols(merged);
    int64_t kernels = 0;
    llvm::StringMap<StringAttr> renamed; // "module::function" -> the name in `merged`
    for (gpu::GPUModuleOp m : kernelModules) {
      for (Operation &op : llvm::make_early_inc_range(m.getBody()->without_terminator())) {
        StringAttr old = SymbolTable::getSymbolName(&op);
        // A helper the kernels call (integer powers) is cloned into every
        // module that uses it, each time the same host function: kept once.
        if (!isa<gpu::GPUFuncOp>(op) && symbols.lookup(old)) {
          renamed[(m.getName() + "::" + old.getValue()).str()] = old;
          continue;
        }
        op.remove();
        StringAttr name = symbols.insert(&op); // renamed if taken
        renamed[(m.getName() + "::" + old.getValue()).str()] = name;
        kernels += isa<gpu::GPUFuncOp>(op);
      }
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      SymbolRefAttr kernel = launch.getKernel();
      std::string key = (kernel.getRootReference().getValue() + "::" +
                         kernel.getLeafReference().getValue())
                            .str();
      if (StringAttr name = renamed.lookup(key))
        launch.setKernelAttr(SymbolRefAttr::get(merged.getNameAttr(),
                                                {FlatSymbolRefAttr::get(ctx, name)}));
    });
    for (gpu::GPUModuleOp m : kernelModules)
      m.erase();
    dlc::recordPassStat(getArgument(), "kernels", kernels);
  }
};
} // namespace
