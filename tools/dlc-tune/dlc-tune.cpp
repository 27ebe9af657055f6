//===- dlc-tune.cpp - search pass sequences for a model --------------------===//
//
// dlc-tune model.mlir --db=tuning.jsonl [--strategy=random|greedy|exhaustive]
//          [--objective=latency|compile|mix:W] [--budget=N|90s|10m]
// dlc-tune --space
//
//===----------------------------------------------------------------------===//
#include "dlc/Analysis/Classifier.h"
#include "dlc/Driver/CPUCompiler.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Runtime/Model.h"
#include "dlc/Transforms/Pipelines.h"
#include "dlc/Tuning/Tuner.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

using namespace llvm;
using namespace dlc;

static cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model.mlir>"));
static cl::opt<std::string> dbPath("db", cl::init("dlc-tuning.jsonl"),
                                   cl::desc("the tuning database records are appended to"));
static cl::opt<std::string>
    strategy("strategy", cl::init("random"),
             cl::desc("random (the CF'22 study's PO-x), greedy or exhaustive"));
static cl::opt<std::string>
    objective("objective", cl::init("latency"),
              cl::desc("what is minimized: latency, compile (time) or mix:W "
                       "(W * latency + (1 - W) * compile time, both over O3's)"));
static cl::opt<std::string>
    budget("budget", cl::init("20"),
           cl::desc("candidates to measure (N), or search time (90s, 10m, 1h)"));
static cl::opt<int64_t>
    maxLength("max-length", cl::init(-1),
              cl::desc("passes in a sequence, FuseOps aside (default 8; exhaustive: the "
                       "depth, default 2)"));
static cl::opt<uint64_t> seed("seed", cl::init(1), cl::desc("random strategy's seed"));
static cl::opt<int64_t> threads("threads", cl::init(1),
                                cl::desc("CPU threads the compiled code runs on"));
static cl::opt<unsigned> compileThreads(
    "compile-threads", cl::init(0),
    cl::desc("threads for code generation (default 0: the machine's cores)"));
static cl::opt<int64_t> rounds("rounds", cl::init(7),
                               cl::desc("side-by-side latency rounds per candidate"));
static cl::opt<int64_t> confirm("confirm", cl::init(3),
                                cl::desc("leading candidates measured again at the end"));
static cl::opt<int64_t> confirmRounds("confirm-rounds", cl::init(15),
                                      cl::desc("rounds when measuring them again"));
static cl::opt<double> absTol("atol", cl::init(1e-3),
                              cl::desc("absolute tolerance of outputs against O3's"));
static cl::opt<double> relTol("rtol", cl::init(1e-3),
                              cl::desc("relative tolerance of outputs against O3's"));
static cl::opt<std::string>
    mixed("mixed", cl::desc("f16 or bf16: every candidate computes in this type where it is safe "
                            "(the pipeline's mixed=), against O3 in f32 within --atol/--rtol"));
static cl::opt<bool> noSeeds("no-seeds",
                             cl::desc("do not try auto's sequence and the database's earlier "
                                      "bests first"));
static cl::opt<std::string>
    classesPath("classes", cl::desc("architecture class rules (default: $DLC_ARCH_CLASSES or "
                                    "the installed ArchitectureClasses.json)"));
static cl::list<std::string>
    inputSpecs("input", cl::desc("input tensor: file.npy, file.pb or random:seed=N "
                                 "(default random:seed=1)"));
static cl::opt<std::string> entry("entry", cl::desc("function to tune (default @main)"));
static cl::opt<bool> printSpace("space", cl::desc("print the search space of every "
                                                  "architecture class and exit"));

static int fail(const Twine &message) {
  outs().flush();
  WithColor::error(errs(), "dlc-tune") << message << "\n";
  return 1;
}

static std::atomic<bool> interrupted{false};
static void onInterrupt() { interrupted = true; }

