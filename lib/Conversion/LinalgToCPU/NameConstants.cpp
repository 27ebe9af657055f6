//===- NameConstants.cpp - constant globals named by first use -------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
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
    // The new names, then one walk of the module for the references (a
    // walk per global made the pass quadratic: 0.16 s of ResNet-50's
    // lowering), then the globals themselves, moved to the front in order.
    MLIRContext *ctx = &getContext();
    llvm::StringMap<int64_t> seen;
    DenseMap<StringAttr, StringAttr> names;
    for (memref::GlobalOp global : llvm::make_second_range(byFirstUse)) {
      StringRef base = baseName(global.getSymName());
      int64_t n = seen[base]++;
      names[global.getSymNameAttr()] =
          StringAttr::get(ctx, n == 0 ? Twine(base) : base + "_" + Twine(n - 1));
    }
    AttrTypeReplacer replacer;
    // Only a reference's root names a global of the module: its nested
    // references are skipped.
    replacer.addReplacement([&](SymbolRefAttr ref) {
      auto it = names.find(ref.getRootReference());
      Attribute renamed =
          it == names.end() ? ref : SymbolRefAttr::get(it->second, ref.getNestedReferences());
      return std::make_pair(renamed, WalkResult::skip());
    });
    replacer.recursivelyReplaceElementsIn(module);
    Operation *front = &module.getBody()->front();
    for (memref::GlobalOp global : llvm::make_second_range(byFirstUse)) {
      SymbolTable::setSymbolName(global, names.lookup(global.getSymNameAttr()));
      if (global != front)
        global->moveBefore(front);
      front = global->getNextNode();
    }
    dlc::recordPassStat(getArgument(), "globals", byFirstUse.size());
  }
};
} // namespace
