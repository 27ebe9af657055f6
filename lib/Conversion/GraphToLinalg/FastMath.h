//===- FastMath.h - FastMath's cheap approximations ------------*- C++ -*-===//
//
// Scalar f32 bodies for graph.fast_exp, fast_erf and fast_tanh (TVM TOPI's
// fast_exp, fast_erf, fast_tanh): plain arithmetic that vectorizes, less
// accurate than the math dialect's functions. Other element types get the
// exact math op.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_CONVERSION_GRAPHTOLINALG_FASTMATH_H
#define DLC_LIB_CONVERSION_GRAPHTOLINALG_FASTMATH_H

#include "mlir/IR/Builders.h"

namespace dlc {
mlir::Value fastExp(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);
mlir::Value fastErf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);
mlir::Value fastTanh(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);
} // namespace dlc

#endif // DLC_LIB_CONVERSION_GRAPHTOLINALG_FASTMATH_H
