//===- AutoPipeline.h - the pipeline chosen from the architecture -*- C++ -*-===//
//
// `auto`: the model is classified (dlc/Analysis/Classifier.h); the passes
// are O3's plus the CF'22 passes of the detected classes, in the order of
// passOrder(), less those whose anchor ops cannot be in the graph when they
// run (checked before running: they cost nothing), those dlc measured
// dormant on every detected class, class passes beyond O3 that dlc measured
// to cost compile time for no speed-up there, those that never change
// dlc's IR and those the user disabled. A graph no class fits gets O3's passes (the
// same choice `auto` makes when it cannot tell). Every pass considered is
// kept with the reason it was chosen or skipped.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TRANSFORMS_AUTOPIPELINE_H
#define DLC_TRANSFORMS_AUTOPIPELINE_H

#include "dlc/Analysis/Classifier.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace dlc {

struct AutoDecision {
  std::string pass; ///< TVM name
  bool chosen = false;
  std::string reason;
};

struct AutoPipeline {
  Classification classification;
  std::vector<AutoDecision> decisions; ///< in order, every pass considered
  /// The chosen passes as a pipeline spec (`list:A,B,...`).
  std::string spec;
};

/// Chooses the passes for `module` by `rules`. `disabled` passes are
/// skipped and `required` ones chosen whatever the classes say (TVM
/// names); with `mixed` (f16, bf16), the graph is computed in it where safe
/// (withMixedPrecision). dlc's own measurements of passes and options
/// (the registry's measuredOn) are the CPU's: for another `target` (cuda)
/// only the CF'22 classes and O3 choose.
AutoPipeline chooseAutoPipeline(mlir::ModuleOp module, const ClassRules &rules,
                                llvm::ArrayRef<std::string> disabled = {},
                                llvm::ArrayRef<std::string> required = {},
                                llvm::StringRef mixed = "", llvm::StringRef target = "cpu");

/// The passes worth running on models of the CF'22 classes `tags`: O3's
/// and the classes' passes, less those that never change dlc's IR and those
/// dlc measured dormant, or without a speed-up for their compile time, on
/// every one of the classes (without a class, O3's), each once, in the
/// optimization order. `dlc-tune` searches their orders; auto runs them less
/// the ones a model's ops rule out. With `mixed` (f16, bf16), the options
/// auto takes for a graph computed in it on this host.
struct PassSpace {
  std::vector<std::string> passes; ///< TVM names
  std::vector<std::pair<std::string, std::string>> excluded; ///< pass, why
};
PassSpace classPassSpace(llvm::ArrayRef<std::string> tags, llvm::StringRef mixed = "");

/// `--dlc-explain`: the classes, then every pass with its reason.
void printAutoPipeline(const AutoPipeline &p, llvm::raw_ostream &os);

} // namespace dlc

#endif // DLC_TRANSFORMS_AUTOPIPELINE_H