/// `N` candidates, or `N` seconds with a unit: s, m or h.
static bool parseBudget(StringRef text, TuneOptions &options) {
  double scale = text.consume_back("s") ? 1
                 : text.consume_back("m") ? 60
                 : text.consume_back("h") ? 3600
                                          : 0;
  if (scale == 0) {
    int64_t n;
    if (text.getAsInteger(10, n) || n < 1)
      return false;
    options.budgetCandidates = n;
    return true;
  }
  double value;
  if (text.getAsDouble(value) || !(value > 0))
    return false;
  options.budgetSeconds = value * scale;
  return true;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "dlc-tune: search graph-pass sequences for a model\n");
  TuneOptions options;
  options.strategy = strategy;
  if (Error e = checkStrategy(strategy))
    return fail("--strategy: " + toString(std::move(e)));
  options.maxLength = maxLength >= 0 ? maxLength.getValue() : strategy == "exhaustive" ? 2 : 8;
  if (maxLength.getNumOccurrences() && (maxLength < 0 || maxLength > 64))
    return fail("--max-length must be in [0, 64]");
  if (printSpace) {
    std::string rules = classesPath.empty() ? defaultClassRulesPath() : classesPath.getValue();
    if (Error e = printClassSpaces(rules, options.maxLength, outs()))
      return fail(toString(std::move(e)));
    return 0;
  }
  if (modelPath.empty())
    return fail("a model is required (dlc-tune model.mlir --db=FILE), or --space");
  Expected<Objective> obj = parseObjective(objective);
  if (!obj)
    return fail(toString(obj.takeError()));
  options.objective = *obj;
  if (!parseBudget(budget, options))
    return fail("bad --budget '" + budget +
                "': expected a number of candidates (20) or a time (90s, 10m, 1h)");
  if (threads < 1 || rounds < 1 || confirmRounds < 1 || confirm < 0)
    return fail("--threads, --rounds and --confirm-rounds must be >= 1, --confirm >= 0");
  if (!(absTol >= 0 && relTol >= 0))
    return fail("--atol and --rtol must be numbers >= 0");
  options.seed = seed;
  options.threads = threads;
  options.compileThreads = compileThreads;
  options.rounds = rounds;
  options.confirm = confirm;
  options.confirmRounds = confirmRounds;
  options.atol = absTol;
  options.rtol = relTol;
  if (!mixed.empty() && !isMixedPrecisionType(mixed))
    return fail("--mixed=" + mixed + ": expected f16 or bf16");
  options.mixed = mixed;
  options.seeds = !noSeeds;
  options.classesPath = classesPath;
  options.dbPath = dbPath;
  options.modelPath = modelPath;

  mlir::DialectRegistry registry;
  registerModelDialects(registry);
  registerCPUCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  auto sourceMgr = std::make_shared<SourceMgr>();
  mlir::SourceMgrDiagnosticHandler diagHandler(*sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loadModel(modelPath, context, sourceMgr);
  if (!module)
    return 1;
  options.weightsSource = sourceMgr;
  mlir::FailureOr<mlir::func::FuncOp> func = findEntry(*module, entry);
  if (failed(func))
    return 1;
  std::vector<std::string> specs(inputSpecs.begin(), inputSpecs.end());
  if (specs.empty())
    specs.push_back("random:seed=1");
  Expected<std::vector<Tensor>> inputs = loadInputs(specs, *func);
  if (!inputs)
    return fail(toString(inputs.takeError()));
  if (Error e = checkInputs(func->getFunctionType(), *inputs))
    return fail(toString(std::move(e)));

  // Ctrl-C ends the search; what was measured is kept and the best so far
  // recorded. A second Ctrl-C kills.
  sys::SetInterruptFunction(onInterrupt);
  Expected<TuneSummary> summary =
      tune(*module, func->getSymName(), *inputs, options, &interrupted, errs(), outs());
  if (!summary)
    return fail(toString(summary.takeError()));
  return 0;
}
