//===- Fingerprint.cpp - structural fingerprints of ops --------------------===//
#include "dlc/Analysis/Fingerprint.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Every elements attribute of more than 16 elements in `root` as a zero
/// splat of its type.
static void eraseWeights(Operation *root) {
  root->walk([](Operation *op) {
    for (NamedAttribute attr : op->getAttrs()) {
      auto elements = dyn_cast<ElementsAttr>(attr.getValue());
      if (!elements || elements.getNumElements() <= 16)
        continue;
      auto type = cast<ShapedType>(elements.getType());
      Type et = type.getElementType();
      Attribute zero;
      if (auto f = dyn_cast<FloatType>(et))
        zero = FloatAttr::get(f, 0.0);
      else if (auto i = dyn_cast<IntegerType>(et))
        zero = IntegerAttr::get(i, 0);
      if (zero)
        op->setAttr(attr.getName(), DenseElementsAttr::get(type, zero));
    }
  });
}

std::string dlc::structuralFingerprint(Operation *op, bool withWeights) {
  // The generic form without locations names every op, type and attribute
  // and numbers values by position: it is the structure. A symbol's own
  // name and visibility are not.
  OwningOpRef<Operation *> copy(op->clone());
  if (copy->hasAttr(SymbolTable::getSymbolAttrName()))
    copy->setAttr(SymbolTable::getSymbolAttrName(), StringAttr::get(op->getContext(), "_"));
  copy->removeAttr(SymbolTable::getVisibilityAttrName());
  if (!withWeights)
    eraseWeights(copy.get());
  // Payloads of more than 16 elements print elided and are hashed apart,
  // by 128-bit XXH3 (printing ResNet-50's weights in hex and hashing the
  // text by SHA-256 took seconds, and the pass ledger fingerprints twice
  // per pass); dense_resource attributes print as their key, never their
  // bytes (local scope: no resource section, which printed every weight
  // in hex).
  std::string text;
  llvm::raw_string_ostream os(text);
  copy->print(os, OpPrintingFlags().printGenericOpForm().elideLargeElementsAttrs(16).useLocalScope());
  llvm::SHA256 hash;
  hash.update(text);
  auto payload = [&](ArrayRef<char> bytes) {
    llvm::XXH128_hash_t h = llvm::xxh3_128bits(
        ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
    hash.update(std::to_string(bytes.size()) + ":" + llvm::utohexstr(h.high64) + ":" +
                llvm::utohexstr(h.low64) + ";");
  };
  copy->walk([&](Operation *nested) {
    for (NamedAttribute attr : nested->getAttrs()) {
      if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr.getValue())) {
        AsmResourceBlob *blob = resource.getRawHandle().getBlob();
        payload(blob ? blob->getData() : ArrayRef<char>());
      } else if (auto dense = dyn_cast<DenseElementsAttr>(attr.getValue());
                 dense && dense.getNumElements() > 16) {
        payload(dense.getRawData());
      }
    }
  });
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string dlc::moduleFingerprint(Operation *root, bool withWeights) {
  llvm::SHA256 hash;
  for (Region &region : root->getRegions())
    for (Operation &op : region.getOps())
      hash.update(structuralFingerprint(&op, withWeights) + "\n");
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}
