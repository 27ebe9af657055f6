//===- PassRegistry.cpp - every graph pass and what is known of it ---------===//
//
// Anchors and created ops were read off each pass's patterns (a pass whose
// patterns only match ops absent from the graph cannot change it; the
// greedy driver's dead-op removal aside, which DeadCodeElimination covers).
// Classes: CF'22 Table 4 (../shared/reference/cf22-pass-classes.md).
// Dormancy: docs/PassEffects.md (bench/pass_effects.py), kept only for passes
// whose work no other pass creates (FoldConstant and SimplifyExpr clean up
// after others, so they are never skipped as dormant), and for the cleanups
// that stayed dormant on every model of the classes even after all the other
// passes of their class spaces (dlc-tune's probe, bench/tune_evidence.py).
//
//===----------------------------------------------------------------------===//
#include "dlc/Transforms/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>

using namespace dlc;

static constexpr llvm::StringLiteral kSimplifyExprOps =
    "add sub mul div reshape expand_dims squeeze transpose cast layout_transform clip";

static const CatalogueEntry kCatalogue[] = {
    {"SimplifyInference", "graph-simplify-inference", 0, false, "RN MN SSD",
     "batch_norm layer_norm dropout", "add sub mul div sqrt rsqrt expand_dims reshape", "",
     "", "batch_norm and layer_norm as arithmetic, dropout removed",
     // BERTs keep their layer norms as ops, which lower to fewer kernels
     // than their arithmetic fuses into (BERT-base on the CPU: 197 instead
     // of 272, three fewer a layer norm; latency against O3 1.008 [0.975,
     // 1.021] over 15 rounds, 2026-12-02; auto's compile time then 0.889
     // [0.808, 0.948] of O3's, docs/TuningEvidence.md).
     "BR"},
    {"FoldConstant", "graph-fold-constant", 2, false, "RN MN SSD", "", "constant", "", "",
     "evaluates ops whose operands are all constants"},
    {"BackwardFoldScaleAxis", "graph-backward-fold-scale-axis", 3, false, "",
     "conv2d dense", "mul", "FoldConstant afterwards", "BR",
     "folds a per-channel scale after conv2d/dense into its weights",
     // The scale it folds stays a multiply in the convolution's fused
     // epilogue without it, while folding it rewrites every weight (the
     // FoldConstant after it: 30-290 ms on the zoo's CNNs before it
     // computed in f32, 10-170 ms after). Not MobileNets: there the
     // multiply after each depthwise convolution measured slower (auto
     // without it against O3: 1.029 [1.006, 1.053], bench/tune_evidence.py).
     "RN SSD"},
    {"ForwardFoldScaleAxis", "graph-forward-fold-scale-axis", 3, false, "BR", "conv2d dense",
     "mul", "FoldConstant afterwards", "",
     "folds a per-channel scale before conv2d/dense into its weights",
     // As BackwardFoldScaleAxis (without it, this one folds the same batch
     // norm scales through the ReLUs into the next convolution).
     "RN SSD"},
    {"FoldScaleAxis", "graph-fold-scale-axis", 0, false, "", "", "mul constant", "", "",
     "BackwardFoldScaleAxis, ForwardFoldScaleAxis, then FoldConstant"},
    {"FoldExplicitPadding", "graph-fold-explicit-padding", 0, false, "RN SSD", "pad", "", "",
     "RN MN SSD BR", "moves a constant pad into the padding of the conv2d/pool it feeds"},
    {"SimplifyExpr", "graph-simplify-expr", 0, false, "RN MN SSD", kSimplifyExprOps, "", "", "",
     "algebraic identities; reshape, transpose, cast and clip chains"},
    // These three changed none of the zoo's four models nor the torchvision
    // ResNet-50 and MobileNetV2, as imported or after the other passes of
    // their classes (dlc-tune's probe); the greedy rewrites of the others
    // erase the ops they leave unused, and only partitioning makes functions.
    {"EliminateCommonSubexpr", "graph-eliminate-common-subexpr", 3, false, "BL RN MN", "", "",
     "", "RN MN SSD BR", "merges identical ops on identical operands (constants excepted)"},
    {"DeadCodeElimination", "graph-dead-code-elimination", 1, false, "RN MN SSD", "", "", "",
     "RN MN SSD BR", "erases unused ops"},
    {"RemoveUnusedFunctions", "graph-remove-unused-functions", 1, true, "SSD", "", "", "",
     "RN MN SSD BR", "drops functions the entry does not reach"},
    {"CanonicalizeOps", "graph-canonicalize-ops", 3, false, "BL", "bias_add", "add expand_dims",
     "", "RN MN SSD BR", "bias_add as add of the expanded bias"},
    {"CanonicalizeCast", "graph-canonicalize-cast", 3, false, "BL RN", "cast", "cast", "",
     "RN MN SSD BR", "one copy of a widening cast per elementwise consumer"},
    {"DynamicToStatic", "graph-dynamic-to-static", 2, false, "AD", "", "reshape constant", "",
     "RN MN SSD", "dynamic_reshape with a constant shape as reshape, plus constant folding"},
    {"AnnotateSpans", "graph-annotate-spans", 0, true, "AD", "", "", "", "",
     "points locations into a printed snapshot of the graph"},
    {"FuseOps", "graph-fuse-ops", 0, false, "RN MN SSD BR", "", "fused",
     "layout, mixed-precision and partitioning passes first", "",
     "TVM's graph partitioner: kernels as graph.fused regions", "", /*last=*/true},
    {"DefuseOps", "graph-defuse-ops", 3, false, "BL", "fused", "", "FuseOps", "",
     "inlines graph.fused regions"},
    {"CombineParallelConv2D", "graph-combine-parallel-conv2d", 4, false, "RN", "conv2d",
     "concat slice split", "", "RN MN SSD BR",
     "3 or more conv2d on one input as one conv2d, split after", "", false,
     // SSD's box and class heads read each feature map: combined, they
     // share one im2col matrix (53 MB for the 38 x 38 map) and one product
     // (README: auto against O3 in paired rounds).
     "SSD{min-num-branches=2}"},
    {"CombineParallelDense", "graph-combine-parallel-dense", 4, false, "RN", "dense",
     "concat batch_matmul slice split reshape expand_dims dense", "", "RN MN SSD",
     "3 or more dense on one input as one batch_matmul"},
    {"CombineParallelBatchMatmul", "graph-combine-parallel-batch-matmul", 4, false, "",
     "batch_matmul", "concat slice split", "", "RN MN SSD BR",
     "3 or more batch_matmul on one input as one"},
    {"BatchingOps", "graph-batching-ops", 0, false, "BR", "conv2d dense batch_matmul",
     "concat batch_matmul slice split reshape expand_dims dense", "", "RN MN SSD",
     "the three CombineParallel passes in turn",
     // BERT-base, 3 rounds: graph passes 0.42-0.47 s with it, 0.18-0.21 s
     // without; p50 186-203 ms with, 176-207 ms without.
     "BR"},
    {"SimplifyFCTranspose", "graph-simplify-fc-transpose", 4, false, "MN BR", "dense", "", "",
     "RN MN SSD BR", "dense of a transposed constant weight: the weight transposed now"},
    {"FastMath", "graph-fast-math", 4, false, "MN BR SSD", "exp erf tanh softmax gelu",
     "fast_exp fast_erf fast_tanh fast_softmax mul add", "", "RN MN",
     "exp, erf, tanh, softmax and gelu by fast approximations",
     // BERT-base, auto with it against O3 (`--against`, 61 rounds, dense
     // weights packed): 0.981 [0.958, 0.999], 0.996 [0.990, 1.006], 0.986
     // [0.981, 0.995] (2026-11-27); before the packing, 0.998 to 1.048,
     // within noise or slower. Small: the CPU computes the accurate exp and
     // erf with vectorized polynomials too.
     ""},
    {"MergeComposite", "graph-merge-composite", 0, false, "RN MN SSD",
     "conv2d dense batch_matmul", "composite", "", "RN MN SSD",
     "wraps pattern-table matches into named graph.composite regions", "", false,
     // BERTs' attention as one kernel a block of query rows at a time
     // (dlc-tile-attention), auto's sequence with it against without
     // (`--against`, 2026-12-06, AMD EPYC Zen 4, 2 threads): BERT-base at
     // sequence 512 0.940 [0.906, 0.953] over 12 rounds, at 128 0.976
     // [0.943, 1.004] over 30; attention alone at 512 0.63x.
     "BR"},
    {"AlterOpLayout", "graph-alter-op-layout", 3, false, "BL RN MN SSD BR",
     "conv2d layout_transform", "layout_transform conv2d_winograd", "", "RN MN SSD BR",
     "conv2d in the target's preferred layouts; layout-agnostic ops follow; with winograd, "
     "3x3 stride-1 conv2d by Winograd's algorithm",
     "", false,
     // ResNets and SSDs channels-last, their 3x3 convolutions as NHWC
     // Winograd products (`--against`, 2026-11-29, README): ResNet-50 0.827
     // [0.802, 0.867] of O3 over 31 rounds, 0.919 [0.894, 0.942] of the
     // NCHW Winograd products; SSD-ResNet50 0.582 [0.571, 0.596] of O3 over
     // 21 rounds (bench/tune_evidence.json), 0.894 [0.824, 0.954] of the NCHW
     // Winograd products over 21 (the reverse order 1.128 [1.074, 1.210]).
     // MobileNets channels-last (the builtin cpu-nhwc description): 0.881
     // [0.865, 0.889] of O3 over 15 rounds on an AVX-512 Zen 4 (2026-12-02,
     // bench/tune_evidence.json) once products of fewer columns than two
     // vectors took one-vector register tiles; before that, with AVX-512,
     // within noise (Zen 4) or 1.093 [1.058, 1.150] slower (Intel Xeon),
     // and 0.916 on an AVX2 EPYC (README's "Layouts"). On an AVX-512 Intel
     // Xeon (2026-12-03) the torchvision MobileNetV2 was 1.09-1.11 slower
     // until 112 x 112 planes took whole vectors of channels, then 1.009 to
     // 1.027, the zoo's 0.939 to 0.962 faster. SSD first: an SSD with a
     // ResNet backbone is of both classes.
     "SSD{target=cpu-nhwc winograd=true} RN{target=cpu-nhwc winograd=true} "
     "MN{target=cpu-nhwc}"},
    {"ConvertLayout", "graph-convert-layout", 3, false, "BL", "conv2d layout_transform",
     "layout_transform", "", "BR", "conv2d in user-chosen layouts (default NHWC)"},
    {"AnnotateTarget", "graph-annotate-target", 0, false, "", "", "", "a target description",
     "", "marks the ops an external target supports"},
    {"MergeCompilerRegions", "graph-merge-compiler-regions", 0, false, "", "", "",
     "AnnotateTarget", "", "groups annotated ops into regions without cycles"},
    {"PartitionGraph", "graph-partition-graph", 0, true, "AD", "", "",
     "AnnotateTarget, MergeCompilerRegions", "", "outlines regions into functions per target"},
    {"ToMixedPrecision", "graph-to-mixed-precision", 0, false, "AD", "", "cast",
     "before FuseOps", "", "computes in f16/bf16 where safe"},
    {"FakeQuantizationToInteger", "graph-fake-quantization-to-integer", 0, false, "AD",
     "quantize", "cast", "", "RN MN SSD BR",
     "quantize/dequantize regions as integer ops"},
    // TVM passes between let-binding (A-normal) and dataflow (graph normal)
    // form, and training gradients: dlc's graph is SSA dataflow for
    // inference, so they have nothing to do; accepted so that published
    // sequences run verbatim.
    {"ToANormalForm", "graph-ssa-form", 1, true, "AD", "-", "", "", "",
     "nothing: dlc's graph is already SSA dataflow"},
    {"ToGraphNormalForm", "graph-ssa-form", 1, true, "RN MN", "-", "", "", "",
     "nothing: dlc's graph is already SSA dataflow"},
    {"FirstOrderGradient", "graph-ssa-form", 0, true, "MN", "-", "", "", "",
     "nothing: dlc compiles inference"},
};

