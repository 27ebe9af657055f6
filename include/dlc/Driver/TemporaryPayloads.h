//===- TemporaryPayloads.h - free the weights a compile wrote ---*- C++ -*-===//
//
// The builtin dialect keeps every dense_resource blob until its context
// dies, unused or not. A compile writes blobs into its copy of the model
// (weights folded, transposed, packed), so every compile in one context
// kept its own copy of them: a tuning run grew by BERT-base's 0.45 GB per
// candidate until the machine ran out of memory.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DRIVER_TEMPORARYPAYLOADS_H
#define DLC_DRIVER_TEMPORARYPAYLOADS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

namespace dlc {

/// Frees, when it ends, the payloads of the dense_resource blobs created in
/// a context while it lived. Only for IR that dies with it (a compile's
/// copy of the model, a tuning candidate's graph): a freed payload reads as
/// empty, and the blob's name stays taken.
class TemporaryPayloads {
public:
  explicit TemporaryPayloads(mlir::MLIRContext *context);
  ~TemporaryPayloads();
  TemporaryPayloads(const TemporaryPayloads &) = delete;
  TemporaryPayloads &operator=(const TemporaryPayloads &) = delete;

  /// Frees nothing when it ends: the IR made under it lives on.
  void keep() { kept = true; }

  /// Whether `attr`'s payload was created under the scope (and is not
  /// freed yet): only IR made under it reads it.
  bool created(mlir::DenseResourceElementsAttr attr) const;

  /// The payload of `attr`, moved out to outlive the scope, if it was
  /// created under it; the attribute reads as empty after.
  std::optional<mlir::AsmResourceBlob> take(mlir::DenseResourceElementsAttr attr);

private:
  mlir::DialectResourceBlobManager &manager;
  llvm::StringSet<> earlier; ///< the blobs that existed before
  bool kept = false;
};

} // namespace dlc

#endif // DLC_DRIVER_TEMPORARYPAYLOADS_H
