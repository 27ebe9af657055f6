//===- CPUNoAliasArgs.cpp - distinct buffers for public functions ----------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace dlc {
#define GEN_PASS_DEF_CPUNOALIASARGSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct CPUNoAliasArgsPass : dlc::impl::CPUNoAliasArgsPassBase<CPUNoAliasArgsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func.isPublic() || func.isExternal())
      return;
    int64_t marked = 0;
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (isa<MemRefType>(func.getArgument(i).getType())) {
        func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                        UnitAttr::get(&getContext()));
        ++marked;
      }
    dlc::recordPassStat(getArgument(), "arguments", marked);
  }
};
} // namespace
