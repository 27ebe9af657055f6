//===- GraphInterfaces.cpp - op pattern kinds ------------------------------===//
#include "dlc/Dialect/Graph/GraphInterfaces.h"
#include "dlc/Dialect/Graph/GraphOps.h"

using namespace mlir;
using namespace dlc::graph;

#include "dlc/Dialect/Graph/GraphInterfaces.cpp.inc"

llvm::StringRef dlc::graph::stringifyOpPatternKind(OpPatternKind kind) {
  switch (kind) {
  case OpPatternKind::ElemWise:
    return "elemwise";
  case OpPatternKind::Broadcast:
    return "broadcast";
  case OpPatternKind::Injective:
    return "injective";
  case OpPatternKind::CommReduce:
    return "comm_reduce";
  case OpPatternKind::OutEWiseFusable:
    return "out_elemwise_fusable";
  case OpPatternKind::Tuple:
    return "tuple";
  case OpPatternKind::Opaque:
    return "opaque";
  }
  llvm_unreachable("unknown op pattern kind");
}

OpPatternKind dlc::graph::getOpPatternKind(Operation *op) {
  if (auto c = dyn_cast<ConstantOp>(op))
    return c.getType().getNumElements() == 1 ? OpPatternKind::ElemWise : OpPatternKind::Opaque;
  if (auto kind = dyn_cast<OpPatternInterface>(op))
    return kind.getOpPatternKind();
  return OpPatternKind::Opaque;
}
