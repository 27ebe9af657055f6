//===- Interpreter.h - the reference interpreter ----------------*- C++ -*-===//
//
// Plain C++ semantics for every graph op: the numeric oracle that compiled
// code and graph passes are checked against.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_INTERPRETER_H
#define DLC_RUNTIME_INTERPRETER_H

#include "dlc/Runtime/Tensor.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace dlc {

/// The runtime element type of an MLIR element type, if it has one.
std::optional<DType> dtypeOf(mlir::Type elementType);

/// The MLIR element type of a runtime element type.
mlir::Type mlirElementType(DType type, mlir::MLIRContext *context);

/// A constant payload holding `tensor`: a `dense` attribute up to
/// `maxDenseElements` elements (or when all values are equal), else a
/// `dense_resource` blob named after `name` (uniqued by MLIR), so that large
/// weights never print as decimal text; blobs of kWeightArgumentElements or
/// more (CPUExecutable.h) are aligned to 64 bytes.
mlir::ElementsAttr elementsAttrFromTensor(const Tensor &tensor,
                                          mlir::MLIRContext *context,
                                          llvm::StringRef name,
                                          int64_t maxDenseElements = 16);

/// The values of a constant payload (dense or dense_resource); emits an
/// error at `loc` when the payload is missing or unsupported.
mlir::FailureOr<Tensor> tensorFromAttr(mlir::ElementsAttr attr,
                                       mlir::Location loc);

/// Checks that `inputs` match the argument types of `type`. The error says
/// "input N: expected f32[1x3], got f32[3]".
llvm::Error checkInputs(mlir::FunctionType type, llvm::ArrayRef<Tensor> inputs);

/// Evaluates `func` (graph ops, func.return, func.call) on `inputs`, which
/// must match its signature (see checkInputs). Run-time errors (an index out
/// of range, a dynamic shape that disagrees with the type) are emitted as
/// diagnostics at the op, and the result is failure.
mlir::FailureOr<std::vector<Tensor>> interpret(mlir::func::FuncOp func,
                                               llvm::ArrayRef<Tensor> inputs);

/// Evaluates one op on `operands` with the reference semantics (used to fold
/// constants). Emits a diagnostic at the op and fails on unsupported ops.
mlir::FailureOr<std::vector<Tensor>> evaluateOp(mlir::Operation *op,
                                                llvm::ArrayRef<Tensor> operands);

} // namespace dlc

#endif // DLC_RUNTIME_INTERPRETER_H
