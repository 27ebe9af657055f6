//===- GPUExternDynamicShared.cpp - dynamic shared memory as PTX declares it ===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace dlc {
#define GEN_PASS_DEF_GPUEXTERNDYNAMICSHAREDPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Whether `global` is one convert-gpu-to-nvvm defines for
/// gpu.dynamic_shared_memory: an array of no elements in shared memory.
static bool isDynamicShared(LLVM::GlobalOp global) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  return array && array.getNumElements() == 0 &&
         global.getAddrSpace() == NVVM::NVVMMemorySpace::Shared;
}

namespace {
struct GPUExternDynamicSharedPass
    : dlc::impl::GPUExternDynamicSharedPassBase<GPUExternDynamicSharedPass> {
  void runOnOperation() override {
    int64_t declared = 0;
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      if (!isDynamicShared(global) || global.getLinkage() == LLVM::Linkage::External)
        continue;
      global.setLinkage(LLVM::Linkage::External);
      ++declared;
    }
    dlc::recordPassStat(getArgument(), "declared-external", declared);
  }
};
} // namespace
