//===- Classifier.cpp - which neural architecture a graph is ---------------===//
#include "dlc/Analysis/Classifier.h"
#include "dlc/Analysis/OpStats.h"
#include "dlc/Dialect/Graph/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <functional>

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

//===----------------------------------------------------------------------===//
// Features
//===----------------------------------------------------------------------===//

namespace {

Operation *producer(Value v, int depth, llvm::function_ref<bool(Operation *)> is);

/// The operand an op passes through unchanged in kind, or null: the input
/// of elementwise activations, normalizations, views, casts and pads; of a
/// binary op, the one side that is neither constant nor broadcast (a
/// scale, a bias, an attention mask).
Value throughOperand(Operation *op) {
  if (isa<ReluOp, ClipOp, SigmoidOp, TanhOp, GeluOp, BatchNormOp, BiasAddOp, CastOp, ReshapeOp,
          TransposeOp, ExpandDimsOp, SqueezeOp, PadOp, DropoutOp, LayoutTransformOp>(op))
    return op->getOperand(0);
  if (!isa<AddOp, SubOp, MulOp, DivOp, MaximumOp, MinimumOp>(op))
    return {};
  // x * sigmoid(x) (SiLU, swish) and x * hard_sigmoid(x): an activation of x.
  if (isa<MulOp>(op))
    for (auto [x, gate] : {std::pair(op->getOperand(0), op->getOperand(1)),
                           std::pair(op->getOperand(1), op->getOperand(0))})
      if (Operation *g = gate.getDefiningOp();
          g && isa<SigmoidOp, ClipOp>(g) && producer(gate, 3, [&](Operation *p) {
            return llvm::is_contained(p->getResults(), x);
          }))
        return x;
  SmallVector<Value> full;
  for (Value v : op->getOperands())
    if (!v.getDefiningOp<ConstantOp>() && v.getType() == op->getResult(0).getType())
      full.push_back(v);
  bool otherIsSide = llvm::all_of(op->getOperands(), [&](Value v) {
    return llvm::is_contained(full, v) || v.getDefiningOp<ConstantOp>() ||
           v.getType() != op->getResult(0).getType();
  });
  return full.size() == 1 && otherIsSide ? full.front() : Value();
}

/// The first op satisfying `is` that `v` comes from through at most `depth`
/// pass-through ops, or null.
Operation *producer(Value v, int depth, llvm::function_ref<bool(Operation *)> is) {
  for (int i = 0; i <= depth; ++i) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return nullptr;
    if (is(def))
      return def;
    v = throughOperand(def);
    if (!v)
      return nullptr;
  }
  return nullptr;
}

/// Whether some op using `v`, through at most `depth` pass-through ops,
/// satisfies `is`.
bool consumedBy(Value v, int depth, llvm::function_ref<bool(Operation *)> is) {
  for (Operation *user : v.getUsers()) {
    if (is(user))
      return true;
    if (depth > 0 && throughOperand(user) == v &&
        llvm::any_of(user->getResults(), [&](Value r) { return consumedBy(r, depth - 1, is); }))
      return true;
  }
  return false;
}

bool isConst(Value v) { return v.getDefiningOp<ConstantOp>() != nullptr; }

bool isMatrixProduct(Operation *op) { return isa<MatmulOp, BatchMatmulOp, DenseOp>(op); }

/// A product of two computed values (attention's QK^T and PV), not of a
/// value and a weight.
bool isActivationProduct(Operation *op) {
  return isa<MatmulOp, BatchMatmulOp>(op) && !isConst(op->getOperand(0)) &&
         !isConst(op->getOperand(1));
}

