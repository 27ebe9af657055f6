//===- SideBySide.cpp - latency of two executables side by side -----------===//
#include "dlc/Runtime/SideBySide.h"

#include <algorithm>
#include <cmath>

using namespace dlc;

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

int64_t dlc::runsPerRound(double p50Ms) {
  return std::clamp<int64_t>(std::ceil(100 / std::max(p50Ms, 1e-3)), 1, 1000);
}

llvm::StringRef dlc::verdict(const Estimate &ratio) {
  if (ratio.n < 6)
    return "too few rounds to tell";
  return ratio.high < 1 ? "faster" : ratio.low > 1 ? "slower" : "within noise";
}
