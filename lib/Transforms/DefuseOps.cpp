//===- DefuseOps.cpp - inline graph.fused regions back ---------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_DEFUSEOPSPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct DefuseOpsPass : dlc::impl::DefuseOpsPassBase<DefuseOpsPass> {
  void runOnOperation() override {
    SmallVector<graph::FusedOp> regions;
    getOperation().walk([&](graph::FusedOp op) { regions.push_back(op); });
    // Post-order: nested regions first.
    for (graph::FusedOp op : regions)
      graph::inlineRegionOp(op);
    recordPassStat(getArgument(), "defused", regions.size());
  }
};
} // namespace
