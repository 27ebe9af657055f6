//===- TuningDatabase.h - pass sequences measured by dlc-tune ---*- C++ -*-===//
//
// dlc-tune's results: an append-only JSON-lines file, one record per line,
// each with its provenance, so that a database grows over tuning runs, hosts
// and dlc versions and is never rewritten. A record belongs to the model whose
// structure fingerprint it carries (weights excluded, as MetaSchedule's
// `ignore-ndarray`: retrained weights keep their tuning). `tuned:DB.jsonl`
// (Pipelines.h) replays the latest `best` record of the model, preferring
// confirmed ones and this host's CPU.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TRANSFORMS_TUNINGDATABASE_H
#define DLC_TRANSFORMS_TUNINGDATABASE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dlc {

struct TuningRecord {
  /// `baseline` (O3, what ratios are measured against), `candidate` (one
  /// measured sequence), `confirm` (a leading candidate measured again,
  /// longer) or `best` (the run's choice, what `tuned:` replays).
  std::string kind;
  std::string runId;    ///< one tuning run (its start time and process)
  std::string model;    ///< the path it was tuned from
  std::string structure; ///< the model's fingerprint without weights: the key
  std::string weights;   ///< with weights
  std::vector<std::string> classes; ///< the classifier's CF'22 tags
  /// random, greedy or exhaustive; seed-auto and seed-db (auto's sequence and
  /// the database's earlier bests, tried first); O3 for the baseline.
  std::string strategy;
  int64_t index = 0;    ///< the candidate's number in its run
  std::vector<std::string> sequence; ///< `list:` items, in order
  std::string irAfter;  ///< the structure fingerprint after the sequence
  std::string status = "ok"; ///< ok, error (failed to compile or run) or mismatch
  std::string error;
  /// A sequence reaching a measured graph with fewer passes: the latency
  /// figures are that candidate's (its index), the pass time its own.
  int64_t sameGraphAs = -1;
  /// A `best` chosen among candidates measured again (not an interrupted
  /// run's or one with --confirm=0).
  bool confirmed = false;
  double graphPassesMs = 0, loweringMs = 0, codegenMs = 0, compileMs = 0;
  double p50Ms = 0, cv = 0;
  int64_t samples = 0;
  /// Latency over O3's, measured side by side: the median of per-round
  /// ratios and its 95% confidence interval.
  double latencyRatio = 1, latencyLow = 1, latencyHigh = 1;
  int64_t rounds = 0;
  double compileRatio = 1; ///< total compile time over O3's
  std::string objective;   ///< latency, compile or mix:W
  double score = 1;        ///< under `objective`: lower is better
  int64_t threads = 1;     ///< CPU threads the code ran on
  std::string hostCpu, dlcVersion, llvmVersion, date;

  /// The precision the run tuned for: f32, or `dlc-tune --mixed`'s type.
  /// Its best may be O3's f32 sequence (nothing in that type beat it).
  /// Records without the field: their sequence's (sequencePrecision).
  std::string precision = "f32";

  /// `list:A,B,...` (`none` when empty).
  std::string spec() const;
  /// The type `sequence` computes in where it is safe: its
  /// ToMixedPrecision item's (f16 when that names none), else f32.
  static std::string sequencePrecision(llvm::ArrayRef<std::string> sequence);
};

/// Appends `record` as one line (one write: concurrent tuners may share a
/// file).
llvm::Error appendTuningRecord(llvm::StringRef path, const TuningRecord &record);

/// Every record of the file; errors name the file and line. A missing file
/// is an error too; a last line without its newline that does not parse (a
/// write cut short) is skipped.
llvm::Expected<std::vector<TuningRecord>> readTuningDatabase(llvm::StringRef path);

/// The record `tuned:` replays for the model `structure` tuned for
/// `precision` (TuningRecord::precision): the latest `best` one, preferring, in this
/// order, confirmed ones made on `hostCpu`, others made there, confirmed
/// ones made anywhere; null when none.
const TuningRecord *findTunedRecord(llvm::ArrayRef<TuningRecord> records,
                                    llvm::StringRef structure, llvm::StringRef hostCpu,
                                    llvm::StringRef precision);

} // namespace dlc

#endif // DLC_TRANSFORMS_TUNINGDATABASE_H
