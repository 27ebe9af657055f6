//===- Pipelines.cpp - pass catalogue, optimization levels, pipelines ------===//
#include "dlc/Transforms/Pipelines.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <mutex>

using namespace dlc;

/// Every pass, with TVM's registered opt level (reference section 3).
static const CatalogueEntry kCatalogue[] = {
    {"SimplifyInference", "graph-simplify-inference", 0, false},
    {"FoldConstant", "graph-fold-constant", 2, false},
    {"BackwardFoldScaleAxis", "graph-backward-fold-scale-axis", 3, false},
    {"ForwardFoldScaleAxis", "graph-forward-fold-scale-axis", 3, false},
    {"FoldScaleAxis", "graph-fold-scale-axis", 0, false},
    {"FoldExplicitPadding", "graph-fold-explicit-padding", 0, false},
    {"SimplifyExpr", "graph-simplify-expr", 0, false},
    {"EliminateCommonSubexpr", "graph-eliminate-common-subexpr", 3, false},
    {"DeadCodeElimination", "graph-dead-code-elimination", 1, false},
    {"RemoveUnusedFunctions", "graph-remove-unused-functions", 1, true},
    {"CanonicalizeOps", "graph-canonicalize-ops", 3, false},
    {"CanonicalizeCast", "graph-canonicalize-cast", 3, false},
    {"DynamicToStatic", "graph-dynamic-to-static", 2, false},
    {"AnnotateSpans", "graph-annotate-spans", 0, true},
    {"FuseOps", "graph-fuse-ops", 0, false},
    {"DefuseOps", "graph-defuse-ops", 3, false},
    {"CombineParallelConv2D", "graph-combine-parallel-conv2d", 4, false},
    {"CombineParallelDense", "graph-combine-parallel-dense", 4, false},
    {"CombineParallelBatchMatmul", "graph-combine-parallel-batch-matmul", 4, false},
    {"BatchingOps", "graph-batching-ops", 0, false},
    {"SimplifyFCTranspose", "graph-simplify-fc-transpose", 4, false},
    {"FastMath", "graph-fast-math", 4, false},
    {"MergeComposite", "graph-merge-composite", 0, false},
    {"AlterOpLayout", "graph-alter-op-layout", 3, false},
    {"ConvertLayout", "graph-convert-layout", 3, false},
    {"AnnotateTarget", "graph-annotate-target", 0, false},
    {"MergeCompilerRegions", "graph-merge-compiler-regions", 0, false},
    {"PartitionGraph", "graph-partition-graph", 0, true},
    {"ToMixedPrecision", "graph-to-mixed-precision", 0, false},
    {"FakeQuantizationToInteger", "graph-fake-quantization-to-integer", 0, false},
    // TVM passes between let-binding (A-normal) and dataflow (graph normal)
    // form, and training gradients: dlc's graph is SSA dataflow for
    // inference, so they have nothing to do; accepted so that published
    // sequences run verbatim.
    {"ToANormalForm", "graph-ssa-form", 1, true},
    {"ToGraphNormalForm", "graph-ssa-form", 1, true},
    {"FirstOrderGradient", "graph-ssa-form", 0, true},
};

/// TVM's relay.build sequence (GetPassPrefix, then FuseOps), restricted to
/// the passes dlc has. A Sequential's passes are gated one by one.
struct LevelStep {
  llvm::StringRef name;
  llvm::ArrayRef<llvm::StringRef> sequential; ///< empty: the pass itself
};
static const llvm::StringRef kFoldScaleAxisSeq[] = {
    "BackwardFoldScaleAxis", "ForwardFoldScaleAxis", "FoldConstant"};
static const LevelStep kLevelSequence[] = {
    {"RemoveUnusedFunctions", {}},
    {"SimplifyInference", {}},
    {"EliminateCommonSubexpr", {}},
    {"CombineParallelConv2D", {}},
    {"CombineParallelDense", {}},
    {"CombineParallelBatchMatmul", {}},
    {"FoldConstant", {}},
    {"FoldScaleAxis", kFoldScaleAxisSeq},
    {"SimplifyExpr", {}},
    {"CanonicalizeCast", {}},
    {"CanonicalizeOps", {}},
    {"AlterOpLayout", {}},
    {"FastMath", {}},
    {"FoldConstant", {}},
    {"FuseOps", {}},
};

