//===- dlc-zoo.cpp - write a builtin model as graph-dialect MLIR -----------===//
//
// dlc-zoo NAME -o model.mlirbc [--batch=N] [--image=H] [--seq=L] [--seed=S]
// dlc-zoo --list
//
//===----------------------------------------------------------------------===//
#include "dlc/Runtime/Model.h"
#include "dlc/Zoo/Zoo.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

static cl::opt<std::string> modelName(cl::Positional, cl::desc("<model>"));
static cl::opt<bool> list("list", cl::desc("list the builtin models"));
static cl::opt<std::string> outputPath(
    "o", cl::init("-"),
    cl::desc("output: .mlirbc for bytecode (weights as raw bytes), else text "
             "(weights as hex blobs); - for stdout"));
static cl::opt<int64_t> batch("batch", cl::init(1), cl::desc("batch size"));
static cl::opt<int64_t> image("image", cl::init(0),
                              cl::desc("image height and width (0: default)"));
static cl::opt<int64_t> seqLen("seq", cl::init(128),
                            cl::desc("sequence length of BERT models"));
static cl::opt<uint64_t> seed("seed", cl::init(0), cl::desc("weight seed"));

static int fail(const Twine &message) {
  WithColor::error(errs(), "dlc-zoo") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "dlc-zoo: builtin model builders\n");
  if (list) {
    for (const dlc::zoo::ModelInfo &m : dlc::zoo::models())
      outs() << m.name << "\t" << m.description << "\n";
    return 0;
  }
  if (modelName.empty())
    return fail("give a model name (dlc-zoo --list shows them)");
  mlir::DialectRegistry registry;
  dlc::registerModelDialects(registry);
  mlir::MLIRContext context(registry);
  dlc::zoo::ZooOptions options{batch, image, seqLen, seed};
  auto module = dlc::zoo::buildModel(modelName, context, options);
  if (!module)
    return fail(toString(module.takeError()));
  std::error_code ec;
  ToolOutputFile out(outputPath, ec, sys::fs::OF_None);
  if (ec)
    return fail(outputPath + ": cannot write: " + ec.message());
  if (StringRef(outputPath).ends_with(".mlirbc")) {
    if (mlir::failed(mlir::writeBytecodeToFile(**module, out.os())))
      return fail("cannot write bytecode");
  } else {
    (*module)->print(out.os(), mlir::OpPrintingFlags().enableDebugInfo());
  }
  out.keep();
  return 0;
}
