//===- PartitionGraph.cpp - target regions into functions of their own ----===//
//
// TVM's PartitionGraph: each region of ops annotated for one target becomes
// a function marked with the target (TVM's `Compiler` attribute), called
// where the region was. Constants are copied in (bind_constants). The
// region's ops need not be contiguous in the block: the call goes where
// the last one was, and the block is sorted topologically afterwards, which
// moves the ops that read an earlier member's result behind the call
// (MergeCompilerRegions keeps regions free of cycles, so such an order
// exists).
//
//===----------------------------------------------------------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"
#include "dlc/Transforms/TargetDescription.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

namespace dlc {
#define GEN_PASS_DEF_PARTITIONGRAPHPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {
struct PartitionGraphPass : dlc::impl::PartitionGraphPassBase<PartitionGraphPass> {
  using PartitionGraphPassBase::PartitionGraphPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (func::FuncOp func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal() || func->hasAttr(kCompilerAttr))
        continue;
      // Regions in order of their first op; an annotated op without a
      // region id is a region of its own.
      llvm::MapVector<std::pair<StringAttr, int64_t>, SmallVector<Operation *>> groups;
      int64_t lone = 0;
      for (Operation &op : func.getBody().getOps()) {
        auto target = op.getAttrOfType<StringAttr>(kTargetAttr);
        if (!target)
          continue;
        auto region = op.getAttrOfType<IntegerAttr>(kRegionAttr);
        groups[{target, region ? region.getInt() : --lone}].push_back(&op);
      }
      auto backends = func->getAttrOfType<DictionaryAttr>(kTargetBackendsAttr);
      for (auto [k, group] : llvm::enumerate(groups)) {
        StringRef target = group.first.first.getValue();
        // The backend AnnotateTarget read from the target's description.
        auto backend = backends ? backends.getAs<StringAttr>(target) : StringAttr();
        std::string name = (func.getSymName() + "_" + target + "_" + Twine(k)).str();
        outline(func, name, target, backend ? backend.getValue() : target, group.second,
                symbols);
      }
      func->removeAttr(kTargetBackendsAttr);
      if (!groups.empty() && !sortTopologically(&func.getBody().front())) {
        func.emitError("graph-partition-graph: the regions of @")
            << func.getSymName() << " form a cycle; run graph-merge-compiler-regions to form them";
        return signalPassFailure();
      }
    }
    recordPassStat(getArgument(), "partitions", partitions);
    recordPassStat(getArgument(), "ops", outlinedOps);
    recordPassStat(getArgument(), "constants", constants);
  }

  /// Outlines `ops` (in block order) into a function `name` for `target`.
  void outline(func::FuncOp parent, StringRef name, StringRef target, StringRef backend,
               ArrayRef<Operation *> ops, SymbolTable &symbols) {
    MLIRContext *ctx = parent.getContext();
    llvm::SmallPtrSet<Operation *, 16> inRegion(ops.begin(), ops.end());
    SmallVector<Value> inputs, outputs;
    llvm::SetVector<Operation *> bound; // constants copied in
    for (Operation *op : ops)
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (def && inRegion.contains(def))
          continue;
        if (def && isa<ConstantOp>(def))
          bound.insert(def);
        else if (!llvm::is_contained(inputs, v))
          inputs.push_back(v);
      }
    for (Operation *op : ops)
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(), [&](Operation *u) { return !inRegion.contains(u); }))
          outputs.push_back(r);
    if (outputs.empty()) {
      // Dead: nothing to call; leave it for DeadCodeElimination.
      for (Operation *op : ops) {
        op->removeAttr(kTargetAttr);
        op->removeAttr(kRegionAttr);
      }
      return;
    }

    OpBuilder b(ctx);
    b.setInsertionPointToEnd(cast<ModuleOp>(parent->getParentOp()).getBody());
    auto type = FunctionType::get(ctx, ValueRange(inputs).getTypes(),
                                  ValueRange(outputs).getTypes());
    auto func = func::FuncOp::create(b, ops.front()->getLoc(), name, type);
    func.setPrivate();
    func->setAttr(kCompilerAttr, b.getStringAttr(target));
    func->setAttr(kBackendAttr, b.getStringAttr(backend));
    symbols.insert(func);
    Block *body = func.addEntryBlock();
    IRMapping map;
    for (auto [v, arg] : llvm::zip(inputs, body->getArguments()))
      map.map(v, arg);
    b.setInsertionPointToStart(body);
    for (Operation *c : bound)
      b.clone(*c, map);
    for (Operation *op : ops) {
      Operation *copy = b.clone(*op, map);
      copy->removeAttr(kTargetAttr);
      copy->removeAttr(kRegionAttr);
    }
    SmallVector<Value> results;
    for (Value v : outputs)
      results.push_back(map.lookup(v));
    func::ReturnOp::create(b, func.getLoc(), results);

    b.setInsertionPoint(ops.back());
    auto call = func::CallOp::create(b, ops.back()->getLoc(), func, inputs);
    for (auto [v, r] : llvm::zip(outputs, call.getResults()))
      v.replaceUsesWithIf(r, [&](OpOperand &use) { return !inRegion.contains(use.getOwner()); });
    for (Operation *op : llvm::reverse(ops))
      op->erase();
    for (Operation *c : bound)
      if (c->use_empty())
        c->erase();
    ++partitions;
    outlinedOps += ops.size();
    constants += bound.size();
  }

  int64_t partitions = 0, outlinedOps = 0, constants = 0;
};
} // namespace
