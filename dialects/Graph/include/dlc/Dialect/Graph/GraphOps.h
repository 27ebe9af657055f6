//===- GraphOps.h - graph dialect operations --------------------*- C++ -*-===//
#ifndef DLC_DIALECT_GRAPH_GRAPHOPS_H
#define DLC_DIALECT_GRAPH_GRAPHOPS_H

#include "dlc/Dialect/Graph/GraphDialect.h"
#include "dlc/Dialect/Graph/GraphInterfaces.h"
#include "dlc/Support/Resize.h"
#include "dlc/Support/Shape.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dlc/Dialect/Graph/GraphOps.h.inc"

namespace dlc::graph {
/// Replaces a graph.fused or graph.composite by the ops of its body.
void inlineRegionOp(mlir::Operation *regionOp);
} // namespace dlc::graph

#endif // DLC_DIALECT_GRAPH_GRAPHOPS_H