static bool hasWord(llvm::StringRef list, llvm::StringRef word) {
  llvm::SmallVector<llvm::StringRef> words;
  list.split(words, ' ', -1, /*KeepEmpty=*/false);
  return llvm::is_contained(words, word);
}

/// The space-separated words of `list`; a word's options in braces may hold
/// spaces ("RN{target=cpu-nhwc winograd=true}").
static llvm::SmallVector<llvm::StringRef> words(llvm::StringRef list) {
  llvm::SmallVector<llvm::StringRef> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= list.size(); ++i) {
    char c = i < list.size() ? list[i] : ' ';
    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (c != ' ' || depth > 0)
      continue;
    if (i > start)
      out.push_back(list.slice(start, i));
    start = i + 1;
  }
  return out;
}

/// "Name" of "Name{options}".
static llvm::StringRef withoutOptions(llvm::StringRef spec) {
  return spec.take_until([](char c) { return c == '{'; });
}

/// The word of `measuredOn` for class `tag`: "TAG" or "TAG{options}".
static std::optional<llvm::StringRef> measuredWord(llvm::StringRef measuredOn,
                                                   llvm::StringRef tag) {
  for (llvm::StringRef w : words(measuredOn))
    if (withoutOptions(w) == tag)
      return w;
  return std::nullopt;
}

