//===- fuzz-mlir.cpp - libFuzzer target: graph IR through the pipeline ----===//
//
// Arbitrary bytes as MLIR text in the graph dialect: parsed, verified and,
// when valid, run through the default graph pipeline (O3). Each step either
// succeeds or reports a diagnostic; a crash, a hang or a sanitizer report is
// a bug. Inputs are bounded so that a valid but enormous model does not
// time out the search.
//
//===----------------------------------------------------------------------===//
#include "dlc/Runtime/Model.h"
#include "dlc/Transforms/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 16384)
    return 0;
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    dlc::registerModelDialects(*r);
    dlc::registerPasses();
    return r;
  }();
  mlir::MLIRContext context(*registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) { return mlir::success(); });
  // NUL-terminated, as every file MLIR reads is (its lexer relies on it).
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  mlir::PassManager pm(&context);
  if (llvm::Error e = dlc::buildPipeline(dlc::defaultPipelineSpec(), pm)) {
    llvm::consumeError(std::move(e));
    return 0;
  }
  (void)pm.run(*module);
  return 0;
}
