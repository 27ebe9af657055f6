//===- Measure.cpp - latency of two executables side by side ---------------===//
#include "Measure.h"

#include <algorithm>
#include <cmath>

using namespace dlc;

static double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Estimate dlc::medianWithInterval(std::vector<double> values) {
  Estimate e;
  e.n = values.size();
  if (values.empty())
    return e;
  std::sort(values.begin(), values.end());
  e.median = medianOf(values);
  // The k-th smallest and k-th largest values bound the median with
  // probability 1 - 2 P(Binomial(n, 1/2) < k): the largest k that keeps
  // it at 95% or more.
  int64_t n = values.size(), k = 1;
  double cdf = 0; // P(Binomial(n, 1/2) <= j)
  for (int64_t j = 0; j < n; ++j) {
    cdf += std::exp(std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0) -
                    n * std::log(2.0));
    if (cdf > 0.025)
      break;
    k = j + 1;
  }
  k = std::min<int64_t>(k, (n + 1) / 2);
  e.low = values[k - 1];
  e.high = values[n - k];
  return e;
}

llvm::Expected<SideBySide> dlc::measureSideBySide(CPUExecutable &a, CPUExecutable &b,
                                                  llvm::ArrayRef<Tensor> inputs,
                                                  int64_t rounds, int64_t runsPerRound,
                                                  const std::atomic<bool> *stop) {
  SideBySide result;
  std::vector<double> ratios;
  for (int64_t r = 0; r < rounds; ++r) {
    if (stop && *stop)
      return llvm::createStringError("interrupted");
    double median[2];
    for (int i = 0; i < 2; ++i) {
      int which = r % 2 ? 1 - i : i; // ABBA: neither always runs first
      CPUExecutable &exe = which == 0 ? a : b;
      // One untimed run: the other model just ran and left its data in the
      // caches.
      llvm::Expected<LatencyStats> s = exe.benchmark(inputs, 1, runsPerRound, 0);
      if (!s)
        return s.takeError();
      std::vector<double> &samples = which == 0 ? result.samplesA : result.samplesB;
      samples.insert(samples.end(), s->samplesMs.begin(), s->samplesMs.end());
      median[which] = s->p50;
    }
    ratios.push_back(median[1] > 0 ? median[0] / median[1] : 1);
  }
  result.ratio = medianWithInterval(ratios);
  return result;
}
