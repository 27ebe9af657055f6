//===- Pipelines.cpp - pass catalogue, optimization levels, pipelines ------===//
#include "dlc/Transforms/Pipelines.h"
#include "dlc/Support/HostCPU.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <mutex>

using namespace dlc;

/// TVM's relay.build sequence (GetPassPrefix, then FuseOps), restricted to
/// the passes dlc has, which the levels gate; with the CF'22 class passes it
/// lacks at their places, which only the auto pipeline selects. A
/// Sequential's passes are gated one by one.
static const llvm::StringRef kFoldScaleAxisSeq[] = {
    "BackwardFoldScaleAxis", "ForwardFoldScaleAxis", "FoldConstant"};
static const OrderStep kOrder[] = {
    {"RemoveUnusedFunctions", {}, true},
    {"SimplifyInference", {}, true},
    {"EliminateCommonSubexpr", {}, true},
    {"CombineParallelConv2D", {}, true},
    {"CombineParallelDense", {}, true},
    {"CombineParallelBatchMatmul", {}, true},
    {"BatchingOps", {}, false},
    {"SimplifyFCTranspose", {}, false},
    {"FoldConstant", {}, true},
    {"FoldScaleAxis", kFoldScaleAxisSeq, true},
    {"SimplifyExpr", {}, true},
    {"FoldExplicitPadding", {}, false},
    {"CanonicalizeCast", {}, true},
    {"CanonicalizeOps", {}, true},
    {"AlterOpLayout", {}, true},
    {"FastMath", {}, true},
    {"FoldConstant", {}, true},
    {"DeadCodeElimination", {}, false},
    {"MergeComposite", {}, false},
    {"FuseOps", {}, true},
};

llvm::ArrayRef<OrderStep> dlc::passOrder() { return kOrder; }

void dlc::registerPasses() {
  static std::once_flag once;
  std::call_once(once, [] { registerDLCTransformsPasses(); });
}

llvm::StringRef dlc::defaultPipelineSpec() { return "O3"; }

bool dlc::isMixedPrecisionType(llvm::StringRef type) { return type == "f16" || type == "bf16"; }

bool dlc::takesBF16Dots(llvm::StringRef mixed, llvm::StringRef target) {
  return mixed == "bf16" && target == "cpu" && hostHasBF16Dots();
}

std::vector<std::string> dlc::withTargetLayouts(std::vector<std::string> passes,
                                                llvm::StringRef target) {
  if (target != "cpu")
    for (std::string &p : passes)
      if (p == "AlterOpLayout")
        p = "AlterOpLayout{target=" + target.str() + "}";
  return passes;
}

std::vector<std::string> dlc::withMixedPrecision(std::vector<std::string> passes,
                                                 llvm::StringRef type, llvm::StringRef target) {
  auto fuse = llvm::find_if(passes, [](llvm::StringRef p) { return p.starts_with("FuseOps"); });
  std::string grouped = target == "cpu" ? " grouped-f32=true" : "";
  passes.insert(fuse, {"ToMixedPrecision{type=" + type.str() + grouped +
                           " keep-orig-output-dtype=true}",
                       "FoldConstant"});
  return passes;
}

