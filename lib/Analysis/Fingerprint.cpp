//===- Fingerprint.cpp - structural fingerprints of ops --------------------===//
#include "dlc/Analysis/Fingerprint.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string dlc::structuralFingerprint(Operation *op) {
  // The generic form without locations names every op, type and attribute
  // and numbers values by position: it is the structure. A symbol's own
  // name and visibility are not.
  OwningOpRef<Operation *> copy(op->clone());
  if (copy->hasAttr(SymbolTable::getSymbolAttrName()))
    copy->setAttr(SymbolTable::getSymbolAttrName(), StringAttr::get(op->getContext(), "_"));
  copy->removeAttr(SymbolTable::getVisibilityAttrName());
  std::string text;
  llvm::raw_string_ostream os(text);
  copy->print(os, OpPrintingFlags().printGenericOpForm());

  llvm::SHA256 hash;
  hash.update(text);
  // dense_resource attributes print as their key: hash their bytes instead.
  copy->walk([&](Operation *nested) {
    for (NamedAttribute attr : nested->getAttrs())
      if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr.getValue())) {
        AsmResourceBlob *blob = resource.getRawHandle().getBlob();
        ArrayRef<char> bytes = blob ? blob->getData() : ArrayRef<char>();
        hash.update(StringRef(bytes.data(), bytes.size()));
      }
  });
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(digest, /*LowerCase=*/true);
}
