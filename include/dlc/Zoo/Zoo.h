//===- Zoo.h - builtin model architectures ----------------------*- C++ -*-===//
//
// Builders for the architectures of the CF'22 study, layer for layer as their
// papers (and torchvision / NVIDIA's reference code) define them, with
// deterministic pseudo-random weights. Batch norm stays explicit, as a
// framework would export it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_ZOO_ZOO_H
#define DLC_ZOO_ZOO_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

namespace dlc::zoo {

struct ZooOptions {
  int64_t batch = 1;
  int64_t image = 0; ///< input height and width; 0 for the model's default
  int64_t seq = 128; ///< sequence length of BERT models
  uint64_t seed = 0; ///< weights are a function of (seed, parameter name)
};

struct ModelInfo {
  llvm::StringRef name;
  llvm::StringRef description;
  int64_t defaultImage; ///< 0 for models without an image input
};

/// Every builtin model, in --list order.
llvm::ArrayRef<ModelInfo> models();

/// Builds `name` as a module with `func.func @main`. Errors name the model and
/// the option that is out of range (e.g. an image size the strides do not
/// divide).
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildModel(llvm::StringRef name, mlir::MLIRContext &context,
           const ZooOptions &options);

} // namespace dlc::zoo

#endif // DLC_ZOO_ZOO_H
