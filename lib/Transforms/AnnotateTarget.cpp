//===- AnnotateTarget.cpp - mark the ops an external target takes ---------===//
//
// TVM's AnnotateTarget: each op that a target description lists (by op
// mnemonic, or a graph.composite by name) is marked with the first target
// in priority order that takes it. TVM wraps arguments in compiler_begin /
// compiler_end ops; dlc's graph has one block per function, so an attribute
// on the op says the same.
//
//===----------------------------------------------------------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"
#include "dlc/Transforms/TargetDescription.h"

namespace dlc {
#define GEN_PASS_DEF_ANNOTATETARGETPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {
struct AnnotateTargetPass : dlc::impl::AnnotateTargetPassBase<AnnotateTargetPass> {
  using AnnotateTargetPassBase::AnnotateTargetPassBase;

  LogicalResult initialize(MLIRContext *ctx) override {
    auto fail = [&](const Twine &why) {
      return emitError(UnknownLoc::get(ctx)) << "graph-annotate-target: " << why;
    };
    if (targets.empty())
      return fail("no targets given (targets=NAME,... : builtin names or description files)");
    descriptions.clear();
    for (const std::string &t : targets) {
      llvm::Expected<TargetDescription> loaded = TargetDescription::load(t);
      if (!loaded)
        return fail(llvm::toString(loaded.takeError()));
      if (loaded->ops.empty() && loaded->composites.empty())
        return fail("target description '" + t + "' (target " + loaded->name +
                    ") lists no ops or composites to annotate");
      for (const auto &op : loaded->ops) {
        StringRef name = op.getKey();
        if (!isComputeOpName(name, ctx))
          return fail("target description '" + t + "': unknown graph op '" + name + "'");
      }
      descriptions.push_back(std::move(*loaded));
    }
    return success();
  }

  /// The first target that takes `op`, if any.
  const TargetDescription *targetOf(Operation *op) const {
    for (const TargetDescription &t : descriptions) {
      if (auto composite = dyn_cast<CompositeOp>(op)) {
        if (t.composites.contains(composite.getName()))
          return &t;
        continue;
      }
      if (t.ops.contains(op->getName().stripDialect()))
        return &t;
    }
    return nullptr;
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    llvm::StringMap<int64_t> perTarget;
    int64_t annotated = 0, unannotated = 0;
    for (Operation &op : func.getBody().getOps()) {
      if (!isa<GraphDialect>(op.getDialect()) || isa<ConstantOp, FusedOp, YieldOp>(op))
        continue;
      const TargetDescription *target = targetOf(&op);
      if (!target) {
        ++unannotated;
        continue;
      }
      op.setAttr(kTargetAttr, StringAttr::get(&getContext(), target->name));
      ++annotated;
      ++perTarget[target->name];
    }
    recordPassStat(getArgument(), "annotated", annotated);
    recordPassStat(getArgument(), "default", unannotated);
    SmallVector<NamedAttribute> backends;
    for (const TargetDescription &t : descriptions) {
      recordPassStat(getArgument(), t.name, perTarget.lookup(t.name));
      if (perTarget.lookup(t.name))
        backends.emplace_back(StringAttr::get(&getContext(), t.name),
                              StringAttr::get(&getContext(), t.backend));
    }
    if (!backends.empty())
      func->setAttr(kTargetBackendsAttr, DictionaryAttr::get(&getContext(), backends));
  }

  std::vector<TargetDescription> descriptions;
};
} // namespace
