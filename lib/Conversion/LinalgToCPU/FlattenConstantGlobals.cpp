//===- FlattenConstantGlobals.cpp - constant arrays stored flat -----------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
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

/// The `llvm.getelementptr`s through `global`'s type that point at its
/// start, or nothing if a user of its address indexes into it.
std::optional<SmallVector<LLVM::GEPOp>> startPointers(ArrayRef<LLVM::AddressOfOp> addresses,
                                                      Type type) {
  SmallVector<LLVM::GEPOp> geps;
  for (LLVM::AddressOfOp address : addresses)
    for (Operation *user : address->getUsers()) {
      auto gep = dyn_cast<LLVM::GEPOp>(user);
      if (!gep || gep.getElemType() != type)
        continue; // the address itself, whatever the global's type
      if (!gep.getDynamicIndices().empty() ||
          llvm::any_of(gep.getRawConstantIndices(), [](int32_t i) { return i != 0; }))
        return std::nullopt;
      geps.push_back(gep);
    }
  return geps;
}

struct FlattenConstantGlobalsPass
    : dlc::impl::FlattenConstantGlobalsPassBase<FlattenConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseMap<StringAttr, SmallVector<LLVM::AddressOfOp>> addresses;
    module.walk([&](LLVM::AddressOfOp address) {
      addresses[address.getGlobalNameAttr().getAttr()].push_back(address);
    });
    int64_t flattened = 0, kept = 0;
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      std::optional<std::pair<Type, int64_t>> scalars = nestedScalars(global.getGlobalType());
      if (!global.getConstant() || !global.getValueAttr() || !scalars)
        continue;
      auto [element, count] = *scalars;
      Attribute value = flatValue(global.getValueAttr(), element, count);
      std::optional<SmallVector<LLVM::GEPOp>> geps =
          startPointers(addresses.lookup(global.getSymNameAttr()), global.getGlobalType());
      if (!value || !geps) {
        ++kept;
        continue;
      }
      for (LLVM::GEPOp gep : *geps) {
        gep.getResult().replaceAllUsesWith(gep.getBase());
        gep.erase();
      }
      global.setGlobalTypeAttr(TypeAttr::get(LLVM::LLVMArrayType::get(element, count)));
      global.setValueAttr(value);
      ++flattened;
    }
    dlc::recordPassStat(getArgument(), "flattened", flattened);
    dlc::recordPassStat(getArgument(), "kept", kept);
  }
};
} // namespace
