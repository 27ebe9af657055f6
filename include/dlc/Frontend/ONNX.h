//===- ONNX.h - import ONNX models into the graph dialect ------*- C++ -*-===//
#ifndef DLC_FRONTEND_ONNX_H
#define DLC_FRONTEND_ONNX_H

#include "dlc/Runtime/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

namespace dlc {

struct OnnxImportOptions {
  /// Static shapes for graph inputs, by name (overrides the model's shapes,
  /// required for inputs with dynamic dimensions).
  llvm::StringMap<llvm::SmallVector<int64_t>> inputShapes;
  /// Inputs frozen to constants, by name (e.g. shape operands that are model
  /// inputs); they are not arguments of the imported function.
  llvm::StringMap<Tensor> constantInputs;
};

/// An import failure. `unsupported` is set when the model is valid ONNX that
/// dlc does not handle (an operator, attribute or data type), so that test
/// runners can tell it from a malformed model.
class OnnxImportError : public llvm::ErrorInfo<OnnxImportError> {
public:
  static char ID;
  OnnxImportError(std::string message, bool unsupported)
      : message(std::move(message)), unsupported(unsupported) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::string message;
  bool unsupported;
  /// The value that had to be a constant and was not (a graph input a
  /// caller may freeze with OnnxImportOptions::constantInputs), if that is
  /// what failed.
  std::string nonConstantValue;
};

/// Imports the ONNX model at `path` as a module holding `func.func @main`
/// in the graph dialect. Initializers become dense_resource constants;
/// Shape/ConstantOfShape/Constant/Identity and other computations on
/// constants are folded; node names become op locations.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxFile(llvm::StringRef path, mlir::MLIRContext &context,
               const OnnxImportOptions &options = {});

/// Imports a serialized ONNX model held in memory; `name` stands for its
/// file in messages and locations.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxBuffer(llvm::StringRef bytes, llvm::StringRef name, mlir::MLIRContext &context,
                 const OnnxImportOptions &options = {});

/// Parses "name:1x3x224x224" into `options.inputShapes`.
llvm::Error parseInputShape(llvm::StringRef spec, OnnxImportOptions &options);

} // namespace dlc

#endif // DLC_FRONTEND_ONNX_H
