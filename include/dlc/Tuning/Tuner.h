//===- Tuner.h - pass-order search in the class-pruned space ----*- C++ -*-===//
//
// What `dlc-tune` does. The model is classified; the passes searched are
// the detected classes' (AutoPipeline.h classPassSpace), less those a probe
// finds dormant on this model; passes that run last (FuseOps, as TVM's build
// fuses after the graph passes) end every sequence. Strategies propose
// sequences: random (the CF'22 study's PO-x), greedy construction and
// exhaustive enumeration of the distinct graphs reachable in a bounded number
// of passes. A sequence whose graph (fingerprint with weights) was measured
// already is not compiled or measured again.
//
// Each new graph is compiled for the CPU (compile cache off: its compile
// time is a cold one), its outputs checked against O3's, and its latency
// measured side by side with O3's: rounds of a few runs each, alternating
// the two (ABBA), the median of the per-round latency ratios with its 95%
// confidence interval (order statistics) as the figure. After the search,
// the leading candidates are measured again, longer, and the best of those
// is the run's choice. Every figure goes to the tuning database
// (TuningDatabase.h) as it is made, so an interrupted run keeps them.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TUNING_TUNER_H
#define DLC_TUNING_TUNER_H

#include "dlc/Runtime/Tensor.h"
#include "dlc/Tuning/Objective.h"
#include "dlc/Transforms/TuningDatabase.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace dlc {

/// Success for random, greedy and exhaustive; else what is expected.
llvm::Error checkStrategy(llvm::StringRef strategy);

struct TuneOptions {
  std::string strategy = "random"; ///< random, greedy or exhaustive
  Objective objective;
  int64_t budgetCandidates = 0; ///< candidates measured (0: no bound)
  /// Search time (0: no bound), from the first seed on; O3's measurement
  /// before and the confirmation after are not counted.
  double budgetSeconds = 0;
  /// Passes in a sequence (FuseOps aside); exhaustive: its depth (dlc-tune
  /// passes 2 for it unless told).
  int64_t maxLength = 8;
  uint64_t seed = 1;
  int64_t threads = 1;        ///< CPU threads the compiled code runs on
  unsigned compileThreads = 0; ///< code generation threads (0: all cores)
  int64_t rounds = 7;         ///< latency rounds per candidate
  int64_t confirm = 3;        ///< leading candidates measured again
  int64_t confirmRounds = 15;
  double atol = 1e-3, rtol = 1e-3; ///< outputs against O3's
  /// f16 or bf16: every candidate computes the graph in this type where it
  /// is safe (ToMixedPrecision and FoldConstant before FuseOps, as the
  /// pipeline's `mixed=`); O3 in f32 stays the baseline, so atol and rtol
  /// bound the precision the user gives up. Empty: f32.
  std::string mixed;
  /// What the run tunes for, and its records say: `mixed`, or f32.
  std::string precision() const { return mixed.empty() ? "f32" : mixed; }
  bool seeds = true; ///< also try auto's sequence and the database's earlier bests
  std::string classesPath; ///< architecture class rules ("": the default)
  std::string dbPath;
  std::string modelPath; ///< for the records
  /// The SourceMgr the model was loaded with: compiles read the weights in
  /// its buffers there (compileForCPU's `weightsSource`).
  std::shared_ptr<const llvm::SourceMgr> weightsSource;
};

/// `dlc-tune --space`: for each class of `rulesPath`, the catalogue's space
/// and the class-pruned one.
llvm::Error printClassSpaces(llvm::StringRef rulesPath, int64_t maxLength,
                             llvm::raw_ostream &os);

struct TuneSummary {
  int64_t generated = 0;    ///< sequences the strategy proposed
  int64_t measured = 0;     ///< compiled and measured (failures included)
  int64_t deduplicated = 0; ///< not measured: their graph had been
  int64_t failed = 0;       ///< did not compile, run or match O3
  bool interrupted = false;
  TuningRecord best;
  std::vector<TuningRecord> ranked; ///< measured candidates, best first
};

/// Searches pass sequences for `entry` of `model` on `inputs`, appending
/// every record to `options.dbPath`. Progress lines go to `progress`; the
/// search stops early, keeping what it measured, once `*stop` is set.
llvm::Expected<TuneSummary> tune(mlir::ModuleOp model, llvm::StringRef entry,
                                 llvm::ArrayRef<Tensor> inputs, const TuneOptions &options,
                                 const std::atomic<bool> *stop, llvm::raw_ostream &progress,
                                 llvm::raw_ostream &report);

} // namespace dlc

#endif // DLC_TUNING_TUNER_H
