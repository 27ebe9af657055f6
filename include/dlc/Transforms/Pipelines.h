//===- Pipelines.h - pass catalogue names and pipeline strings --*- C++ -*-===//
//
// The one place that knows every pass by its TVM/paper name and its flag,
// and turns a pipeline spec (`list:A,B,...`, `default`, `none`) into passes.
// Optimization levels and the architecture-aware choice slot in here.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TRANSFORMS_PIPELINES_H
#define DLC_TRANSFORMS_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

namespace dlc {

struct CatalogueEntry {
  llvm::StringRef tvmName;  ///< e.g. "FoldScaleAxis"
  llvm::StringRef flag;     ///< e.g. "graph-fold-scale-axis"
  bool modulePass;          ///< runs on the module, not on each function
};

/// Registers every dlc pass with MLIR's pass registry (idempotent), so that
/// textual pipelines can name them.
void registerPasses();

/// Every pass of the catalogue.
llvm::ArrayRef<CatalogueEntry> passCatalogue();

/// The passes every inference model benefits from (catalogue I).
llvm::StringRef defaultPipelineSpec();

/// The textual MLIR pipeline for a spec: `default`, `none`, or
/// `list:A,B,...` with TVM names or flags. Errors name the unknown entry and
/// list the known ones.
llvm::Expected<std::string> pipelineString(llvm::StringRef spec);

/// Adds the passes of `spec` to `pm` (a module-level pass manager).
llvm::Error buildPipeline(llvm::StringRef spec, mlir::OpPassManager &pm);

} // namespace dlc

#endif // DLC_TRANSFORMS_PIPELINES_H