llvm::ArrayRef<CatalogueEntry> dlc::passCatalogue() { return kCatalogue; }

/// Names TVM registered differently from its class names.
static llvm::StringRef canonicalName(llvm::StringRef name) {
  return name == "CombineParallelConv2d" ? "CombineParallelConv2D" : name;
}

const CatalogueEntry *dlc::lookupPass(llvm::StringRef name) {
  name = canonicalName(name);
  for (const CatalogueEntry &e : kCatalogue)
    if (e.tvmName == name || e.flag == name)
      return &e;
  return nullptr;
}

void dlc::registerPasses() {
  static std::once_flag once;
  std::call_once(once, [] { registerDLCTransformsPasses(); });
}

llvm::StringRef dlc::defaultPipelineSpec() { return "O3"; }

static std::string knownPasses() {
  std::string known;
  for (const CatalogueEntry &e : kCatalogue)
    known += (known.empty() ? "" : ", ") + e.tvmName.str();
  return known;
}

/// Splits `s` at commas outside braces (pass options are `Name{a=1,b=2}`).
static llvm::SmallVector<llvm::StringRef> splitList(llvm::StringRef s) {
  llvm::SmallVector<llvm::StringRef> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && s[i] == '{')
      ++depth;
    else if (i < s.size() && s[i] == '}')
      --depth;
    else if (i == s.size() || (s[i] == ',' && depth == 0)) {
      llvm::StringRef part = s.slice(start, i).trim();
      if (!part.empty())
        parts.push_back(part);
      start = i + 1;
    }
  }
  return parts;
}

/// The pipeline element of one catalogue pass, with `options` (`a=1 b=2`).
static std::string element(const CatalogueEntry &e, llvm::StringRef options = "") {
  std::string pass = e.flag.str();
  if (e.flag == "graph-ssa-form")
    pass += "{tvm-name=" + e.tvmName.str() + (options.empty() ? "" : " " + options.str()) + "}";
  else if (!options.empty())
    pass += "{" + options.str() + "}";
  return e.modulePass ? pass : "func.func(" + pass + ")";
}

/// The elements of `list:A,B{opt=1 other=2},...`, verbatim.
static llvm::Expected<std::vector<std::string>> listElements(llvm::StringRef list) {
  std::vector<std::string> parts;
  for (llvm::StringRef item : splitList(list)) {
    auto [name, options] = item.split('{');
    name = name.trim();
    const CatalogueEntry *entry = lookupPass(name);
    if (!entry)
      return llvm::createStringError("unknown pass '" + name.str() +
                                     "' in the pipeline (known: " + knownPasses() + ")");
    if (!options.empty() && !options.consume_back("}"))
      return llvm::createStringError("pass '" + name.str() + "': unterminated '{' in '" +
                                     item.str() + "'");
    // Options as mlir-opt takes them: space-separated, lists comma-separated.
    parts.push_back(element(*entry, options.trim()));
  }
  return parts;
}

/// TVM's PassContext::PassEnabled: disabled, then required, then the level.
static bool passEnabled(llvm::StringRef name, int level, const PipelineSpec &spec) {
  if (llvm::is_contained(spec.disabled, name))
    return false;
  if (llvm::is_contained(spec.required, name))
    return true;
  return level >= lookupPass(name)->optLevel;
}

