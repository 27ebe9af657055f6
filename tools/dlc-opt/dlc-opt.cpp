//===- dlc-opt.cpp - the mlir-opt of dlc -----------------------------------===//
//
// Parses, verifies, transforms and prints graph-dialect IR with the dlc
// dialects and passes plus the upstream ones the project uses.
// `--dlc-pipeline=<O0..O4|default|none|list:A,B,...>` runs catalogue passes by
// their TVM names; `--dlc-disable`/`--dlc-require` gate the O-levels.
//
//===----------------------------------------------------------------------===//
#include "dlc/Analysis/Classifier.h"
#include "dlc/Conversion/GPUPipeline.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/Graph/GraphDialect.h"
#include "dlc/Transforms/PassLedger.h"
#include "dlc/Transforms/Passes.h"
#include "dlc/Transforms/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

static llvm::cl::opt<bool> dlcPassStats(
    "dlc-pass-stats",
    llvm::cl::desc("print what each graph pass rewrote (to stderr)"));

static llvm::cl::opt<std::string> dlcPipeline(
    "dlc-pipeline",
    llvm::cl::desc("graph passes to run: O0..O4, default (O3), auto (chosen from the "
                   "model's architecture), none, or list:A,B,... (TVM names or pass flags)"));
static llvm::cl::opt<bool> dlcListPasses(
    "dlc-list-passes",
    llvm::cl::desc("print the pass registry (TVM name, flag, opt level, CF'22 classes, "
                   "anchor ops, ...) and exit"));
static llvm::cl::opt<bool> dlcExplain(
    "dlc-explain", llvm::cl::desc("with --dlc-pipeline=auto: print every pass considered, "
                                  "chosen or skipped, with the reason"));
static llvm::cl::opt<bool> dlcClassify(
    "dlc-classify",
    llvm::cl::desc("print the input's architecture classes, their evidence and the "
                   "graph's features, and exit"));
static llvm::cl::opt<std::string> dlcClasses(
    "dlc-classes", llvm::cl::desc("architecture class rules (JSON; default: "
                                  "$DLC_ARCH_CLASSES or share/dlc/ArchitectureClasses.json)"));
static llvm::cl::opt<std::string> dlcPassLedger(
    "dlc-pass-ledger",
    llvm::cl::desc("with --dlc-pipeline: write every pass run (time, op counts, IR "
                   "fingerprints before and after, changed or not) to this JSON file"));
static llvm::cl::opt<bool> jsonOutput(
    "json", llvm::cl::desc("with --dlc-list-passes or --dlc-classify: print JSON"));
static llvm::cl::list<std::string> dlcDisable(
    "dlc-disable", llvm::cl::CommaSeparated,
    llvm::cl::desc("passes an O-level pipeline skips (TVM disabled_pass)"));
static llvm::cl::list<std::string> dlcRequire(
    "dlc-require", llvm::cl::CommaSeparated,
    llvm::cl::desc("passes an O-level pipeline runs whatever the level "
                   "(TVM required_pass)"));

static dlc::PassLedger ledger;

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "dlc-opt") << message << "\n";
  return 1;
}

/// --dlc-classify: the input's classes and features, as text or JSON.
static int classifyInput(llvm::StringRef inputFile, mlir::DialectRegistry &registry) {
  std::string path = dlcClasses.empty() ? dlc::defaultClassRulesPath() : dlcClasses.getValue();
  llvm::Expected<dlc::ClassRules> rules = dlc::loadClassRules(path);
  if (!rules)
    return fail(llvm::toString(rules.takeError()));
  std::string error;
  auto input = mlir::openInputFile(inputFile, llvm::Align(64), &error);
  if (!input)
    return fail(error);
  mlir::MLIRContext context(registry);
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sources, &context);
  if (!module)
    return 1; // the parser reported where
  dlc::GraphFeatures features = dlc::computeFeatures(*module);
  dlc::Classification c = dlc::classify(features, *rules);
  if (jsonOutput)
    llvm::outs() << llvm::formatv("{0:2}", dlc::classificationToJSON(c, features)) << "\n";
  else
    dlc::printClassification(c, features, llvm::outs());
  return 0;
}

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<dlc::graph::GraphDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect>();
  dlc::registerGPUCompilerDialects(registry); // + bufferization, scf, memref, gpu...
  mlir::registerTransformsPasses(); // canonicalize, cse, inline, symbol-dce...
  dlc::registerPasses();
  dlc::registerDLCConversionPasses();
  auto [inputFile, outputFile] =
      mlir::registerAndParseCLIOptions(argc, argv, "dlc optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  // `-o model.mlirbc` writes bytecode (weights as raw bytes), as dlc-zoo and
  // dlc-import do; other names get text unless --emit-bytecode says so.
  if (llvm::StringRef(outputFile).ends_with(".mlirbc"))
    config.emitBytecode(true);
  if (dlcListPasses) {
    if (jsonOutput)
      llvm::outs() << llvm::formatv("{0:2}", dlc::passCatalogueToJSON()) << "\n";
    else
      dlc::printPassCatalogue(llvm::outs());
    return 0;
  }
  if (dlcClassify)
    return classifyInput(inputFile, registry);
  static std::string spec = dlcPipeline;
  if (spec.empty() && (!dlcDisable.empty() || !dlcRequire.empty()))
    spec = "default";
  if (!dlcDisable.empty())
    spec += ";disable=" + llvm::join(dlcDisable, ",");
  if (!dlcRequire.empty())
    spec += ";require=" + llvm::join(dlcRequire, ",");
  if (dlcExplain) {
    if (spec.empty())
      return fail("--dlc-explain explains --dlc-pipeline=auto; no pipeline was given");
    spec += ";explain";
  }
  if (!dlcClasses.empty() && !spec.empty())
    spec += ";classes=" + dlcClasses;
  if (!spec.empty()) {
    if (llvm::Error e = dlc::pipelineString(spec).takeError()) {
      llvm::WithColor::error(llvm::errs(), "dlc-opt") << llvm::toString(std::move(e)) << "\n";
      return 1;
    }
    config.setPassPipelineSetupFn([](mlir::PassManager &pm) {
      if (!dlcPassLedger.empty())
        ledger.attach(pm);
      return mlir::failure(static_cast<bool>(dlc::buildPipeline(spec, pm)));
    });
  } else if (!dlcPassLedger.empty()) {
    return fail("--dlc-pass-ledger records the passes of --dlc-pipeline; none was given");
  }
  std::string error;
  auto input = mlir::openInputFile(inputFile, llvm::Align(64), &error);
  if (!input) {
    llvm::WithColor::error(llvm::errs(), "dlc-opt") << error << "\n";
    return 1;
  }
  auto output = mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::WithColor::error(llvm::errs(), "dlc-opt") << error << "\n";
    return 1;
  }
  bool ok = mlir::succeeded(
      mlir::MlirOptMain(output->os(), std::move(input), registry, config));
  if (dlcPassStats)
    dlc::printPassStats(llvm::errs());
  if (!dlcPassLedger.empty()) {
    ledger.printSummary(llvm::errs());
    if (llvm::Error e = ledger.write(dlcPassLedger))
      return fail(llvm::toString(std::move(e)));
  }
  if (!ok)
    return 1;
  output->keep();
  return 0;
}
