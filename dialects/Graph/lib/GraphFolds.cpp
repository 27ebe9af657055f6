//===- GraphFolds.cpp - folders and canonicalizers of graph ops ------------===//
#include "dlc/Dialect/Graph/GraphOps.h"

using namespace mlir;
using namespace dlc::graph;

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

/// A transform to the same layout is its input; a transform back to where
/// its input came from cancels both.
OpFoldResult LayoutTransformOp::fold(FoldAdaptor) {
  if (getSrcLayout() == getDstLayout() && getInput().getType() == getType())
    return getInput();
  auto inner = getInput().getDefiningOp<LayoutTransformOp>();
  if (inner && inner.getDstLayout() == getSrcLayout() &&
      inner.getSrcLayout() == getDstLayout() && inner.getInput().getType() == getType())
    return inner.getInput();
  return {};
}
