//===- Measure.h - latency of two executables side by side ------*- C++ -*-===//
//
// On a shared machine whose speed drifts, two compiled models are compared
// by running them alternately and taking ratios round by round
// (METHODOLOGY.md): a round runs A then B, the next B then A (ABBA), each a
// few times; the figure is the median of the per-round ratios of their
// median latencies, with a distribution-free 95% confidence interval
// (medianWithInterval, Bench.h).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_TUNING_MEASURE_H
#define DLC_LIB_TUNING_MEASURE_H

#include "dlc/Runtime/CPUExecutable.h"

#include <atomic>
#include <vector>

namespace dlc {

struct SideBySide {
  Estimate ratio;                    ///< latency of A over B
  std::vector<double> samplesA, samplesB; ///< every timed run, ms
};

/// `rounds` rounds of `runsPerRound` runs of each, alternating. Stops early
/// (with an error) once `*stop` is set.
llvm::Expected<SideBySide> measureSideBySide(CPUExecutable &a, CPUExecutable &b,
                                             llvm::ArrayRef<Tensor> inputs, int64_t rounds,
                                             int64_t runsPerRound,
                                             const std::atomic<bool> *stop);

} // namespace dlc

#endif // DLC_LIB_TUNING_MEASURE_H