bool CatalogueEntry::inClass(llvm::StringRef tag) const { return hasWord(classes, tag); }
llvm::SmallVector<llvm::StringRef> CatalogueEntry::measuredClasses() const {
  return llvm::map_to_vector(words(measuredOn),
                             [](llvm::StringRef w) { return withoutOptions(w); });
}
llvm::StringRef CatalogueEntry::optionsFor(llvm::StringRef tag) const {
  std::optional<llvm::StringRef> w = measuredWord(measuredOn, tag);
  return w ? w->drop_front(tag.size()) : llvm::StringRef();
}
std::string CatalogueEntry::specFor(llvm::ArrayRef<std::string> tags) const {
  for (llvm::StringRef tag : measuredClasses())
    if (llvm::is_contained(tags, tag) && !optionsFor(tag).empty())
      return (tvmName + optionsFor(tag)).str();
  return tvmName.str();
}
/// Dormancy was measured with the pass's default options.
bool CatalogueEntry::dormantFor(llvm::StringRef tag) const {
  return hasWord(dormantOn, tag) && optionsFor(tag).empty();
}
bool CatalogueEntry::noGainFor(llvm::StringRef tag) const { return hasWord(noGainOn, tag); }
llvm::SmallVector<llvm::StringRef> CatalogueEntry::anchorOps() const {
  return neverChanges() ? llvm::SmallVector<llvm::StringRef>() : words(anchors);
}
llvm::SmallVector<llvm::StringRef> CatalogueEntry::createdOps() const { return words(creates); }

