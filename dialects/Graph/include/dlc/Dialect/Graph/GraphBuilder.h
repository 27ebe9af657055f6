//===- GraphBuilder.h - build graph ops with inferred types -----*- C++ -*-===//
//
// The one way frontends (ONNX importer, model zoo) create graph ops: by name,
// operands and attributes, with result types inferred and the op verified,
// so that an inconsistent model is a diagnostic, never a crash.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_GRAPH_GRAPHBUILDER_H
#define DLC_DIALECT_GRAPH_GRAPHBUILDER_H

#include "mlir/IR/Builders.h"

namespace dlc::graph {

/// Creates op `name` at the builder's insertion point. Result types are
/// `resultTypes` when given, else inferred (InferTypeOpInterface), else the
/// first operand's type. The op is verified; on failure it is erased, the
/// diagnostics have been emitted at `loc`, and the result is failure.
mlir::FailureOr<mlir::Operation *>
createGraphOp(mlir::OpBuilder &builder, mlir::Location loc,
              llvm::StringRef name, mlir::ValueRange operands,
              llvm::ArrayRef<mlir::NamedAttribute> attributes,
              mlir::TypeRange resultTypes = {}, unsigned numResults = 1);

} // namespace dlc::graph

#endif // DLC_DIALECT_GRAPH_GRAPHBUILDER_H
