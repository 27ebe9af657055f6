//===- Bench.h - latency statistics as METHODOLOGY.md defines ---*- C++ -*-===//
#ifndef DLC_RUNTIME_BENCH_H
#define DLC_RUNTIME_BENCH_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace dlc {

/// Statistics of raw latency samples (milliseconds). Every sample is kept;
/// the paper's trimmed figures (samples beyond mean +- 3 std dropped) are
/// separate fields that say how many samples they dropped.
struct LatencyStats {
  std::vector<double> samplesMs;
  int64_t count = 0;
  double min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0, std = 0, cv = 0;
  int64_t trimmedCount = 0, dropped = 0;
  double trimmedMean = 0, trimmedStd = 0;
  bool unstable = false; ///< cv above the threshold
  double warmupMs = 0;   ///< time spent in untimed warm-up runs
  int64_t warmupRuns = 0;

  void print(llvm::raw_ostream &os, int64_t batch) const;
};

/// Computes the statistics of `samplesMs` (kept as given).
LatencyStats computeStats(std::vector<double> samplesMs, double cvThreshold = 0.1);

/// Milliseconds since `start` on the monotonic clock.
double msSince(std::chrono::steady_clock::time_point start);

/// A median with its 95% confidence interval, of `n` values (all 0 when
/// there are none).
struct Estimate {
  double median = 0, low = 0, high = 0;
  int64_t n = 0;
};

/// The median of `values` and the order statistics that bound it with at
/// least 95% confidence, distribution-free (the whole range when there are
/// too few values for that: fewer than 6).
Estimate medianWithInterval(std::vector<double> values);

/// Runs `fn` untimed `warmup` times and for at least `minWarmupMs`, then
/// `runs` timed times on a monotonic clock. Stops at the first error.
llvm::Expected<LatencyStats> benchmark(const std::function<llvm::Error()> &fn,
                                       int64_t warmup, int64_t runs,
                                       double minWarmupMs = 200,
                                       double cvThreshold = 0.1);

/// Facts about this machine and build for reports.
struct Provenance {
  std::string dlcVersion, llvmVersion, hostCpu, date;
  int64_t maxRssKiB = 0; ///< peak resident memory of this process so far
};
Provenance currentProvenance();

/// Hex SHA-256 of bytes (model files, pipeline strings).
std::string sha256Hex(llvm::StringRef bytes);

} // namespace dlc

#endif // DLC_RUNTIME_BENCH_H
