//===- LayoutRewriter.h - run ops in wanted layouts -------------*- C++ -*-===//
//
// What AlterOpLayout and ConvertLayout share: convolutions are rewritten into
// the layouts a table asks for, layout-agnostic ops that read a converted
// value follow it into the new layout, and graph.layout_transform stays only
// at the boundaries.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_TRANSFORMS_LAYOUTREWRITER_H
#define DLC_LIB_TRANSFORMS_LAYOUTREWRITER_H

#include "dlc/Transforms/TargetDescription.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace dlc {

/// Rewrites `func`'s top-level ops (regions are left alone) so that every
/// graph.conv2d has the layouts `target` wants for its class, as described
/// above, and records the counters in the pass ledger under `pass`:
/// `converted` (convolutions rebuilt), `followed` (agnostic ops moved),
/// `constants` (transformed at compile time), `transforms` (left at
/// boundaries), `unsupported` (wanted layouts no backend compiles). Leaves
/// `func` unchanged when nothing asks for a new layout.
mlir::LogicalResult rewriteLayouts(mlir::func::FuncOp func, const TargetDescription &target,
                                   llvm::StringRef pass);

/// The op class of a graph.conv2d in a target description: `conv2d`,
/// `conv2d.bf16`, `conv2d.depthwise` or `conv2d.grouped`.
llvm::StringRef convClass(mlir::Operation *conv);

} // namespace dlc

#endif // DLC_LIB_TRANSFORMS_LAYOUTREWRITER_H