/// The elements of optimization level `level`.
static llvm::Expected<std::vector<std::string>> levelElements(int level,
                                                              const PipelineSpec &spec) {
  // Names must exist and be part of the sequence: anything else would
  // silently do nothing.
  for (const std::vector<std::string> *names : {&spec.disabled, &spec.required})
    for (const std::string &name : *names) {
      if (!lookupPass(name) || lookupPass(name)->tvmName != name)
        return llvm::createStringError("unknown pass '" + name +
                                       "' (expected a TVM name; known: " + knownPasses() + ")");
      bool inSequence = llvm::any_of(kLevelSequence, [&](const LevelStep &s) {
        return s.name == name || llvm::is_contained(s.sequential, name);
      });
      if (!inSequence)
        return llvm::createStringError(
            "pass '" + name + "' is not part of the O0..O4 sequence, so disabling or "
            "requiring it has no effect; run it with list:...");
    }
  std::vector<std::string> parts;
  for (const LevelStep &step : kLevelSequence) {
    if (step.sequential.empty()) {
      if (!passEnabled(step.name, level, spec))
        continue;
      const CatalogueEntry &e = *lookupPass(step.name);
      // FuseOps fuses from level 1 on (TVM: opt_level 0 makes singletons).
      parts.push_back(step.name == "FuseOps"
                          ? element(e, "fuse-opt-level=" + std::to_string(level))
                          : element(e));
      continue;
    }
    if (llvm::is_contained(spec.disabled, step.name))
      continue;
    for (llvm::StringRef name : step.sequential)
      if (passEnabled(name, level, spec))
        parts.push_back(element(*lookupPass(name)));
  }
  return parts;
}

llvm::Expected<PipelineSpec> dlc::parsePipelineSpec(llvm::StringRef text) {
  PipelineSpec spec;
  llvm::SmallVector<llvm::StringRef> fields;
  text.split(fields, ';');
  spec.base = fields.front().trim().str();
  if (spec.base == "default")
    spec.base = defaultPipelineSpec().str();
  for (llvm::StringRef field : llvm::drop_begin(fields)) {
    auto [key, value] = field.trim().split('=');
    std::vector<std::string> *names = key == "disable"   ? &spec.disabled
                                      : key == "require" ? &spec.required
                                                         : nullptr;
    if (!names)
      return llvm::createStringError("unknown pipeline field '" + key.str() +
                                     "' (expected disable=A,B or require=A,B)");
    for (llvm::StringRef name : splitList(value))
      names->push_back(canonicalName(name).str());
  }
  return spec;
}

std::string dlc::PipelineSpec::str() const {
  std::string s = base;
  if (!disabled.empty())
    s += ";disable=" + llvm::join(disabled, ",");
  if (!required.empty())
    s += ";require=" + llvm::join(required, ",");
  return s;
}

/// The passes of `text` as comma-separated pipeline elements.
static llvm::Expected<std::string> pipelineElements(llvm::StringRef text) {
  llvm::Expected<PipelineSpec> spec = parsePipelineSpec(text);
  if (!spec)
    return spec.takeError();
  llvm::StringRef base = spec->base;
  llvm::Expected<std::vector<std::string>> parts = std::vector<std::string>();
  int level = -1;
  if (base.size() == 2 && base[0] == 'O' && base[1] >= '0' && base[1] <= '4') {
    level = base[1] - '0';
    parts = levelElements(level, *spec);
  } else if (!spec->disabled.empty() || !spec->required.empty()) {
    return llvm::createStringError("disable= and require= apply to O0..O4, not to '" +
                                   base.str() + "'");
  } else if (base.consume_front("list:")) {
    parts = listElements(base);
  } else if (base != "none") {
    return llvm::createStringError("unknown pipeline '" + base.str() +
                                   "': expected O0, O1, O2, O3, O4, default (O3), none or "
                                   "list:PassA,PassB,...");
  }
  if (!parts)
    return parts.takeError();
  return llvm::join(*parts, ",");
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
                                   "': " + llvm::StringRef(os.str()).trim().str());
  return llvm::Error::success();
}

llvm::Expected<std::string> dlc::pipelineString(llvm::StringRef spec) {
  // Built once to check pass options too.
  mlir::OpPassManager pm("builtin.module");
  if (llvm::Error e = buildPipeline(spec, pm))
    return std::move(e);
  return "builtin.module(" + *pipelineElements(spec) + ")";
}
