//===- Pipelines.cpp - pass catalogue names and pipeline strings -----------===//
#include "dlc/Transforms/Pipelines.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"

#include <mutex>

using namespace dlc;

static const CatalogueEntry kCatalogue[] = {
    {"SimplifyInference", "graph-simplify-inference", false},
    {"FoldConstant", "graph-fold-constant", false},
    {"BackwardFoldScaleAxis", "graph-backward-fold-scale-axis", false},
    {"ForwardFoldScaleAxis", "graph-forward-fold-scale-axis", false},
    {"FoldScaleAxis", "graph-fold-scale-axis", false},
    {"FoldExplicitPadding", "graph-fold-explicit-padding", false},
    {"SimplifyExpr", "graph-simplify-expr", false},
    {"EliminateCommonSubexpr", "graph-eliminate-common-subexpr", false},
    {"DeadCodeElimination", "graph-dead-code-elimination", false},
    {"RemoveUnusedFunctions", "graph-remove-unused-functions", true},
    {"CanonicalizeOps", "graph-canonicalize-ops", false},
    {"CanonicalizeCast", "graph-canonicalize-cast", false},
    {"DynamicToStatic", "graph-dynamic-to-static", false},
    {"AnnotateSpans", "graph-annotate-spans", true},
};

llvm::ArrayRef<CatalogueEntry> dlc::passCatalogue() { return kCatalogue; }

void dlc::registerPasses() {
  static std::once_flag once;
  std::call_once(once, [] { registerDLCTransformsPasses(); });
}

llvm::StringRef dlc::defaultPipelineSpec() {
  // In TVM's order: constants are folded before scales are (FoldScaleAxis
  // needs the batch-norm scales as constants).
  return "list:SimplifyInference,FoldConstant,FoldScaleAxis,SimplifyExpr,"
         "EliminateCommonSubexpr,DeadCodeElimination";
}

/// The passes of `spec` as comma-separated pipeline elements.
static llvm::Expected<std::string> pipelineElements(llvm::StringRef spec) {
  if (spec == "default")
    spec = defaultPipelineSpec();
  if (spec == "none")
    return std::string();
  if (!spec.consume_front("list:"))
    return llvm::createStringError(
        "unknown pipeline '" + spec.str() +
        "': expected default, none or list:PassA,PassB,...");
  std::vector<std::string> parts;
  llvm::SmallVector<llvm::StringRef> names;
  spec.split(names, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef name : names) {
    name = name.trim();
    const CatalogueEntry *entry = nullptr;
    for (const CatalogueEntry &e : kCatalogue)
      if (e.tvmName == name || e.flag == name)
        entry = &e;
    if (!entry) {
      std::string known;
      for (const CatalogueEntry &e : kCatalogue)
        known += (known.empty() ? "" : ", ") + e.tvmName.str();
      return llvm::createStringError("unknown pass '" + name.str() +
                                     "' in the pipeline (known: " + known + ")");
    }
    parts.push_back(entry->modulePass ? entry->flag.str()
                                      : "func.func(" + entry->flag.str() + ")");
  }
  return llvm::join(parts, ",");
}

llvm::Expected<std::string> dlc::pipelineString(llvm::StringRef spec) {
  llvm::Expected<std::string> elements = pipelineElements(spec);
  if (!elements)
    return elements.takeError();
  return "builtin.module(" + *elements + ")";
}

llvm::Error dlc::buildPipeline(llvm::StringRef spec, mlir::OpPassManager &pm) {
  registerPasses();
  llvm::Expected<std::string> elements = pipelineElements(spec);
  if (!elements)
    return elements.takeError();
  std::string error;
  llvm::raw_string_ostream os(error);
  if (mlir::failed(mlir::parsePassPipeline(*elements, pm, os)))
    return llvm::createStringError("cannot build pipeline '" + spec.str() +
                                   "': " + os.str());
  return llvm::Error::success();
}
