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

namespace {
/// What the classes `tags` say of one pass.
struct ClassView {
  bool inO3 = false;
  llvm::SmallVector<std::string> classesOf; ///< the tags whose CF'22 passes it is in
  llvm::SmallVector<std::string> measuredOf; ///< the tags dlc measured it faster on (options)
  bool dormant = false, noGain = false;     ///< on every one of the tags
};
} // namespace

static ClassView viewOf(const CatalogueEntry &e, bool inLevels, llvm::ArrayRef<std::string> tags) {
  ClassView v;
  v.inO3 = inLevels && e.optLevel <= 3;
  for (const std::string &t : tags)
    if (e.inClass(t))
      v.classesOf.push_back(t);
  // In the registry's order: the first with options is the one taken.
  for (llvm::StringRef t : e.measuredClasses())
    if (llvm::is_contained(tags, t))
      v.measuredOf.push_back(t.str());
  v.dormant = !tags.empty() && llvm::all_of(tags, [&](const std::string &t) {
    return e.dormantFor(t);
  });
  v.noGain = !tags.empty() && llvm::all_of(tags, [&](const std::string &t) {
    return e.noGainFor(t);
  });
  return v;
}

/// Why the classes leave `e` out ("" when they keep it): neither in O3 nor
/// in their passes, or never changing dlc's IR.
static std::string outsideClasses(const CatalogueEntry &e, const ClassView &v,
                                  llvm::StringRef classNames) {
  if (classNames.empty() && !v.inO3)
    return "not in O3 (no class detected: O3's choice)";
  if (!v.inO3 && v.classesOf.empty() && v.measuredOf.empty())
    return "not in O3 nor in the passes of " +
           (classNames.empty() ? std::string("any class") : classNames.str());
  if (e.neverChanges())
    return "never changes dlc's IR";
  return "";
}

static std::string dormantReason(llvm::StringRef classNames) {
  return "dormant on " + classNames.str() + " models (dlc's measurements, docs/PassEffects.md)";
}

/// Removes the option `option` ("b=2") from `spec` ("Pass{a=1 b=2}");
/// returns whether `spec` had it.
static bool dropOption(std::string &spec, llvm::StringRef option) {
  llvm::SmallVector<llvm::StringRef> options = passItemOptions(spec);
  if (!llvm::is_contained(options, option))
    return false;
  llvm::erase(options, option);
  llvm::StringRef name = llvm::StringRef(spec).split('{').first;
  spec = options.empty() ? name.str() : (name + "{" + llvm::join(options, " ") + "}").str();
  return true;
}

/// Why `spec`, a measured choice of the class, changes for a graph
/// computed in `mixed` on this host (and `spec` changed), or nothing.
/// Winograd's products stay f32 under ToMixedPrecision (its transforms lose
/// too much in bf16), while NHWC im2col products of bf16 are dot products
/// on a CPU with AVX512-BF16: ResNet-50 in `auto;mixed=bf16` ran in 0.79 of
/// its time with Winograd (0.583 against 0.737 of O3's, README, "Mixed
/// precision").
static std::string forPrecision(std::string &spec, llvm::StringRef mixed) {
  if (!takesBF16Dots(mixed) || !dropOption(spec, "winograd=true"))
    return "";
  return "not winograd=true: mixed=bf16 on a CPU with AVX512-BF16, where im2col products of "
         "bf16 are dot products and Winograd's stay f32";
}

static std::string noGainReason(llvm::StringRef classNames) {
  return "no speed-up measured on " + classNames.str() +
         " models for its compile time (bench/auto_vs_o3.py)";
}

PassSpace dlc::classPassSpace(llvm::ArrayRef<std::string> tags, llvm::StringRef mixed) {
  PassSpace space;
  std::string classNames = llvm::join(tags, ", ");
  for (const CatalogueEntry &e : passCatalogue()) {
    bool inLevels = false, inOrder = false;
    for (const OrderStep &step : passOrder())
      if (step.name == e.tvmName || llvm::is_contained(step.sequential, e.tvmName)) {
        inOrder = true;
        inLevels |= step.inLevels;
      }
    ClassView v = viewOf(e, inLevels, tags);
    std::string why = !inOrder ? "not in the optimization order (a pass for the user's intent)"
                               : outsideClasses(e, v, classNames);
    if (why.empty() && v.dormant)
      why = dormantReason(classNames);
    // A pass measured without gain for its compile time can improve no
    // objective of the search: latency, compile time or a mix of the two.
    if (why.empty() && v.noGain)
      why = noGainReason(classNames);
    if (why.empty()) {
      std::string spec = e.specFor(tags);
      forPrecision(spec, mixed);
      space.passes.push_back(spec);
    } else
      space.excluded.push_back({e.tvmName.str(), why});
  }
  // In the optimization order.
  std::vector<std::string> ordered;
  for (const OrderStep &step : passOrder()) {
    llvm::SmallVector<llvm::StringRef> names(step.sequential.begin(), step.sequential.end());
    if (names.empty())
      names.push_back(step.name);
    for (llvm::StringRef name : names)
      for (const std::string &p : space.passes)
        if (lookupPass(p)->tvmName == name && !llvm::is_contained(ordered, p))
          ordered.push_back(p);
  }
  space.passes = std::move(ordered);
  return space;
}

