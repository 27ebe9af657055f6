//===- Bench.cpp - latency statistics as METHODOLOGY.md defines ------------===//
#include "dlc/Runtime/Bench.h"
#include "dlc/Support/Version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <sys/resource.h>

using namespace dlc;

/// Linear-interpolated percentile of sorted samples.
static double percentile(const std::vector<double> &sorted, double p) {
  if (sorted.empty())
    return 0;
  double pos = p * (sorted.size() - 1);
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

static void meanStd(const std::vector<double> &v, double &mean, double &std) {
  mean = std = 0;
  if (v.empty())
    return;
  for (double x : v)
    mean += x;
  mean /= v.size();
  for (double x : v)
    std += (x - mean) * (x - mean);
  std = v.size() > 1 ? std::sqrt(std / (v.size() - 1)) : 0;
}

LatencyStats dlc::computeStats(std::vector<double> samples, double cvThreshold) {
  LatencyStats s;
  s.samplesMs = samples;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  s.count = sorted.size();
  if (sorted.empty())
    return s;
  s.min = sorted.front();
  s.max = sorted.back();
  s.p50 = percentile(sorted, 0.5);
  s.p90 = percentile(sorted, 0.9);
  s.p99 = percentile(sorted, 0.99);
  meanStd(sorted, s.mean, s.std);
  s.cv = s.mean > 0 ? s.std / s.mean : 0;
  s.unstable = s.cv > cvThreshold;
  std::vector<double> kept;
  for (double x : sorted)
    if (std::fabs(x - s.mean) <= 3 * s.std)
      kept.push_back(x);
  s.trimmedCount = kept.size();
  s.dropped = s.count - s.trimmedCount;
  meanStd(kept, s.trimmedMean, s.trimmedStd);
  return s;
}

double dlc::msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

Estimate dlc::medianWithInterval(std::vector<double> values) {
  Estimate e;
  e.n = values.size();
  if (values.empty())
    return e;
  std::sort(values.begin(), values.end());
  e.median = percentile(values, 0.5);
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

llvm::Expected<LatencyStats> dlc::benchmark(const std::function<llvm::Error()> &fn,
                                            int64_t warmup, int64_t runs,
                                            double minWarmupMs, double cvThreshold) {
  using clock = std::chrono::steady_clock;
  auto ms = [](clock::time_point a, clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  auto start = clock::now();
  int64_t done = 0;
  while (done < warmup || ms(start, clock::now()) < minWarmupMs) {
    if (llvm::Error e = fn())
      return std::move(e);
    ++done;
  }
  double warmupMs = ms(start, clock::now());
  std::vector<double> samples;
  samples.reserve(runs);
  for (int64_t i = 0; i < runs; ++i) {
    auto t0 = clock::now();
    if (llvm::Error e = fn())
      return std::move(e);
    samples.push_back(ms(t0, clock::now()));
  }
  LatencyStats s = computeStats(std::move(samples), cvThreshold);
  s.warmupMs = warmupMs;
  s.warmupRuns = done;
  return s;
}

void LatencyStats::print(llvm::raw_ostream &os, int64_t batch) const {
  os << llvm::format("latency (ms, %lld runs after %lld warm-up): min %.3f  p50 %.3f  "
                     "p90 %.3f  p99 %.3f  max %.3f  mean %.3f  std %.3f  cv %.1f%%%s\n",
                     (long long)count, (long long)warmupRuns, min, p50, p90, p99, max,
                     mean, std, 100 * cv, unstable ? "  UNSTABLE" : "");
  os << llvm::format("trimmed (3 sigma): mean %.3f  std %.3f  (%lld of %lld dropped)\n",
                     trimmedMean, trimmedStd, (long long)dropped, (long long)count);
  os << llvm::format("throughput: %.1f inferences/s (batch %lld / p50)\n",
                     p50 > 0 ? batch * 1000.0 / p50 : 0.0, (long long)batch);
}

Provenance dlc::currentProvenance() {
  Provenance p;
  p.dlcVersion = gitVersion();
  p.llvmVersion = LLVM_VERSION_STRING;
  if (auto cpuinfo = llvm::MemoryBuffer::getFileAsStream("/proc/cpuinfo")) {
    for (llvm::StringRef line : llvm::split((*cpuinfo)->getBuffer(), '\n'))
      if (line.starts_with("model name")) {
        p.hostCpu = line.split(':').second.trim().str();
        break;
      }
  }
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  p.date = buf;
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) == 0)
    p.maxRssKiB = usage.ru_maxrss;
  return p;
}

std::string dlc::sha256Hex(llvm::StringRef bytes) {
  auto hash = llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes));
  return llvm::toHex(hash, /*LowerCase=*/true);
}
