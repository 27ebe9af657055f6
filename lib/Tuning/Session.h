//===- Session.h - one tuning run: the space, candidates, records -*- C++ -*-===//
//
// What every search strategy shares: the pruned space, the O3 baseline,
// evaluating a candidate (deduplicated by the fingerprint of its graph),
// the budget and the records. Search.cpp holds the strategies.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_TUNING_SESSION_H
#define DLC_LIB_TUNING_SESSION_H

#include "dlc/Runtime/Bench.h"
#include "dlc/Runtime/CPUExecutable.h"
#include "dlc/Runtime/OutputCheck.h"
#include "dlc/Tuning/Tuner.h"

#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <chrono>
#include <deque>
#include <memory>

namespace dlc {

/// A candidate measured (or that failed), by the fingerprint of its graph.
struct Measured {
  TuningRecord record;
  std::string fingerprint; ///< with weights, after the whole sequence
  /// A sequence reaching the same graph with fewer passes came later.
  bool superseded = false;
  bool ok() const { return record.status == "ok"; }
};

class Session {
public:
  Session(mlir::ModuleOp model, llvm::StringRef entry, llvm::ArrayRef<Tensor> inputs,
          const TuneOptions &options, const std::atomic<bool> *stop,
          llvm::raw_ostream &progress);

  /// Classifies the model, prunes the space, compiles and measures O3.
  llvm::Error start(llvm::raw_ostream &report);
  /// Tries the database's earlier bests for the model, newest first, then
  /// auto's sequence. The search (and its time budget) starts here.
  void seed();

  /// The passes strategies choose from (the last ones aside: they end
  /// every sequence on their own).
  llvm::ArrayRef<std::string> alphabet() const { return passes; }
  const TuneOptions &opts() const { return options; }
  /// `sequence` with the last passes it lacks appended.
  std::vector<std::string> complete(llvm::ArrayRef<std::string> sequence) const;
  /// The measured result the graph of `sequence` (the last passes
  /// appended) gets, measuring it unless that graph was: null when the
  /// budget is spent or the user stopped the run.
  const Measured *evaluate(llvm::ArrayRef<std::string> sequence, llvm::StringRef strategy);
  /// The same for a graph already transformed by `sequence` (in
  /// `passesMs`), the last passes not yet run: exhaustive enumeration
  /// builds graphs pass by pass.
  const Measured *evaluatePrefix(llvm::ArrayRef<std::string> sequence, mlir::ModuleOp graph,
                                 double passesMs, llvm::StringRef strategy);
  /// Records a sequence whose passes failed.
  const Measured *recordFailure(llvm::ArrayRef<std::string> sequence, llvm::StringRef strategy,
                                const llvm::Twine &error);
  /// A copy of `graph` with `pass` run on it, and the time that took; an
  /// error when the pass fails.
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> apply(mlir::ModuleOp graph,
                                                          llvm::StringRef pass, double &ms);
  /// The input model, unchanged.
  mlir::ModuleOp model() const { return input; }

  /// The budget is spent or the user stopped the run.
  bool exhausted() const;
  bool interrupted() const { return stop && *stop; }
  /// A sequence proposed whose graph had been measured, or was reached
  /// while building graphs pass by pass.
  void countDeduplicated() { ++summary.deduplicated; }
  void countGenerated() { ++summary.generated; }
  int64_t measuredCount() const { return summary.measured; }

  /// Measures the leading candidates again and writes the run's best.
  llvm::Expected<TuneSummary> finish(llvm::raw_ostream &report);

private:
  /// `graph`, the result of the whole `sequence`, unless it was measured.
  const Measured *consider(llvm::ArrayRef<std::string> sequence, mlir::ModuleOp graph,
                           double passesMs, llvm::StringRef strategy);
  llvm::Error runPasses(mlir::ModuleOp graph, llvm::StringRef spec, double &ms);
  /// Compiles, checks and measures `graph` into `m.record` (status
  /// `interrupted` when Ctrl-C cut the measurement short).
  void measure(mlir::ModuleOp graph, double passesMs, int64_t rounds, Measured &m);
  /// Records `m` (a failure or a result) and prints its line.
  const Measured *keep(Measured m);
  TuningRecord newRecord(llvm::StringRef kind, llvm::StringRef strategy,
                         llvm::ArrayRef<std::string> sequence) const;
  void write(const TuningRecord &record);
  void printProgress(const Measured &m);
  void printProgress(llvm::StringRef strategy, const llvm::Twine &what);
  llvm::Error probeDormant(llvm::raw_ostream &report);

  mlir::ModuleOp input;
  std::string entry;
  llvm::ArrayRef<Tensor> inputs;
  TuneOptions options;
  const std::atomic<bool> *stop;
  llvm::raw_ostream &progress;
  std::chrono::steady_clock::time_point started, searchStarted;

  std::string structure, weights, runId;
  std::vector<std::string> tags;
  std::string autoSpec; ///< auto's choice for the model
  std::string autoFingerprint; ///< the graph auto's passes make, once measured
  std::vector<std::string> passes;     ///< the alphabet
  std::vector<std::string> lastPasses; ///< end every sequence
  std::unique_ptr<CPUExecutable> baseline;
  std::vector<Tensor> expected; ///< O3's outputs
  std::vector<DetectionOutputs> detections; ///< which of them are compared as sets
  int64_t runsPerRound = 1;
  Estimate noiseFloor; ///< O3 against itself
  /// Every graph measured: results[0] is O3. (A deque: strategies keep
  /// pointers to results while new ones come.)
  std::deque<Measured> results;
  llvm::StringMap<size_t> byFingerprint;
  TuneSummary summary;
  std::string dbError; ///< the first failure to write the database
};

/// The strategies (Search.cpp): each proposes sequences until the space or
/// the budget is exhausted.
void searchRandom(Session &session);
void searchGreedy(Session &session);
void searchExhaustive(Session &session);

} // namespace dlc

#endif // DLC_LIB_TUNING_SESSION_H
