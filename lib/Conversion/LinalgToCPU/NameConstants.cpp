//===- NameConstants.cpp - constant globals named by first use -------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

namespace dlc {
#define GEN_PASS_DEF_NAMECONSTANTSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// The name bufferization derives from the type: `name` without the
/// `_<n>` the symbol table appends to make it unique (a type never ends in
/// one: "__constant_1x16xf32").
StringRef baseName(StringRef name) {
  size_t underscore = name.rfind('_');
  StringRef suffix = name.drop_front(underscore + 1);
  return !suffix.empty() && llvm::all_of(suffix, llvm::isDigit) ? name.take_front(underscore)
                                                                : name;
}

struct NameConstantsPass : dlc::impl::NameConstantsPassBase<NameConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::MapVector<StringRef, memref::GlobalOp> byFirstUse;
    llvm::StringMap<memref::GlobalOp> constants;
    for (auto global : module.getOps<memref::GlobalOp>())
      if (global.getSymName().starts_with("__constant_"))
        constants[global.getSymName()] = global;
    module.walk([&](memref::GetGlobalOp get) {
      auto it = constants.find(get.getName());
      if (it != constants.end())
        byFirstUse.insert({it->second.getSymName(), it->second});
    });
    for (auto global : module.getOps<memref::GlobalOp>())
      if (constants.count(global.getSymName()))
        byFirstUse.insert({global.getSymName(), global});
    // Temporary names first, so that no new name collides with an old one.
    SmallVector<std::pair<memref::GlobalOp, std::string>> renamed;
    for (auto [i, entry] : llvm::enumerate(byFirstUse)) {
      memref::GlobalOp global = entry.second;
      std::string base = baseName(global.getSymName()).str();
      std::string temporary = "__dlc_renaming_" + std::to_string(i);
      if (failed(SymbolTable::replaceAllSymbolUses(global, StringAttr::get(&getContext(), temporary),
                                                   module)))
        return signalPassFailure();
      SymbolTable::setSymbolName(global, temporary);
      renamed.push_back({global, base});
    }
    llvm::StringMap<int64_t> seen;
    Operation *front = &module.getBody()->front();
    for (auto &[global, base] : renamed) {
      int64_t n = seen[base]++;
      std::string name = n == 0 ? base : base + "_" + std::to_string(n - 1);
      if (failed(SymbolTable::replaceAllSymbolUses(global, StringAttr::get(&getContext(), name),
                                                   module)))
        return signalPassFailure();
      SymbolTable::setSymbolName(global, name);
      if (global != front)
        global->moveBefore(front);
      front = global->getNextNode();
    }
    dlc::recordPassStat(getArgument(), "globals", renamed.size());
  }
};
} // namespace
