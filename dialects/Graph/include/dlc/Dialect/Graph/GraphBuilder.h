//===- GraphBuilder.h - build graph ops with inferred types -----*- C++ -*-===//
//
// The one way graph ops whose result types must be inferred are created, by
// the frontends (ONNX importer, model zoo) and the graph passes alike. An op
// is built off the IR first (result types inferred, then verified) and only
// a valid op is inserted, so an inconsistent model is a diagnostic, never a
// crash, and a rewrite pattern that gives up leaves the IR untouched.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_GRAPH_GRAPHBUILDER_H
#define DLC_DIALECT_GRAPH_GRAPHBUILDER_H

#include "mlir/IR/Builders.h"

namespace dlc::graph {

/// Builds op `name` detached from any block: result types are `resultTypes`
/// when given, else inferred (InferTypeOpInterface). The op is verified; on
/// failure it is destroyed, the diagnostics have been emitted at `loc`, and
/// the result is failure. The caller owns a returned op until it inserts it.
mlir::FailureOr<mlir::Operation *>
buildDetachedGraphOp(mlir::Location loc, llvm::StringRef name,
                     mlir::ValueRange operands,
                     llvm::ArrayRef<mlir::NamedAttribute> attributes,
                     mlir::TypeRange resultTypes = {}, unsigned numResults = 1);

/// buildDetachedGraphOp, then inserted at the builder's insertion point (its
/// listener is notified only then).
mlir::FailureOr<mlir::Operation *>
createGraphOp(mlir::OpBuilder &builder, mlir::Location loc,
              llvm::StringRef name, mlir::ValueRange operands,
              llvm::ArrayRef<mlir::NamedAttribute> attributes,
              mlir::TypeRange resultTypes = {}, unsigned numResults = 1);

/// createGraphOp for the op class `OpTy` (its name checked at compile time).
template <typename OpTy>
mlir::FailureOr<OpTy>
createGraphOp(mlir::OpBuilder &builder, mlir::Location loc,
              mlir::ValueRange operands,
              llvm::ArrayRef<mlir::NamedAttribute> attributes = {},
              mlir::TypeRange resultTypes = {}) {
  mlir::FailureOr<mlir::Operation *> op = createGraphOp(
      builder, loc, OpTy::getOperationName(), operands, attributes, resultTypes, 1);
  if (mlir::failed(op))
    return mlir::failure();
  return llvm::cast<OpTy>(*op);
}

} // namespace dlc::graph

#endif // DLC_DIALECT_GRAPH_GRAPHBUILDER_H
