//===- TemporaryPayloads.cpp - free the weights a compile wrote ------------===//
#include "dlc/Driver/TemporaryPayloads.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace dlc;

TemporaryPayloads::TemporaryPayloads(MLIRContext *context)
    : manager(DenseResourceElementsHandle::getManagerInterface(context).getBlobManager()) {
  manager.getBlobMap([&](const llvm::StringMap<DialectResourceBlobManager::BlobEntry> &blobs) {
    for (const auto &entry : blobs)
      earlier.insert(entry.getKey());
  });
}

TemporaryPayloads::~TemporaryPayloads() {
  if (kept)
    return;
  std::vector<std::string> created;
  manager.getBlobMap([&](const llvm::StringMap<DialectResourceBlobManager::BlobEntry> &blobs) {
    for (const auto &entry : blobs)
      if (!earlier.contains(entry.getKey()) && entry.getValue().getBlob() &&
          !entry.getValue().getBlob()->getData().empty())
        created.push_back(entry.getKey().str());
  });
  // Looked up again outside getBlobMap, which holds the map's lock.
  for (const std::string &name : created)
    if (DialectResourceBlobManager::BlobEntry *entry = manager.lookup(name))
      entry->setBlob(AsmResourceBlob());
}

bool TemporaryPayloads::created(DenseResourceElementsAttr attr) const {
  DialectResourceBlobManager::BlobEntry *entry = attr.getRawHandle().getResource();
  return entry && !earlier.contains(entry->getKey()) && entry->getBlob() &&
         !entry->getBlob()->getData().empty();
}

std::optional<AsmResourceBlob> TemporaryPayloads::take(DenseResourceElementsAttr attr) {
  if (!created(attr))
    return std::nullopt;
  DialectResourceBlobManager::BlobEntry *entry = attr.getRawHandle().getResource();
  AsmResourceBlob blob = std::move(*entry->getBlob());
  entry->setBlob(AsmResourceBlob());
  return blob;
}
