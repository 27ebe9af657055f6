//===- main.cpp - a program that embeds dlc as a library -------------------===//
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Runtime/Model.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

static const char *kModel = R"mlir(
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  dlc::registerModelDialects(registry);
  mlir::MLIRContext context(registry);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(kModel, &context);
  if (!module)
    return 1;
  auto func = dlc::findEntry(*module, "");
  if (mlir::failed(func))
    return 1;
  dlc::Tensor x(dlc::DType::F32, {3});
  x.data = {1, 2, 3};
  auto outputs = dlc::interpret(*func, {x});
  if (mlir::failed(outputs))
    return 1;
  llvm::outs() << "consumer: graph.add gives [";
  for (size_t i = 0; i < (*outputs)[0].data.size(); ++i)
    llvm::outs() << (i ? ", " : "") << static_cast<int>((*outputs)[0].data[i]);
  llvm::outs() << "]\n";
  return 0;
}
