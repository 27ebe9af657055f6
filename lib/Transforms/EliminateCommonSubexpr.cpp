//===- EliminateCommonSubexpr.cpp - merge identical ops --------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace dlc {
#define GEN_PASS_DEF_ELIMINATECOMMONSUBEXPRPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using dlc::recordPassStat;
using namespace dlc;
using namespace dlc::graph;

/// An operand's identity for matching: the value itself, or for a scalar
/// constant its payload (so two equal scalar constants match, as in TVM).
static const void *operandKey(Value v) {
  if (auto c = v.getDefiningOp<ConstantOp>())
    if (c.getType().getNumElements() == 1)
      return c.getValue().getAsOpaquePointer();
  return v.getAsOpaquePointer();
}

namespace {
struct EliminateCommonSubexprPass
    : dlc::impl::EliminateCommonSubexprPassBase<EliminateCommonSubexprPass> {
  void runOnOperation() override {
    // Same name, attributes, result types and operand keys.
    int64_t eliminated = 0;
    getOperation()->walk([&](Block *block) {
      std::map<std::string, SmallVector<Operation *>> buckets;
      for (Operation &op : llvm::make_early_inc_range(*block)) {
        if (op.getNumOperands() == 0 || op.getNumRegions() ||
            !isMemoryEffectFree(&op) || op.hasTrait<OpTrait::IsTerminator>())
          continue;
        // Bucket by name; compare fully within the bucket.
        auto &candidates = buckets[op.getName().getStringRef().str()];
        Operation *match = nullptr;
        for (Operation *prev : candidates) {
          if (prev->getAttrDictionary() != op.getAttrDictionary() ||
              prev->getResultTypes() != op.getResultTypes() ||
              prev->getNumOperands() != op.getNumOperands())
            continue;
          bool same = true;
          for (auto [a, b] : llvm::zip(prev->getOperands(), op.getOperands()))
            same &= operandKey(a) == operandKey(b);
          if (same) {
            match = prev;
            break;
          }
        }
        if (!match) {
          candidates.push_back(&op);
          continue;
        }
        op.replaceAllUsesWith(match);
        op.erase();
        ++eliminated;
      }
    });
    recordPassStat(getArgument(), "eliminated", eliminated);
  }
};
} // namespace