int64_t convInChannels(Conv2DOp c) {
  return c.getInput().getType().getDimSize(c.getDataLayout() == "NHWC" ? 3 : 1);
}
int64_t convOutChannels(Conv2DOp c) {
  return c.getOutput().getType().getDimSize(c.getDataLayout() == "NHWC" ? 3 : 1);
}
bool isDepthwise(Conv2DOp c) { return c.getGroups() > 1 && static_cast<int64_t>(c.getGroups()) == convInChannels(c); }
bool isPointwise(Conv2DOp c) {
  auto w = c.getWeight().getType();
  bool oihw = c.getKernelLayout() == "OIHW";
  return w.getDimSize(oihw ? 2 : 0) == 1 && w.getDimSize(oihw ? 3 : 1) == 1;
}

/// Counts ops and remembers where (the first few).
struct Counter {
  Feature &f;
  void add(Operation *op) {
    ++f.value;
    if (f.where.size() < 4) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << op->getName() << " at " << op->getLoc();
      f.where.push_back(s);
    }
  }
};

} // namespace

GraphFeatures dlc::computeFeatures(ModuleOp module) {
  GraphFeatures fs;
  auto feature = [&](StringRef name, StringRef description) -> Counter {
    Feature &f = fs[name.str()];
    f.description = description.str();
    return {f};
  };
  Counter convs = feature("conv2d", "2-D convolutions");
  Counter depthwise = feature("depthwise_conv2d", "depthwise convolutions (groups = input channels)");
  Counter grouped = feature("grouped_conv2d", "grouped convolutions that are not depthwise");
  Counter pointwise = feature("pointwise_conv2d", "1x1 convolutions");
  Counter residual = feature("residual_adds", "adds of two computed 4-D tensors of one shape, one of them from a convolution (skip connections)");
  Counter inverted = feature("inverted_residual_blocks", "depthwise convolutions fed by a 1x1 convolution that expands the channels");
  Counter se = feature("squeeze_excitation", "products of a feature map with a per-channel gate computed from its global pooling");
  Counter nms = feature("nms", "non-maximum suppression ops");
  Counter decode = feature("box_decoding", "exponentials of slices (box width/height decoding)");
  Counter heads = feature("multi_scale_heads", "concats of 4 or more convolution outputs (detection heads over several feature maps)");
  Counter attention = feature("attention_blocks", "softmax between two products of computed values (matmul-softmax-matmul)");
  Counter layerNorm = feature("layer_norms", "layer normalizations (graph.layer_norm, or decomposed: a square root of a mean over the last axis)");
  Counter gelu = feature("gelu", "GELU activations (graph.gelu, or decomposed through erf)");
  Counter parallelDense = feature("parallel_dense_triplets", "values read by 3 or more dense/matmul ops with constant weights (Q, K, V projections)");
  Counter dense = feature("dense", "dense layers and products with a constant weight");
  Counter pads = feature("explicit_pads", "explicit pad ops");
  Counter dynamic = feature("dynamic_ops", "ops with a run-time shape (dynamic_reshape)");

  module.walk([&](Operation *op) {
    if (!isa_and_nonnull<GraphDialect>(op->getDialect()))
      return;
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](Conv2DOp c) {
          convs.add(c);
          if (isDepthwise(c)) {
            depthwise.add(c);
            Operation *expand = producer(c.getInput(), 4, [](Operation *p) {
              auto pc = dyn_cast<Conv2DOp>(p);
              return pc && isPointwise(pc) && convOutChannels(pc) > convInChannels(pc);
            });
            if (expand)
              inverted.add(c);
          } else if (c.getGroups() > 1) {
            grouped.add(c);
          }
          if (isPointwise(c))
            pointwise.add(c);
        })
        .Case([&](AddOp a) {
          auto t = dyn_cast<RankedTensorType>(a.getType());
          Value x = a.getLhs(), y = a.getRhs();
          if (t && t.getRank() == 4 && !isConst(x) && !isConst(y) && x.getType() == y.getType() &&
              (producer(x, 3, [](Operation *p) { return isa<Conv2DOp>(p); }) ||
               producer(y, 3, [](Operation *p) { return isa<Conv2DOp>(p); })))
            residual.add(a);
        })
        .Case([&](MulOp m) {
          // x * gate(global_pool(x)): the gate is [N, C, 1, 1] (or NHWC).
          for (Value gate : {m.getLhs(), m.getRhs()}) {
            auto t = dyn_cast<RankedTensorType>(gate.getType());
            if (!t || t.getRank() != 4 || isConst(gate) || t.getNumElements() == 0 ||
                t == m.getType())
              continue;
            int64_t ones = llvm::count(t.getShape(), 1);
            bool pooled = producer(gate, 6, [](Operation *p) {
              return isa<GlobalAvgPool2DOp, ReduceMeanOp>(p);
            });
            if (ones >= 2 && pooled) {
              se.add(m);
              break;
            }
          }
        })
        .Case([&](NmsOp n) { nms.add(n); })
        .Case([&](ExpOp e) {
          if (producer(e.getInput(), 3, [](Operation *p) { return isa<SliceOp, SplitOp>(p); }))
            decode.add(e);
        })
        .Case([&](ConcatOp c) {
          int64_t fromConvs = llvm::count_if(c->getOperands(), [](Value v) {
            return producer(v, 3, [](Operation *p) { return isa<Conv2DOp>(p); }) != nullptr;
          });
          if (fromConvs >= 4)
            heads.add(c);
        })
        .Default([&](Operation *s) {
          if (!isa<SoftmaxOp, FastSoftmaxOp>(s))
            return;
          if (producer(s->getOperand(0), 3, isActivationProduct) &&
              consumedBy(s->getResult(0), 3, isActivationProduct))
            attention.add(s);
        });
    if (isa<LayerNormOp>(op))
      layerNorm.add(op);
    if (isa<SqrtOp, RsqrtOp>(op))
      if (auto mean = dyn_cast_or_null<ReduceMeanOp>(
              producer(op->getOperand(0), 2, [](Operation *p) { return isa<ReduceMeanOp>(p); }))) {
        ArrayRef<int64_t> axes = mean.getAxes();
        int64_t rank = mean.getInput().getType().getRank();
        if (axes.size() == 1 && (axes[0] == -1 || axes[0] == rank - 1))
          layerNorm.add(op);
      }
    if (isa<GeluOp>(op) || isa<ErfOp, FastErfOp>(op))
      gelu.add(op);
    if (isa<DenseOp>(op) || (isa<MatmulOp, BatchMatmulOp>(op) && isConst(op->getOperand(1))))
      dense.add(op);
    if (isa<PadOp>(op))
      pads.add(op);
    if (isa<DynamicReshapeOp>(op))
      dynamic.add(op);
  });
  // Values that three or more weight products read.
  module.walk([&](Operation *op) {
    for (Value v : op->getResults()) {
      int64_t products = llvm::count_if(v.getUsers(), [&](Operation *u) {
        return isMatrixProduct(u) && u->getOperand(0) == v && isConst(u->getOperand(1));
      });
      if (products >= 3)
        parallelDense.add(op);
    }
  });
  for (auto func : module.getOps<func::FuncOp>())
    for (BlockArgument arg : func.getArguments()) {
      int64_t products = llvm::count_if(arg.getUsers(), [&](Operation *u) {
        return isMatrixProduct(u) && u->getOperand(0) == arg && isConst(u->getOperand(1));
      });
      if (products >= 3)
        ++fs["parallel_dense_triplets"].value;
    }

  double n = fs["conv2d"].value;
  auto share = [&](StringRef name, StringRef of, StringRef description) {
    Feature &f = fs[name.str()];
    f.value = n > 0 ? fs[of.str()].value / n : 0;
    f.description = description.str();
  };
  share("depthwise_share", "depthwise_conv2d", "share of convolutions that are depthwise");
  share("grouped_share", "grouped_conv2d", "share of convolutions that are grouped, not depthwise");
  share("pointwise_share", "pointwise_conv2d", "share of convolutions that are 1x1");
  OpStats stats = collectOpStats(module);
  fs["parameters"] = {double(stats.parameters), "weight elements", {}};
  fs["gmacs"] = {stats.macs / 1e9, "multiply-accumulates of convolutions and products, in billions", {}};
  fs["ops"] = {double(stats.ops), "graph ops other than constants", {}};
  return fs;
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