static std::string knownPasses() {
  std::string known;
  for (const CatalogueEntry &e : passCatalogue())
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

/// The passes of optimization level `level` for `target`, as `list:` items
/// (with `mixed=`'s).
static llvm::Expected<std::vector<std::string>> levelPasses(int level, const PipelineSpec &spec,
                                                            llvm::StringRef target) {
  // Names must exist and be part of the sequence: anything else would
  // silently do nothing.
  for (const std::vector<std::string> *names : {&spec.disabled, &spec.required})
    for (const std::string &name : *names) {
      if (!lookupPass(name) || lookupPass(name)->tvmName != name)
        return llvm::createStringError("unknown pass '" + name +
                                       "' (expected a TVM name; known: " + knownPasses() + ")");
      bool inSequence = llvm::any_of(kOrder, [&](const OrderStep &s) {
        return s.inLevels && (s.name == name || llvm::is_contained(s.sequential, name));
      });
      if (!inSequence)
        return llvm::createStringError(
            "pass '" + name + "' is not part of the O0..O4 sequence, so disabling or "
            "requiring it has no effect; run it with list:...");
    }
  std::vector<std::string> passes;
  for (const OrderStep &step : kOrder) {
    if (!step.inLevels)
      continue;
    if (step.sequential.empty()) {
      if (!passEnabled(step.name, level, spec))
        continue;
      // FuseOps fuses from level 1 on (TVM: opt_level 0 makes singletons).
      passes.push_back(step.name == "FuseOps"
                           ? "FuseOps{fuse-opt-level=" + std::to_string(level) + "}"
                           : step.name.str());
      continue;
    }
    if (llvm::is_contained(spec.disabled, step.name))
      continue;
    for (llvm::StringRef name : step.sequential)
      if (passEnabled(name, level, spec))
        passes.push_back(name.str());
  }
  // bf16 on a CPU with AVX512-BF16: convolutions NHWC, whose im2col
  // products of bf16 are dot products; in NCHW they stay widened to f32
  // (ResNet-50 in O3;mixed=bf16: 0.552 of O3's time NHWC, 1.305 NCHW;
  // README, "Mixed precision").
  std::string layout = spec.layout;
  if (layout.empty() && takesBF16Dots(spec.mixed, target) &&
      llvm::is_contained(passes, "AlterOpLayout"))
    layout = "cpu-nhwc";
  if (!layout.empty()) {
    auto alter = llvm::find(passes, "AlterOpLayout");
    if (alter == passes.end())
      return llvm::createStringError("layout=" + layout + ": O" + std::to_string(level) +
                                     " does not run AlterOpLayout (O3 and O4 do, or "
                                     "require=AlterOpLayout)");
    *alter = "AlterOpLayout{target=" + layout + "}";
  }
  passes = withTargetLayouts(std::move(passes), target);
  if (!spec.mixed.empty())
    passes = withMixedPrecision(std::move(passes), spec.mixed, target);
  if (!spec.external.empty()) { // after the mixed precision: products in its type
    auto fuse = llvm::find_if(passes, [](llvm::StringRef p) { return p.starts_with("FuseOps"); });
    passes.insert(fuse, {"AnnotateTarget{targets=" + spec.external + "}", "MergeCompilerRegions",
                         "PartitionGraph"});
  }
  return passes;
}

/// O0..O4 as a level number, else -1.
static int levelOf(llvm::StringRef base) {
  if (base.size() == 2 && base[0] == 'O' && base[1] >= '0' && base[1] <= '4')
    return base[1] - '0';
  return -1;
}

llvm::Expected<std::vector<std::string>> dlc::pipelinePasses(llvm::StringRef text) {
  llvm::Expected<PipelineSpec> spec = parsePipelineSpec(text);
  if (!spec)
    return spec.takeError();
  llvm::StringRef base = spec->base;
  if (int level = levelOf(base); level >= 0)
    return levelPasses(level, *spec, "cpu");
  if (!spec->mixed.empty())
    return llvm::createStringError("mixed= applies to O0..O4 and auto, not to '" + base.str() +
                                   "'");
  if (!spec->external.empty())
    return llvm::createStringError("external= applies to O0..O4, not to '" + base.str() + "'");
  if (!spec->layout.empty())
    return llvm::createStringError("layout= applies to O0..O4, not to '" + base.str() + "'");
  if (base.consume_front("list:")) {
    std::vector<std::string> passes;
    for (llvm::StringRef item : splitList(base))
      passes.push_back(item.str());
    return passes;
  }
  if (base == "none")
    return std::vector<std::string>();
  return llvm::createStringError("the passes of '" + text.str() +
                                 "' depend on the model (expected O0..O4, list:... or none)");
}

llvm::Expected<PipelineSpec> dlc::parsePipelineSpec(llvm::StringRef text) {
  PipelineSpec spec;
  llvm::SmallVector<llvm::StringRef> fields;
  text.split(fields, ';');
  spec.base = fields.front().trim().str();
  if (spec.base == "default")
    spec.base = defaultPipelineSpec().str();
  for (llvm::StringRef field : llvm::drop_begin(fields)) {
    if (field.trim() == "explain") {
      spec.explain = true;
      continue;
    }
    auto [key, value] = field.trim().split('=');
    if (key == "classes") {
      spec.classes = value.str();
      continue;
    }
    // A target description's name, which goes into a pass's options.
    if (key == "external" || key == "layout") {
      if (value.empty() || value.find_first_of(" ,;{}\"") != llvm::StringRef::npos)
        return llvm::createStringError(key + "=" + value + ": expected a target description (" +
                                       (key == "external" ? "cublas" : "cpu-nhwc") +
                                       ", or a file without spaces, commas, braces or quotes)");
      (key == "external" ? spec.external : spec.layout) = value.str();
      continue;
    }
    if (key == "mixed") {
      if (!isMixedPrecisionType(value))
        return llvm::createStringError("mixed=" + value.str() +
                                       ": expected mixed=f16 or mixed=bf16");
      spec.mixed = value.str();
      continue;
    }
    std::vector<std::string> *names = key == "disable"   ? &spec.disabled
                                      : key == "require" ? &spec.required
                                                         : nullptr;
    if (!names)
      return llvm::createStringError("unknown pipeline field '" + key.str() +
                                     "' (expected disable=A,B, require=A,B, explain, classes=FILE, "
                                     "mixed=f16|bf16, external=TARGET or layout=TARGET)");
    for (llvm::StringRef name : splitList(value))
      names->push_back(lookupPass(name) ? lookupPass(name)->tvmName.str() : name.str());
  }
  return spec;
}

std::string dlc::PipelineSpec::str() const {
  std::string s = base;
  if (!disabled.empty())
    s += ";disable=" + llvm::join(disabled, ",");
  if (!required.empty())
    s += ";require=" + llvm::join(required, ",");
  if (explain)
    s += ";explain";
  if (!classes.empty())
    s += ";classes=" + classes;
  if (!mixed.empty())
    s += ";mixed=" + mixed;
  if (!external.empty())
    s += ";external=" + external;
  if (!layout.empty())
    s += ";layout=" + layout;
  return s;
}

/// The passes of `text` as comma-separated pipeline elements.
static llvm::Expected<std::string> pipelineElements(llvm::StringRef text,
                                                   llvm::StringRef target) {
  llvm::Expected<PipelineSpec> spec = parsePipelineSpec(text);
  if (!spec)
    return spec.takeError();
  llvm::StringRef base = spec->base;
  llvm::Expected<std::vector<std::string>> parts = std::vector<std::string>();
  if (int level = levelOf(base); level >= 0) {
    if (spec->explain || !spec->classes.empty())
      return llvm::createStringError("explain and classes= apply to the auto pipeline, not to '" +
                                     base.str() + "'");
    llvm::Expected<std::vector<std::string>> passes = levelPasses(level, *spec, target);
    if (!passes)
      return passes.takeError();
    parts = listElements(llvm::join(*passes, ","));
  } else if (!spec->external.empty()) {
    return llvm::createStringError("external= applies to O0..O4, not to '" + base.str() + "'");
  } else if (!spec->layout.empty()) {
    return llvm::createStringError("layout= applies to O0..O4, not to '" + base.str() + "'");
  } else if (base == "auto") {
    std::vector<std::string> options;
    for (const std::vector<std::string> *names : {&spec->disabled, &spec->required})
      for (const std::string &name : *names) {
        if (!lookupPass(name))
          return llvm::createStringError("unknown pass '" + name + "' (known: " + knownPasses() +
                                         ")");
        bool inOrder = llvm::any_of(kOrder, [&](const OrderStep &s) {
          return s.name == name || llvm::is_contained(s.sequential, name);
        });
        if (!inOrder)
          return llvm::createStringError("pass '" + name + "' is not in the order auto chooses "
                                         "from, so disabling or requiring it has no effect; "
                                         "run it with list:...");
      }
    if (spec->classes.find_first_of(" ,;{}\"") != std::string::npos)
      return llvm::createStringError("classes=" + spec->classes +
                                     ": the path may not contain spaces, commas, braces or quotes");
    if (spec->explain)
      options.push_back("explain=true");
    if (!spec->classes.empty())
      options.push_back("classes=" + spec->classes);
    if (!spec->mixed.empty())
      options.push_back("mixed=" + spec->mixed);
    if (!spec->disabled.empty())
      options.push_back("disable=" + llvm::join(spec->disabled, ","));
    if (!spec->required.empty())
      options.push_back("require=" + llvm::join(spec->required, ","));
    if (target != "cpu")
      options.push_back("target=" + target.str());
    parts = std::vector<std::string>{"graph-auto-pipeline" +
                                     (options.empty() ? "" : "{" + llvm::join(options, " ") + "}")};
  } else if (base.consume_front("tuned:")) {
    if (!spec->disabled.empty() || !spec->required.empty() || !spec->classes.empty())
      return llvm::createStringError("disable=, require= and classes= do not apply to tuned: it "
                                     "replays the sequence dlc-tune recorded");
    if (base.empty() || base.find_first_of(" ,;{}\"") != llvm::StringRef::npos)
      return llvm::createStringError("tuned:" + base.str() + ": expected the path of a tuning "
                                     "database, without spaces, commas, braces or quotes");
    parts = std::vector<std::string>{"graph-tuned-pipeline{db=" + base.str() +
                                     (spec->explain ? " explain=true" : "") +
                                     (spec->mixed.empty() ? "" : " mixed=" + spec->mixed) + "}"};
  } else if (!spec->disabled.empty() || !spec->required.empty() || spec->explain ||
             !spec->classes.empty() || !spec->mixed.empty()) {
    return llvm::createStringError("disable= and require= apply to O0..O4 and auto, mixed= to "
                                   "O0..O4, auto and tuned:, explain to auto and tuned:, "
                                   "classes= to auto, not to '" +
                                   base.str() + "'");
  } else if (base.consume_front("list:")) {
    parts = listElements(base);
  } else if (base != "none") {
    return llvm::createStringError("unknown pipeline '" + base.str() +
                                   "': expected O0, O1, O2, O3, O4, default (O3), auto, "
                                   "tuned:DB.jsonl, none or list:PassA,PassB,...");
  }
  if (!parts)
    return parts.takeError();
  return llvm::join(*parts, ",");
}

llvm::Error dlc::buildPipeline(llvm::StringRef spec, mlir::OpPassManager &pm,
                               llvm::StringRef target) {
  registerPasses();
  llvm::Expected<std::string> elements = pipelineElements(spec, target);
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
  return "builtin.module(" + *pipelineElements(spec, "cpu") + ")";
}
