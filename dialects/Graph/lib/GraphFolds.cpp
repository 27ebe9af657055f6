//===- GraphFolds.cpp - folders and canonicalizers of graph ops ------------===//
#include "dlc/Dialect/Graph/GraphOps.h"

using namespace mlir;
using namespace dlc::graph;

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
