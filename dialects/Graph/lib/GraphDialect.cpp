//===- GraphDialect.cpp - the dlc graph dialect ----------------------------===//
#include "dlc/Dialect/Graph/GraphDialect.h"
#include "dlc/Dialect/Graph/GraphOps.h"

using namespace mlir;
using namespace dlc::graph;

#include "dlc/Dialect/Graph/GraphDialect.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dlc/Dialect/Graph/GraphOps.cpp.inc"
      >();
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