llvm::ArrayRef<CatalogueEntry> dlc::passCatalogue() { return kCatalogue; }

/// Names TVM registered differently from its class names.
static llvm::StringRef canonicalName(llvm::StringRef name) {
  return name == "CombineParallelConv2d" ? "CombineParallelConv2D" : name;
}

llvm::SmallVector<llvm::StringRef> dlc::passItemOptions(llvm::StringRef item) {
  llvm::SmallVector<llvm::StringRef> options;
  item.split('{').second.take_until([](char c) { return c == '}'; }).split(options, ' ', -1,
                                                                            false);
  return options;
}

const CatalogueEntry *dlc::lookupPass(llvm::StringRef name) {
  name = canonicalName(withoutOptions(name));
  for (const CatalogueEntry &e : kCatalogue)
    if (e.tvmName == name || e.flag == name)
      return &e;
  return nullptr;
}

void dlc::printPassCatalogue(llvm::raw_ostream &os) {
  for (const CatalogueEntry &e : kCatalogue) {
    os << e.tvmName << " (" << e.flag << ", O" << e.optLevel << ", "
       << (e.modulePass ? "module" : "function") << " pass): " << e.summary << "\n";
    os << "  classes: " << (e.classes.empty() ? "-" : e.classes) << "; anchors: "
       << (e.neverChanges() ? "none (never changes the IR)"
                            : e.anchors.empty() ? "any graph" : e.anchors.str());
    if (!e.creates.empty())
      os << "; creates: " << e.creates;
    if (!e.requires.empty())
      os << "; requires: " << e.requires;
    if (!e.dormantOn.empty())
      os << "; dormant on: " << e.dormantOn;
    if (!e.noGainOn.empty())
      os << "; no gain measured on: " << e.noGainOn;
    if (!e.measuredOn.empty())
      os << "; measured faster on: " << e.measuredOn;
    if (e.last)
      os << "; runs last";
    os << "\n";
  }
}

llvm::json::Value dlc::passCatalogueToJSON() {
  auto list = [](llvm::StringRef s) {
    llvm::json::Array a;
    for (llvm::StringRef w : words(s))
      a.push_back(w.str());
    return a;
  };
  llvm::json::Array passes;
  for (const CatalogueEntry &e : kCatalogue)
    passes.push_back(llvm::json::Object{
        {"tvm_name", e.tvmName.str()},
        {"flag", e.flag.str()},
        {"opt_level", e.optLevel},
        {"kind", e.modulePass ? "module" : "function"},
        {"classes", list(e.classes)},
        {"anchors", e.neverChanges() ? llvm::json::Value(nullptr) : list(e.anchors)},
        {"never_changes_ir", e.neverChanges()},
        {"creates", list(e.creates)},
        {"requires", e.requires.str()},
        {"dormant_on", list(e.dormantOn)},
        {"no_gain_on", list(e.noGainOn)},
        {"measured_faster_on", list(e.measuredOn)},
        {"runs_last", e.last},
        {"summary", e.summary.str()}});
  return passes;
}
