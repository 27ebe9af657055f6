//===- MergeCompilerRegions.cpp - annotated ops into target regions -------===//
//
// TVM's MergeCompilerRegions: after AnnotateTarget, an annotated op joins the
// regions of its operand producers that have its target, as long as no
// cycle appears. A merge of regions A and B is refused when a path leaves
// one of them, passes an op outside both, and comes back into the other:
// the outlined function would then both feed and depend on that op. The
// function's block is in dataflow order, so a forward walk from A's users
// that stops at ops after B's last op decides it.
//
//===----------------------------------------------------------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"
#include "dlc/Transforms/TargetDescription.h"

#include "llvm/ADT/EquivalenceClasses.h"

namespace dlc {
#define GEN_PASS_DEF_MERGECOMPILERREGIONSPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct MergeCompilerRegionsPass
    : dlc::impl::MergeCompilerRegionsPassBase<MergeCompilerRegionsPass> {
  using MergeCompilerRegionsPassBase::MergeCompilerRegionsPassBase;

  /// The ops of the region `op` belongs to.
  SmallVector<Operation *> members(Operation *op) {
    SmallVector<Operation *> ops;
    for (auto it = regions.findLeader(op); it != regions.member_end(); ++it)
      ops.push_back(*it);
    return ops;
  }

  /// Whether a path goes from the region of `a` through an op outside both
  /// regions into the region of `b`.
  bool reachesThroughOutside(Operation *a, Operation *b) {
    Operation *leaderA = regions.getLeaderValue(a), *leaderB = regions.getLeaderValue(b);
    auto inRegion = [&](Operation *op, Operation *leader) {
      return regions.contains(op) && regions.getLeaderValue(op) == leader;
    };
    Operation *lastB = nullptr;
    for (Operation *op : members(b))
      if (!lastB || lastB->isBeforeInBlock(op))
        lastB = op;
    SmallVector<Operation *> worklist;
    llvm::SmallPtrSet<Operation *, 32> seen;
    for (Operation *op : members(a))
      for (Operation *user : op->getUsers())
        if (!inRegion(user, leaderA) && !inRegion(user, leaderB) && seen.insert(user).second)
          worklist.push_back(user);
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (op->getBlock() != lastB->getBlock() || lastB->isBeforeInBlock(op))
        continue; // past B: cannot lead back into it
      for (Operation *user : op->getUsers()) {
        if (inRegion(user, leaderB))
          return true;
        if (!inRegion(user, leaderA) && seen.insert(user).second)
          worklist.push_back(user);
      }
    }
    return false;
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    regions = {};
    int64_t merged = 0, refused = 0;
    SmallVector<Operation *> annotated;
    for (Operation &op : func.getBody().getOps()) {
      auto target = op.getAttrOfType<StringAttr>(kTargetAttr);
      if (!target)
        continue;
      annotated.push_back(&op);
      regions.insert(&op);
      for (Value v : op.getOperands()) {
        Operation *def = v.getDefiningOp();
        if (!def || !regions.contains(def) || def->getAttr(kTargetAttr) != target ||
            regions.isEquivalent(def, &op))
          continue;
        if (reachesThroughOutside(def, &op) || reachesThroughOutside(&op, def)) {
          ++refused;
          continue;
        }
        regions.unionSets(def, &op);
        ++merged;
      }
    }
    // Number the regions in order of their first op.
    DenseMap<Operation *, int64_t> ids;
    OpBuilder b(&getContext());
    for (Operation *op : annotated) {
      Operation *leader = regions.getLeaderValue(op);
      auto [it, inserted] = ids.try_emplace(leader, ids.size());
      op->setAttr(kRegionAttr, b.getI64IntegerAttr(it->second));
    }
    recordPassStat(getArgument(), "regions", ids.size());
    recordPassStat(getArgument(), "merged", merged);
    recordPassStat(getArgument(), "cycles-avoided", refused);
  }

  llvm::EquivalenceClasses<Operation *> regions;
};
} // namespace