std::string dlc::defaultClassRulesPath() {
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("DLC_ARCH_CLASSES"))
    return *env;
  std::vector<std::string> candidates;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!exe.empty()) {
    llvm::SmallString<256> p(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
    llvm::sys::path::append(p, "share", "dlc", "ArchitectureClasses.json");
    candidates.push_back(p.str().str());
  }
  candidates.push_back(DLC_INSTALL_DATA_DIR "/ArchitectureClasses.json");
  candidates.push_back(DLC_SOURCE_DATA_DIR "/ArchitectureClasses.json");
  for (const std::string &c : candidates)
    if (llvm::sys::fs::exists(c))
      return c;
  return candidates.back();
}

static bool isComparison(llvm::StringRef op) {
  return op == ">=" || op == ">" || op == "<=" || op == "<" || op == "==";
}

llvm::Expected<ClassRules> dlc::loadClassRules(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(path.str() + ": cannot read architecture classes: " +
                                   buffer.getError().message());
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(path.str() + ": " + why.str());
  };
  llvm::Expected<llvm::json::Value> json = llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return fail("not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *classes = root ? root->getArray("classes") : nullptr;
  if (!classes)
    return fail("expected an object with a \"classes\" array");
  ClassRules rules;
  rules.source = path.str();
  if (std::optional<double> t = root->getNumber("threshold"))
    rules.threshold = *t;
  if (rules.threshold <= 0 || rules.threshold > 1)
    return fail("\"threshold\" must be in (0, 1]");
  for (auto [i, entry] : llvm::enumerate(*classes)) {
    const llvm::json::Object *c = entry.getAsObject();
    std::string where = "class " + std::to_string(i);
    std::optional<llvm::StringRef> name = c ? c->getString("name") : std::nullopt;
    if (!name)
      return fail(where + ": expected an object with a \"name\"");
    where = "class '" + name->str() + "'";
    ArchClass ac;
    ac.name = name->str();
    ac.tag = c->getString("tag").value_or("").str();
    ac.description = c->getString("description").value_or("").str();
    const llvm::json::Array *ruleList = c->getArray("rules");
    if (!ruleList || ruleList->empty())
      return fail(where + ": expected a non-empty \"rules\" array");
    for (auto [j, r] : llvm::enumerate(*ruleList)) {
      const llvm::json::Object *o = r.getAsObject();
      std::string at = where + ", rule " + std::to_string(j);
      std::optional<llvm::StringRef> feature = o ? o->getString("feature") : std::nullopt;
      std::optional<llvm::StringRef> op = o ? o->getString("op") : std::nullopt;
      std::optional<double> value = o ? o->getNumber("value") : std::nullopt;
      if (!feature || !op || !value)
        return fail(at + ": expected \"feature\", \"op\" and \"value\"");
      if (!isComparison(*op))
        return fail(at + ": unknown op '" + *op + "' (expected >=, >, <=, < or ==)");
      double weight = o->getNumber("weight").value_or(1.0);
      if (weight <= 0)
        return fail(at + ": \"weight\" must be positive");
      ac.rules.push_back({feature->str(), op->str(), *value, weight});
    }
    rules.classes.push_back(std::move(ac));
  }
  return rules;
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

static bool holds(double x, llvm::StringRef op, double v) {
  if (op == ">=")
    return x >= v;
  if (op == ">")
    return x > v;
  if (op == "<=")
    return x <= v;
  if (op == "<")
    return x < v;
  return x == v;
}

static std::string number(double v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (v == static_cast<int64_t>(v))
    os << static_cast<int64_t>(v);
  else
    os << llvm::format("%.3g", v);
  return s;
}

std::vector<std::string> Classification::tags() const {
  std::vector<std::string> out;
  for (const ClassScore &s : scores)
    if (s.detected && !s.tag.empty())
      out.push_back(s.tag);
  return out;
}

Classification dlc::classify(const GraphFeatures &features, const ClassRules &rules) {
  Classification result;
  for (const ArchClass &c : rules.classes) {
    ClassScore s{c.name, c.tag, 0, false, {}};
    double total = 0, met = 0;
    for (const ClassRule &r : c.rules) {
      auto it = features.find(r.feature);
      total += r.weight;
      if (it == features.end()) {
        s.evidence.push_back(r.feature + ": unknown feature (rule ignored, counts as not holding)");
        continue;
      }
      bool ok = holds(it->second.value, r.op, r.value);
      met += ok ? r.weight : 0;
      s.evidence.push_back(r.feature + " = " + number(it->second.value) + " " + r.op + " " +
                           number(r.value) + ": " + (ok ? "holds" : "fails") + " (weight " +
                           number(r.weight) + ")");
    }
    s.score = total > 0 ? met / total : 0;
    s.detected = s.score >= rules.threshold;
    result.scores.push_back(std::move(s));
  }
  llvm::stable_sort(result.scores,
                    [](const ClassScore &a, const ClassScore &b) { return a.score > b.score; });
  double best = result.scores.empty() ? 0 : result.scores.front().score;
  for (const ClassScore &s : result.scores)
    if (s.detected)
      result.detected.push_back(s.name);
  result.confidence = result.detected.empty() ? 1 - best : best;
  return result;
}

void dlc::printClassification(const Classification &c, const GraphFeatures &features,
                              llvm::raw_ostream &os) {
  if (c.general())
    os << "class: general (no class reaches its threshold; confidence "
       << llvm::format("%.2f", c.confidence) << ")\n";
  else
    os << "class: " << llvm::join(c.detected, " + ") << " (confidence "
       << llvm::format("%.2f", c.confidence) << ")\n";
  for (const ClassScore &s : c.scores) {
    os << "  " << s.name << (s.tag.empty() ? "" : " [" + s.tag + "]") << ": score "
       << llvm::format("%.2f", s.score) << (s.detected ? ", detected" : "") << "\n";
    for (const std::string &e : s.evidence)
      os << "    " << e << "\n";
  }
  os << "features:\n";
  for (const auto &[name, f] : features) {
    os << "  " << name << " = " << number(f.value) << "  (" << f.description << ")";
    if (!f.where.empty())
      os << ": " << llvm::join(f.where, "; ") << (f.value > static_cast<double>(f.where.size()) ? "; ..." : "");
    os << "\n";
  }
}

llvm::json::Value dlc::classificationToJSON(const Classification &c,
                                            const GraphFeatures &features) {
  llvm::json::Array classes;
  for (const ClassScore &s : c.scores)
    classes.push_back(llvm::json::Object{{"name", s.name},
                                         {"tag", s.tag},
                                         {"score", s.score},
                                         {"detected", s.detected},
                                         {"evidence", llvm::json::Array(s.evidence)}});
  llvm::json::Object fs;
  for (const auto &[name, f] : features)
    fs[name] = llvm::json::Object{{"value", f.value},
                                  {"description", f.description},
                                  {"where", llvm::json::Array(f.where)}};
  std::string name = c.general() ? "general" : llvm::join(c.detected, "+");
  return llvm::json::Object{{"class", name},
                            {"detected", llvm::json::Array(c.detected)},
                            {"tags", llvm::json::Array(c.tags())},
                            {"confidence", c.confidence},
                            {"classes", std::move(classes)},
                            {"features", std::move(fs)}};
}
