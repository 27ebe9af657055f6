//===- FlattenConstantGlobals.cpp - constant arrays stored flat -----------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

namespace dlc {
#define GEN_PASS_DEF_FLATTENCONSTANTGLOBALSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// The scalar type and element count of an array of arrays of scalars, or
/// nothing for any other type (one level of array is flat already).
std::optional<std::pair<Type, int64_t>> nestedScalars(Type type) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(type);
  if (!array || !isa<LLVM::LLVMArrayType>(array.getElementType()))
    return std::nullopt;
  int64_t count = 1;
  Type element = type;
  while (auto inner = dyn_cast<LLVM::LLVMArrayType>(element)) {
    count *= inner.getNumElements();
    element = inner.getElementType();
  }
  if (!element.isIntOrFloat())
    return std::nullopt;
  return std::make_pair(element, count);
}

/// `value` as a one-dimensional elements attribute of `count` elements
/// (a resource keeps its blob), or null if it is neither kind.
Attribute flatValue(Attribute value, Type element, int64_t count) {
  auto type = RankedTensorType::get({count}, element);
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.getType().getNumElements() == count && dense.getElementType() == element
               ? dense.reshape(type)
               : Attribute();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return resource.getType().getNumElements() == count &&
                   resource.getType().getElementType() == element
               ? DenseResourceElementsAttr::get(type, resource.getRawHandle())
               : Attribute();
  return {};
}

/// Whether `gep` points at the start of whatever it indexes: all its
/// indices are constant zeros.
bool pointsAtStart(LLVM::GEPOp gep) {
  return gep.getDynamicIndices().empty() &&
         llvm::all_of(gep.getRawConstantIndices(), [](int32_t i) { return i == 0; });
}

struct FlattenConstantGlobalsPass
    : dlc::impl::FlattenConstantGlobalsPassBase<FlattenConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseMap<StringAttr, SmallVector<LLVM::AddressOfOp>> addresses;
    module.walk([&](LLVM::AddressOfOp address) {
      addresses[address.getGlobalNameAttr().getAttr()].push_back(address);
    });
    int64_t flattened = 0;
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      std::optional<std::pair<Type, int64_t>> scalars = nestedScalars(global.getGlobalType());
      if (!global.getConstant() || !global.getValueAttr() || !scalars)
        continue;
      auto [element, count] = *scalars;
      Attribute value = flatValue(global.getValueAttr(), element, count);
      if (!value)
        continue;
      // Every getelementptr names the type it indexes through (opaque
      // pointers), so those through the old type still compute the same
      // addresses; the ones that point at the start are the address itself.
      for (LLVM::AddressOfOp address : addresses.lookup(global.getSymNameAttr()))
        for (Operation *user : llvm::make_early_inc_range(address->getUsers()))
          if (auto gep = dyn_cast<LLVM::GEPOp>(user); gep && pointsAtStart(gep)) {
            gep.getResult().replaceAllUsesWith(gep.getBase());
            gep.erase();
          }
      global.setGlobalTypeAttr(TypeAttr::get(LLVM::LLVMArrayType::get(element, count)));
      global.setValueAttr(value);
      ++flattened;
    }
    dlc::recordPassStat(getArgument(), "flattened", flattened);
  }
};
} // namespace
