//===- BenchTest.cpp - statistics of latency samples ------------------------===//
#include "dlc/Runtime/Bench.h"

#include "gtest/gtest.h"

using namespace dlc;

TEST(Bench, MedianIntervalFromOrderStatistics) {
  // 7 values: only the whole range covers the median with 95% (98.4%).
  Estimate e = medianWithInterval({7, 1, 6, 2, 5, 3, 4});
  EXPECT_EQ(e.median, 4);
  EXPECT_EQ(e.low, 1);
  EXPECT_EQ(e.high, 7);
  EXPECT_EQ(e.n, 7);
  // 15 values: the 4th smallest and 4th largest (96.5%).
  std::vector<double> v;
  for (int i = 15; i >= 1; --i)
    v.push_back(i);
  e = medianWithInterval(v);
  EXPECT_EQ(e.median, 8);
  EXPECT_EQ(e.low, 4);
  EXPECT_EQ(e.high, 12);
  // Even counts average the middle two; too few values give the range.
  e = medianWithInterval({3, 1, 2, 10});
  EXPECT_EQ(e.median, 2.5);
  EXPECT_EQ(e.low, 1);
  EXPECT_EQ(e.high, 10);
  EXPECT_EQ(medianWithInterval({}).n, 0);
}
