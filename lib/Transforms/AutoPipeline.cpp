//===- AutoPipeline.cpp - the pipeline chosen from the architecture --------===//
#include "dlc/Transforms/AutoPipeline.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"
#include "dlc/Transforms/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "dlc/Transforms/PassLedger.h"

namespace dlc {
#define GEN_PASS_DEF_AUTOPIPELINEPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

/// The graph ops present in `module`, by mnemonic.
static llvm::StringSet<> presentOps(ModuleOp module) {
  llvm::StringSet<> ops;
  module.walk([&](Operation *op) {
    if (isa_and_nonnull<graph::GraphDialect>(op->getDialect()))
      ops.insert(op->getName().stripDialect());
  });
  return ops;
}

AutoPipeline dlc::chooseAutoPipeline(ModuleOp module, const ClassRules &rules,
                                     llvm::ArrayRef<std::string> disabled,
                                     llvm::ArrayRef<std::string> required) {
  AutoPipeline p;
  p.classification = classify(computeFeatures(module), rules);
  std::vector<std::string> tags = p.classification.tags();
  std::string classNames = llvm::join(tags, ", ");
  llvm::StringSet<> present = presentOps(module);
  std::vector<std::string> chosen;
  for (const OrderStep &step : passOrder()) {
    llvm::SmallVector<llvm::StringRef> names(step.sequential.begin(), step.sequential.end());
    if (names.empty())
      names.push_back(step.name);
    for (llvm::StringRef name : names) {
      const CatalogueEntry &e = *lookupPass(name);
      AutoDecision d{name.str(), false, ""};
      bool inO3 = step.inLevels && e.optLevel <= 3;
      llvm::SmallVector<std::string> classesOf;
      for (const std::string &t : tags)
        if (e.inClass(t))
          classesOf.push_back(t);
      llvm::SmallVector<llvm::StringRef> anchors = e.anchorOps();
      bool anchored = e.anchors.empty() ||
                      llvm::any_of(anchors, [&](llvm::StringRef op) { return present.contains(op); });
      bool dormant = !tags.empty() && llvm::all_of(tags, [&](const std::string &t) {
        return e.dormantFor(t);
      });
      bool noGain = !tags.empty() && llvm::all_of(tags, [&](const std::string &t) {
        return e.noGainFor(t);
      });
      if (llvm::is_contained(disabled, name)) {
        d.reason = "disabled by the user";
      } else if (llvm::is_contained(required, name)) {
        d.chosen = true;
        d.reason = "required by the user";
      } else if (tags.empty() && !inO3) {
        d.reason = "not in O3 (no class detected: O3's choice)";
      } else if (!inO3 && classesOf.empty()) {
        d.reason = "not in O3 nor in the passes of " + (classNames.empty() ? "any class" : classNames);
      } else if (e.neverChanges()) {
        d.reason = "never changes dlc's IR";
      } else if (!anchored) {
        d.reason = "no " + llvm::join(anchors, " or ") + " in the graph";
      } else if (dormant) {
        d.reason = "dormant on " + classNames + " models (dlc's measurements, docs/PassEffects.md)";
      } else if (noGain && !inO3) {
        d.reason = "no speed-up measured on " + classNames +
                   " models for its compile time (bench/auto_vs_o3.py)";
      } else {
        d.chosen = true;
        d.reason = inO3 ? "O3" : "";
        if (!classesOf.empty())
          d.reason += (d.reason.empty() ? "" : "; ") + std::string("class ") +
                      llvm::join(classesOf, ", ") + " (CF'22)";
      }
      if (d.chosen) {
        chosen.push_back(name == "FuseOps" ? "FuseOps{fuse-opt-level=3}" : name.str());
        for (llvm::StringRef op : e.createdOps())
          present.insert(op);
      }
      p.decisions.push_back(std::move(d));
    }
  }
  p.spec = chosen.empty() ? "none" : "list:" + llvm::join(chosen, ",");
  return p;
}

void dlc::printAutoPipeline(const AutoPipeline &p, llvm::raw_ostream &os) {
  const Classification &c = p.classification;
  os << "auto: " << (c.general() ? "general" : llvm::join(c.detected, " + "))
     << " (confidence " << llvm::format("%.2f", c.confidence) << "; `dlc-opt --dlc-classify` "
     << "shows the evidence)\n";
  for (const AutoDecision &d : p.decisions)
    os << "  " << (d.chosen ? "run  " : "skip ") << d.pass << ": " << d.reason << "\n";
  os << "auto: " << p.spec << "\n";
}

namespace {
struct AutoPipelinePass : dlc::impl::AutoPipelinePassBase<AutoPipelinePass> {
  using AutoPipelinePassBase::AutoPipelinePassBase;

  void runOnOperation() override {
    std::string path = classes.empty() ? defaultClassRulesPath() : classes.getValue();
    llvm::Expected<ClassRules> rules = loadClassRules(path);
    if (!rules) {
      getOperation().emitError() << "graph-auto-pipeline: " << llvm::toString(rules.takeError());
      return signalPassFailure();
    }
    for (const std::string &name : llvm::concat<const std::string>(disable, require))
      if (!lookupPass(name)) {
        getOperation().emitError() << "graph-auto-pipeline: unknown pass '" << name << "'";
        return signalPassFailure();
      }
    std::vector<std::string> off, on;
    for (const std::string &n : disable)
      off.push_back(lookupPass(n)->tvmName.str());
    for (const std::string &n : require)
      on.push_back(lookupPass(n)->tvmName.str());
    AutoPipeline p = chooseAutoPipeline(getOperation(), *rules, off, on);
    if (explain)
      printAutoPipeline(p, llvm::errs());
    recordPassStat(getArgument(), "passes-chosen",
                   llvm::count_if(p.decisions, [](const AutoDecision &d) { return d.chosen; }));
    OpPassManager pm("builtin.module");
    if (llvm::Error e = buildPipeline(p.spec, pm)) {
      getOperation().emitError() << "graph-auto-pipeline: " << llvm::toString(std::move(e));
      return signalPassFailure();
    }
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};
} // namespace
