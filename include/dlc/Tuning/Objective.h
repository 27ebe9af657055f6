//===- Objective.h - what dlc-tune scores, and how it chooses ---*- C++ -*-===//
//
// The arithmetic of a tuning run, apart from the session that measures:
// the objective a candidate is scored by, the size of a search space, and
// the rule that picks the run's best among the measured candidates. No
// MLIR, no compiler: unittests/TuningTest.cpp tests it with figures chosen
// by hand.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TUNING_OBJECTIVE_H
#define DLC_TUNING_OBJECTIVE_H

#include "dlc/Transforms/TuningDatabase.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dlc {

/// What a candidate is scored by (lower is better), from its latency and
/// compile time over O3's: `latency`, `compile`, or `mix:W`,
/// W * latency + (1 - W) * compile.
struct Objective {
  enum Kind { Latency, Compile, Mix } kind = Latency;
  double weight = 1; ///< of latency, for Mix
  double score(double latencyRatio, double compileRatio) const;
  std::string str() const;
};
/// `latency`, `compile` or `mix:W` (W in [0, 1]); errors say what is expected.
llvm::Expected<Objective> parseObjective(llvm::StringRef text);

/// Sizes of a search space: passes, and sequences of up to `maxLength`
/// of them (repeats allowed).
struct SpaceSize {
  int64_t passes = 0;
  double sequences = 0;
};
SpaceSize spaceSize(int64_t passes, int64_t maxLength);

/// How much faster a candidate must compile, of two equal within noise in
/// latency, to be chosen for it: one cold compile varies by about 10% on a
/// shared machine (SSD-ResNet50: 1.83-2.04 s for one pipeline).
constexpr double kCompileMargin = 0.1;

/// The run's choice among `pool`, whose first record is O3's: the index
/// of the lowest score. Under the latency objective, the records whose
/// latency intervals overlap the lowest one's (equal within noise) and whose
/// score is not above O3's are tied; of them the choice is `incumbent`
/// (auto's graph, when measured) if it is tied, else the lowest, unless
/// another compiles faster by more than kCompileMargin. (Without the bound
/// at O3, sequences that skip passes, the fastest to compile but slightly
/// slower to run, won whenever noise widened the intervals; without the
/// incumbent and the margin, such a sequence replaced auto's on one
/// compile's noise and then ran 9% slower than it, ResNet-50 in
/// bench/tune_evidence.py.)
size_t chooseBest(llvm::ArrayRef<const TuningRecord *> pool, const Objective &objective,
                  std::optional<size_t> incumbent = std::nullopt);

} // namespace dlc

#endif // DLC_TUNING_OBJECTIVE_H
