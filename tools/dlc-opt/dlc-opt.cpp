//===- dlc-opt.cpp - the mlir-opt of dlc -----------------------------------===//
//
// Parses, verifies, transforms and prints graph-dialect IR with the dlc
// dialects and passes plus the upstream ones the project uses.
//
//===----------------------------------------------------------------------===//
#include "dlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<dlc::graph::GraphDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect,
                  mlir::linalg::LinalgDialect>();
  mlir::registerTransformsPasses(); // canonicalize, cse, inline, symbol-dce...
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "dlc optimizer driver\n", registry));
}