AutoPipeline dlc::chooseAutoPipeline(ModuleOp module, const ClassRules &rules,
                                     llvm::ArrayRef<std::string> disabled,
                                     llvm::ArrayRef<std::string> required,
                                     llvm::StringRef mixed, llvm::StringRef target) {
  // dlc's own measurements (CatalogueEntry::measuredOn) are the CPU's.
  bool measured = target == "cpu";
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
      ClassView v = viewOf(e, step.inLevels, tags);
      llvm::SmallVector<std::string> unmeasured;
      if (!measured)
        std::swap(unmeasured, v.measuredOf);
      llvm::SmallVector<llvm::StringRef> anchors = e.anchorOps();
      bool anchored = e.anchors.empty() ||
                      llvm::any_of(anchors, [&](llvm::StringRef op) { return present.contains(op); });
      std::string outside = outsideClasses(e, v, classNames);
      // Outside the classes but for dlc's CPU measurements.
      if (!outside.empty() && !unmeasured.empty() && v.measuredOf.empty())
        outside = "measured faster on the CPU for class " + llvm::join(unmeasured, ", ") +
                  ", not on " + target.str();
      if (llvm::is_contained(disabled, name)) {
        d.reason = "disabled by the user";
      } else if (llvm::is_contained(required, name)) {
        d.chosen = true;
        d.reason = "required by the user";
      } else if (!outside.empty()) {
        d.reason = outside;
      } else if (!anchored) {
        d.reason = "no " + llvm::join(anchors, " or ") + " in the graph";
      } else if (v.dormant) {
        d.reason = dormantReason(classNames);
      } else if (v.noGain) {
        d.reason = noGainReason(classNames);
      } else {
        d.chosen = true;
        d.reason = v.inO3 ? "O3" : "";
        if (!v.classesOf.empty())
          d.reason += (d.reason.empty() ? "" : "; ") + std::string("class ") +
                      llvm::join(v.classesOf, ", ") + " (CF'22)";
        for (const std::string &t : v.measuredOf) {
          llvm::StringRef options = e.optionsFor(t);
          d.reason += std::string(d.reason.empty() ? "" : "; ") + "class " + t + ", " +
                      (options.empty() ? "" : options.str() + ", ") + "measured faster (dlc)";
        }
      }
      if (d.chosen)
        for (const std::string &t : unmeasured) {
          llvm::StringRef options = e.optionsFor(t);
          d.reason += "; " +
                      (options.empty() ? std::string("measured faster")
                                       : "not " + options.str() + ", measured") +
                      " on the CPU for class " + t + ", not on " + target.str();
        }
      std::string spec = name == "FuseOps" ? "FuseOps{fuse-opt-level=3}"
                         : measured        ? e.specFor(tags)
                                           : e.tvmName.str();
      if (d.chosen && measured)
        if (std::string why = forPrecision(spec, mixed); !why.empty())
          d.reason += "; " + why;
      if (d.chosen && !chosen.empty() && chosen.back() == spec) {
        // The passes rewrite to a fixed point: a second run in a row finds
        // nothing left to do.
        d.chosen = false;
        d.reason = "runs just before it: nothing left to do";
      }
      if (d.chosen) {
        chosen.push_back(spec);
        for (llvm::StringRef op : e.createdOps())
          present.insert(op);
      }
      p.decisions.push_back(std::move(d));
    }
  }
  chosen = withTargetLayouts(std::move(chosen), target);
  if (!mixed.empty()) {
    chosen = withMixedPrecision(std::move(chosen), mixed, target);
    p.decisions.push_back(
        {"ToMixedPrecision", true,
         "mixed=" + mixed.str() + ", before FuseOps" +
             (target == "cpu" ? "; grouped convolutions stay f32 (the CPU computes them widened)"
                              : "")});
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
    if (!mixed.empty() && !isMixedPrecisionType(mixed)) {
      getOperation().emitError() << "graph-auto-pipeline: mixed=" << mixed
                                 << ": expected f16 or bf16";
      return signalPassFailure();
    }
    if (target != "cpu" && target != "cuda") {
      getOperation().emitError() << "graph-auto-pipeline: target=" << target
                                 << ": expected cpu or cuda";
      return signalPassFailure();
    }
    AutoPipeline p = chooseAutoPipeline(getOperation(), *rules, off, on, mixed, target);
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
