//===- RemoveUnusedFunctions.cpp - drop functions unreachable from entries -===//
#include "dlc/Transforms/PassLedger.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace dlc {
#define GEN_PASS_DEF_REMOVEUNUSEDFUNCTIONSPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using dlc::recordPassStat;

namespace {
struct RemoveUnusedFunctionsPass
    : dlc::impl::RemoveUnusedFunctionsPassBase<RemoveUnusedFunctionsPass> {
  using RemoveUnusedFunctionsPassBase::RemoveUnusedFunctionsPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::string> names(entries.begin(), entries.end());
    if (names.empty())
      names.push_back("main");
    llvm::SetVector<func::FuncOp> reachable;
    for (const std::string &name : names)
      if (auto f = module.lookupSymbol<func::FuncOp>(name))
        reachable.insert(f);
    if (reachable.empty()) {
      // Nothing to anchor on: leave the module as it is.
      recordPassStat(getArgument(), "no-entry", 1);
      return;
    }
    // Everything an entry reaches through symbol uses (calls).
    for (size_t i = 0; i < reachable.size(); ++i) {
      auto uses = SymbolTable::getSymbolUses(reachable[i]);
      if (!uses)
        continue;
      for (const SymbolTable::SymbolUse &use : *uses)
        if (auto f = module.lookupSymbol<func::FuncOp>(
                use.getSymbolRef().getRootReference()))
          reachable.insert(f);
    }
    int64_t removed = 0;
    for (auto f : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (!reachable.contains(f)) {
        f.erase();
        ++removed;
      }
    recordPassStat(getArgument(), "removed", removed);
  }
};
} // namespace
