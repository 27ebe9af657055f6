//===- Pipelines.h - pass catalogue, optimization levels, pipelines -*- C++ -*-===//
//
// The one place that knows every pass by its TVM/paper name, its flag and
// its TVM opt level, and turns a pipeline spec into passes:
//
//   O0 .. O4          TVM's relay.build sequence gated at that opt level
//                     (FuseOps last); `default` is O3
//   O3;disable=A,B;require=C
//                     with TVM's disabled_pass / required_pass
//   auto[;explain][;disable=A][;require=B][;classes=FILE]
//                     the passes chosen from the model's architecture
//                     (AutoPipeline.h), with the reasons printed on request
//   tuned:DB.jsonl[;explain]
//                     the pass sequence dlc-tune found best for the model
//                     (TuningDatabase.h)
//   list:A,B{opt=1}   the given passes verbatim, in order, with options
//   none              no graph pass
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TRANSFORMS_PIPELINES_H
#define DLC_TRANSFORMS_PIPELINES_H

#include "dlc/Transforms/PassRegistry.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace dlc {

/// Registers every dlc pass with MLIR's pass registry (idempotent), so that
/// textual pipelines can name them.
void registerPasses();

/// One step of the optimization order: a pass, or a TVM Sequential of
/// passes gated one by one.
struct OrderStep {
  llvm::StringRef name;
  llvm::ArrayRef<llvm::StringRef> sequential; ///< empty: the pass itself
  bool inLevels; ///< part of TVM's relay.build sequence (else: auto only)
};

/// The order the O-levels and the auto pipeline run passes in.
llvm::ArrayRef<OrderStep> passOrder();

/// Whether `type` is one `mixed=` takes: f16 or bf16.
bool isMixedPrecisionType(llvm::StringRef type);

/// Whether a graph computed in `mixed` and compiled for `target` gets bf16
/// dot products: bf16 for a CPU (dlc compiles for the host) with
/// AVX512-BF16, where NHWC im2col products of bf16 and dense layers take
/// them. O3 and auto then choose NHWC convolutions without Winograd.
bool takesBF16Dots(llvm::StringRef mixed, llvm::StringRef target = "cpu");

/// `passes` with each AlterOpLayout that names no target description given
/// `target`'s: AlterOpLayout's default is the builtin `cpu`, which depends
/// on the host (its bf16 convolutions NHWC with AVX512-BF16); a compile for
/// `cuda` takes the GPU's, whatever the host.
std::vector<std::string> withTargetLayouts(std::vector<std::string> passes,
                                           llvm::StringRef target);

/// `passes` (`list:` items) with the graph computed in `type` (f16, bf16)
/// where it is safe: ToMixedPrecision (function results kept in their
/// types; for a CPU `target`, grouped convolutions in f32) and a
/// FoldConstant converting the weights, before FuseOps (at the end if
/// there is none).
std::vector<std::string> withMixedPrecision(std::vector<std::string> passes,
                                            llvm::StringRef type, llvm::StringRef target);

/// The pipeline a model gets when nobody chooses: O3 (the CF'22 baseline).
llvm::StringRef defaultPipelineSpec();

/// A parsed spec: `base` (O0..O4, none, list:...) and TVM's disabled_pass /
/// required_pass names.
struct PipelineSpec {
  std::string base;
  std::vector<std::string> disabled, required;
  bool explain = false; ///< auto: print every pass considered and why
  std::string classes;  ///< auto: the architecture class rules file
  std::string mixed;    ///< O0..O4, auto: f16 or bf16 (ToMixedPrecision before FuseOps)
  /// O0..O4: a target description (`cublas`, a file) whose ops are
  /// partitioned for it before FuseOps (AnnotateTarget, MergeCompilerRegions,
  /// PartitionGraph).
  std::string external;
  /// O0..O4: the target description (`cpu-nhwc`, a file) whose layouts
  /// AlterOpLayout gives the convolutions (its `target`), instead of
  /// `cpu`'s (NCHW). Unset with `mixed=bf16` for a CPU with AVX512-BF16:
  /// `cpu-nhwc` (NHWC convolutions of bf16 are dot products there).
  std::string layout;
  /// The textual form, `base[;disable=A,B][;require=C][;explain][;classes=F]
  /// [;mixed=T][;external=T][;layout=T]`.
  std::string str() const;
};
llvm::Expected<PipelineSpec> parsePipelineSpec(llvm::StringRef text);

/// The textual MLIR pipeline for a spec. Errors name the unknown pass, level
/// or option.
llvm::Expected<std::string> pipelineString(llvm::StringRef spec);

/// The passes of an O-level, `list:` or `none` spec as `list:` items
/// (`FuseOps{fuse-opt-level=3}`), for the CPU; an error for specs whose
/// passes depend on the model (auto, tuned:).
llvm::Expected<std::vector<std::string>> pipelinePasses(llvm::StringRef spec);

/// Adds the passes of `spec` to `pm` (a module-level pass manager), for
/// code compiled for `target` (cpu or cuda: auto applies dlc's CPU
/// measurements to cpu only).
llvm::Error buildPipeline(llvm::StringRef spec, mlir::OpPassManager &pm,
                          llvm::StringRef target = "cpu");

} // namespace dlc

#endif // DLC_TRANSFORMS_PIPELINES_H
