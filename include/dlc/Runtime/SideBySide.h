//===- SideBySide.h - latency of two executables side by side ---*- C++ -*-===//
//
// On a shared machine whose speed drifts, two compiled models are compared
// by running them alternately and taking ratios round by round
// (METHODOLOGY.md): a round runs A then B, the next B then A (ABBA), each a
// few times; the figure is the median of the per-round ratios of their
// median latencies, with a distribution-free 95% confidence interval
// (medianWithInterval, Bench.h). dlc-tune measures its candidates against
// O3 so, and `dlc-run --bench --against=PIPELINE` any two pipelines.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_SIDEBYSIDE_H
#define DLC_RUNTIME_SIDEBYSIDE_H

#include "dlc/Runtime/CPUExecutable.h"

#include <atomic>
#include <vector>

namespace dlc {

struct SideBySide {
  Estimate ratio;                         ///< latency of A over B
  std::vector<double> samplesA, samplesB; ///< every timed run, ms
};

/// Runs per round so that a round of a model whose latency is `p50Ms` lasts
/// at least 100 ms.
int64_t runsPerRound(double p50Ms);

/// `rounds` rounds of `runsPerRound` runs of each, alternating. Stops early
/// (with an error) once `*stop` is set.
llvm::Expected<SideBySide> measureSideBySide(CPUExecutable &a, CPUExecutable &b,
                                             llvm::ArrayRef<Tensor> inputs, int64_t rounds,
                                             int64_t runsPerRound,
                                             const std::atomic<bool> *stop = nullptr);

/// What a ratio of A's latency over B's says: "faster" or "slower" when its
/// 95% interval lies below or above 1, "too few rounds to tell" under 6
/// rounds (the interval is then the whole range), else "within noise".
llvm::StringRef verdict(const Estimate &ratio);

} // namespace dlc

#endif // DLC_RUNTIME_SIDEBYSIDE_H
