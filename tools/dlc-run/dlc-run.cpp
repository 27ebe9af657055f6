//===- dlc-run.cpp - run a model and check its outputs ---------------------===//
//
// dlc-run model.mlir --target=reference --input=x.npy --output=y.npy
//                    [--expect=ref.npy --atol=.. --rtol=..] [--print-output]
//
//===----------------------------------------------------------------------===//
#include "dlc/Analysis/OpStats.h"
#include "dlc/Runtime/CPUExecutable.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Runtime/Model.h"
#include "dlc/Runtime/TensorIO.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;
using namespace dlc;

static cl::opt<std::string> modelPath(cl::Positional, cl::Required,
                                      cl::desc("<model.mlir>"));
static cl::opt<std::string>
    target("target", cl::init("reference"),
           cl::desc("where to run: reference (the interpreter) or cpu (compiled "
                    "for the host, JIT)"));
static cl::opt<std::string>
    pipeline("pipeline", cl::init("default"),
             cl::desc("graph passes before lowering (cpu): default, none or "
                      "list:A,B,..."));
static cl::opt<std::string>
    compileTo("compile-to",
              cl::desc("stop after a phase and print the IR: graph, linalg, "
                       "loops or llvm"));
static cl::opt<std::string> entry("entry",
                                  cl::desc("function to run (default @main)"));
static cl::list<std::string>
    inputSpecs("input", cl::desc("input tensor: file.npy, file.pb or "
                                 "random:seed=N (once per input, or one "
                                 "random spec for all)"));
static cl::list<std::string> outputPaths("output",
                                         cl::desc("write output N to this .npy"));
static cl::list<std::string>
    expectPaths("expect", cl::desc("compare output N with this .npy/.pb"));
static cl::opt<double> absTol("atol", cl::init(1e-5),
                            cl::desc("absolute tolerance for --expect"));
static cl::opt<double> relTol("rtol", cl::init(1e-5),
                            cl::desc("relative tolerance for --expect"));
static cl::opt<bool> printOutput("print-output",
                                 cl::desc("print every output value"));
static cl::opt<bool> printStats("op-stats",
                                cl::desc("print op counts, parameters and MACs"));

static int fail(const Twine &message) {
  outs().flush(); // keep results and the error in order
  WithColor::error(errs(), "dlc-run") << message << "\n";
  return 1;
}

/// Prints values as nested brackets, numpy style.
static void printValues(raw_ostream &os, const Tensor &t, size_t dim,
                        int64_t &pos) {
  if (dim == t.shape.size()) {
    double v = t.data[pos++];
    if (isFloat(t.dtype))
      os << format("%g", v);
    else
      os << static_cast<int64_t>(v);
    return;
  }
  os << '[';
  for (int64_t i = 0; i < t.shape[dim]; ++i) {
    if (i)
      os << ", ";
    printValues(os, t, dim + 1, pos);
  }
  os << ']';
}

static void printSummary(raw_ostream &os, const Tensor &t) {
  double mn = INFINITY, mx = -INFINITY, sum = 0;
  for (double v : t.data) {
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    sum += v;
  }
  os << " min " << format("%g", mn) << " max " << format("%g", mx) << " mean "
     << format("%g", t.size() ? sum / t.size() : 0.0) << " first [";
  for (int64_t i = 0; i < std::min<int64_t>(t.size(), 6); ++i)
    os << (i ? ", " : "") << format("%g", t.data[i]);
  os << (t.size() > 6 ? ", ...]" : "]");
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "dlc-run: run a graph-dialect model\n");
  if (target != "reference" && target != "cpu")
    return fail("target '" + target +
                "' is not available in this build (available: reference, cpu)");
  std::optional<Phase> phase;
  if (!compileTo.empty() && !(phase = parsePhase(compileTo)))
    return fail("bad --compile-to '" + compileTo +
                "' (expected graph, linalg, loops or llvm)");
  if (absTol < 0 || relTol < 0)
    return fail("--atol and --rtol must be >= 0");

  mlir::DialectRegistry registry;
  registerModelDialects(registry);
  registerCPUCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadModel(modelPath, context, sourceMgr);
  if (!module)
    return 1;
  mlir::FailureOr<mlir::func::FuncOp> func = findEntry(*module, entry);
  if (failed(func))
    return 1;
  if (phase) {
    if (Error e = printLowered(*module, pipeline, *phase, outs()))
      return fail(toString(std::move(e)));
    return 0;
  }
  mlir::FunctionType type = func->getFunctionType();
  if (printStats)
    dlc::collectOpStats(*func).print(outs());
  if (outputPaths.size() > type.getNumResults() ||
      expectPaths.size() > type.getNumResults())
    return fail("the entry function has " + Twine(type.getNumResults()) +
                " outputs, more --output/--expect given");

  Expected<std::vector<Tensor>> inputs = loadInputs(inputSpecs, *func);
  if (!inputs)
    return fail(toString(inputs.takeError()));
  if (Error e = checkInputs(type, *inputs))
    return fail(toString(std::move(e)));

  std::vector<Tensor> outputs;
  if (target == "cpu") {
    auto exe = CPUExecutable::compile(*module, func->getSymName(), pipeline);
    if (!exe)
      return fail(toString(exe.takeError()));
    const CompileTimes &t = (*exe)->compileTimes();
    errs() << format("compile: graph passes %.1f ms, lowering %.1f ms, "
                     "code generation %.1f ms\n",
                     t.graphPassesMs, t.loweringMs, t.codegenMs);
    Expected<std::vector<Tensor>> results = (*exe)->run(*inputs);
    if (!results)
      return fail(toString(results.takeError()));
    outputs = std::move(*results);
  } else {
    mlir::FailureOr<std::vector<Tensor>> results = interpret(*func, *inputs);
    if (failed(results))
      return 1;
    outputs = std::move(*results);
  }

  bool allMatch = true;
  for (auto [i, t] : llvm::enumerate(outputs)) {
    outs() << "output " << i << ": " << t.describe();
    if (printOutput) {
      outs() << " = ";
      int64_t pos = 0;
      printValues(outs(), t, 0, pos);
    } else {
      printSummary(outs(), t);
    }
    outs() << "\n";
    if (i < outputPaths.size())
      if (Error e = writeNpyFile(outputPaths[i], t))
        return fail(toString(std::move(e)));
    if (i < expectPaths.size()) {
      Expected<Tensor> expected = readTensorFile(expectPaths[i]);
      if (!expected)
        return fail(toString(expected.takeError()));
      Comparison c = compareTensors(t, *expected, absTol, relTol);
      if (!c.reason.empty()) {
        outs() << "output " << i << ": MISMATCH with " << expectPaths[i] << ": "
               << c.reason << "\n";
        allMatch = false;
        continue;
      }
      outs() << "output " << i << ": " << (c.match ? "matches " : "MISMATCH with ")
             << expectPaths[i] << " (max abs error " << format("%g", c.maxAbsError)
             << ", max rel error " << format("%g", c.maxRelError);
      if (!c.match)
        outs() << ", " << c.mismatches << " of " << t.size()
               << " elements outside atol " << format("%g", absTol.getValue())
               << " + rtol " << format("%g", relTol.getValue()) << " * |expected|";
      outs() << ")\n";
      allMatch &= c.match;
    }
  }
  if (!allMatch)
    return fail("outputs do not match the expected values");
  return 0;
}
