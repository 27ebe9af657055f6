//===- GraphDialect.h - the dlc graph dialect -------------------*- C++ -*-===//
#ifndef DLC_DIALECT_GRAPH_GRAPHDIALECT_H
#define DLC_DIALECT_GRAPH_GRAPHDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dlc/Dialect/Graph/GraphDialect.h.inc"

#endif // DLC_DIALECT_GRAPH_GRAPHDIALECT_H
