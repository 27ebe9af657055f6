//===- dlc-import.cpp - ONNX model to graph-dialect MLIR -------------------===//
//
// dlc-import model.onnx -o model.mlir [--input-shape=name:1x3x224x224 ...]
// Exit codes: 0 imported, 1 error, 3 valid ONNX that dlc does not support.
//
//===----------------------------------------------------------------------===//
#include "dlc/Frontend/ONNX.h"
#include "dlc/Runtime/Model.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

static cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                                      cl::desc("<model.onnx>"));
static cl::opt<std::string> outputPath("o", cl::init("-"),
                                       cl::desc("output .mlir (or .mlirbc for "
                                                "bytecode); - for stdout"));
static cl::list<std::string>
    inputShapes("input-shape", cl::desc("static shape of an input: name:DxDx..."));

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "dlc-import: ONNX to graph dialect\n");
  dlc::OnnxImportOptions options;
  for (const std::string &spec : inputShapes)
    if (Error e = dlc::parseInputShape(spec, options)) {
      WithColor::error(errs(), "dlc-import") << toString(std::move(e)) << "\n";
      return 1;
    }
  mlir::DialectRegistry registry;
  dlc::registerModelDialects(registry);
  mlir::MLIRContext context(registry);
  auto module = dlc::importOnnxFile(inputPath, context, options);
  if (!module) {
    int code = 1;
    handleAllErrors(module.takeError(), [&](const dlc::OnnxImportError &e) {
      WithColor::error(errs(), "dlc-import") << e.message << "\n";
      code = e.unsupported ? 3 : 1;
    });
    return code;
  }
  std::error_code ec;
  auto out = std::make_unique<ToolOutputFile>(outputPath, ec, sys::fs::OF_None);
  if (ec) {
    WithColor::error(errs(), "dlc-import")
        << outputPath << ": cannot write: " << ec.message() << "\n";
    return 1;
  }
  if (StringRef(outputPath).ends_with(".mlirbc")) {
    if (mlir::failed(mlir::writeBytecodeToFile(**module, out->os())))
      return 1;
  } else {
    // Locations carry the ONNX node names: keep them in the text.
    (*module)->print(out->os(), mlir::OpPrintingFlags().enableDebugInfo());
  }
  out->keep();
  return 0;
}
