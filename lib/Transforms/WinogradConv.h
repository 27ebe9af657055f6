//===- WinogradConv.h - 3x3 convolutions by Winograd's algorithm -*- C++ -*-===//
#ifndef DLC_LIB_TRANSFORMS_WINOGRADCONV_H
#define DLC_LIB_TRANSFORMS_WINOGRADCONV_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace dlc {

/// Rewrites each top-level graph.conv2d of `func` that Winograd's F(m x m,
/// 3 x 3) computes (NCHW with OIHW kernels or NHWC with HWIO ones, one
/// group, 3x3, stride and dilation 1, f32, constant weights) into a
/// graph.conv2d_winograd of the same layout whose weights are transformed
/// here, at compile time. The tile is 4 where the output has at
/// least `minTiles` 4 x 4 tiles, else 2 where it has that many 2 x 2 ones;
/// smaller convolutions stay (their products would be too narrow to pay).
/// Records under `pass`: `winograd` (rewritten), `winograd-small` (too few
/// tiles), `winograd-weights` (weights not a constant the pass can read).
void rewriteWinogradConvs(mlir::func::FuncOp func, int64_t minTiles, llvm::StringRef pass);

} // namespace dlc

#endif // DLC_LIB_TRANSFORMS_WINOGRADCONV_H
