//===- dlc-opt.cpp - the mlir-opt of dlc -----------------------------------===//
//
// Parses, verifies, transforms and prints graph-dialect IR with the dlc
// dialects and passes plus the upstream ones the project uses.
// `--dlc-pipeline=<O0..O4|default|none|list:A,B,...>` runs catalogue passes by
// their TVM names; `--dlc-disable`/`--dlc-require` gate the O-levels.
//
//===----------------------------------------------------------------------===//
#include "dlc/Conversion/CPUPipeline.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/Graph/GraphDialect.h"
#include "dlc/Transforms/PassLedger.h"
#include "dlc/Transforms/Passes.h"
#include "dlc/Transforms/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

static llvm::cl::opt<bool> dlcPassStats(
    "dlc-pass-stats",
    llvm::cl::desc("print what each graph pass rewrote (to stderr)"));

static llvm::cl::opt<std::string> dlcPipeline(
    "dlc-pipeline",
    llvm::cl::desc("graph passes to run: O0..O4, default (O3), none, or "
                   "list:A,B,... (TVM names or pass flags)"));
static llvm::cl::opt<bool> dlcListPasses(
    "dlc-list-passes",
    llvm::cl::desc("print the pass catalogue (TVM name, flag, opt level) and exit"));
static llvm::cl::list<std::string> dlcDisable(
    "dlc-disable", llvm::cl::CommaSeparated,
    llvm::cl::desc("passes an O-level pipeline skips (TVM disabled_pass)"));
static llvm::cl::list<std::string> dlcRequire(
    "dlc-require", llvm::cl::CommaSeparated,
    llvm::cl::desc("passes an O-level pipeline runs whatever the level "
                   "(TVM required_pass)"));

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<dlc::graph::GraphDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect>();
  dlc::registerCPUCompilerDialects(registry); // + bufferization, scf, memref...
  mlir::registerTransformsPasses(); // canonicalize, cse, inline, symbol-dce...
  dlc::registerPasses();
  dlc::registerDLCConversionPasses();
  auto [inputFile, outputFile] =
      mlir::registerAndParseCLIOptions(argc, argv, "dlc optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (dlcListPasses) {
    for (const dlc::CatalogueEntry &e : dlc::passCatalogue())
      llvm::outs() << e.tvmName << " " << e.flag << " O" << e.optLevel << "\n";
    return 0;
  }
  static std::string spec = dlcPipeline;
  if (spec.empty() && (!dlcDisable.empty() || !dlcRequire.empty()))
    spec = "default";
  if (!dlcDisable.empty())
    spec += ";disable=" + llvm::join(dlcDisable, ",");
  if (!dlcRequire.empty())
    spec += ";require=" + llvm::join(dlcRequire, ",");
  if (!spec.empty()) {
    if (llvm::Error e = dlc::pipelineString(spec).takeError()) {
      llvm::WithColor::error(llvm::errs(), "dlc-opt") << llvm::toString(std::move(e)) << "\n";
      return 1;
    }
    config.setPassPipelineSetupFn([](mlir::PassManager &pm) {
      return mlir::failure(static_cast<bool>(dlc::buildPipeline(spec, pm)));
    });
  }
  std::string error;
  auto input = mlir::openInputFile(inputFile, &error);
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
  if (!ok)
    return 1;
  output->keep();
  return 0;
}
