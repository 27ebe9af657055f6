//===- Passes.h - the dlc graph pass catalogue ------------------*- C++ -*-===//
#ifndef DLC_TRANSFORMS_PASSES_H
#define DLC_TRANSFORMS_PASSES_H

#include "dlc/Dialect/Graph/GraphDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace dlc {

#define GEN_PASS_DECL
#include "dlc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dlc/Transforms/Passes.h.inc"

// Patterns of the passes, for pipelines and other passes to reuse.
void populateSimplifyInferencePatterns(mlir::RewritePatternSet &patterns);
/// `skippedLarge`, when given, counts folds refused for size; `onBytes`
/// the folds computed on the constants' bytes (foldOnBytes) rather than by
/// the interpreter.
void populateFoldConstantPatterns(mlir::RewritePatternSet &patterns,
                                  int64_t sizeLimit = 1 << 16,
                                  int64_t *skippedLarge = nullptr,
                                  bool foldQnn = false, int64_t *onBytes = nullptr);
void populateBackwardFoldScaleAxisPatterns(mlir::RewritePatternSet &patterns);
void populateForwardFoldScaleAxisPatterns(mlir::RewritePatternSet &patterns);
void populateFoldExplicitPaddingPatterns(mlir::RewritePatternSet &patterns);
void populateSimplifyExprPatterns(mlir::RewritePatternSet &patterns);
void populateCanonicalizeOpsPatterns(mlir::RewritePatternSet &patterns);
void populateCanonicalizeCastPatterns(mlir::RewritePatternSet &patterns);
void populateDynamicToStaticPatterns(mlir::RewritePatternSet &patterns);

} // namespace dlc

#endif // DLC_TRANSFORMS_PASSES_H
