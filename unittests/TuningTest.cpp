//===- TuningTest.cpp - dlc-tune's objectives and choice --------------------===//
#include "dlc/Tuning/Objective.h"

#include "gtest/gtest.h"

#include <optional>

using namespace dlc;

namespace {
/// A measured record: its latency over O3's with the interval, and its
/// compile time (`choose` scores it).
TuningRecord measured(double ratio, double low, double high, double compileMs) {
  TuningRecord r;
  r.latencyRatio = ratio;
  r.latencyLow = low;
  r.latencyHigh = high;
  r.compileMs = compileMs;
  r.compileRatio = compileMs / 1000;
  return r;
}

size_t choose(std::vector<TuningRecord> &records, const Objective &objective,
              std::optional<size_t> incumbent = std::nullopt) {
  std::vector<const TuningRecord *> pool;
  for (TuningRecord &r : records) {
    r.score = objective.score(r.latencyRatio, r.compileRatio);
    pool.push_back(&r);
  }
  return chooseBest(pool, objective, incumbent);
}
} // namespace

TEST(Tuning, Objectives) {
  llvm::Expected<Objective> mix = parseObjective("mix:0.25");
  ASSERT_TRUE(static_cast<bool>(mix));
  EXPECT_EQ(mix->kind, Objective::Mix);
  EXPECT_DOUBLE_EQ(mix->score(2, 1), 0.25 * 2 + 0.75 * 1);
  EXPECT_EQ(mix->str(), "mix:0.25");
  for (const char *bad : {"mix:1.5", "mix:", "speed", ""}) {
    llvm::Expected<Objective> o = parseObjective(bad);
    ASSERT_FALSE(static_cast<bool>(o)) << bad;
    EXPECT_NE(llvm::toString(o.takeError()).find("expected latency, compile or mix:W"),
              std::string::npos);
  }
  EXPECT_DOUBLE_EQ(spaceSize(3, 2).sequences, 1 + 3 + 9);
}

// The lowest median is not always the choice: among the candidates equal to
// it within noise, the fastest to compile.
TEST(Tuning, LatencyChoiceTakesTheFastestToCompileWithinNoise) {
  std::vector<TuningRecord> r = {
      measured(1.00, 0.97, 1.03, 1000), // O3
      measured(0.95, 0.90, 1.00, 1100), // the lowest median
      measured(0.98, 0.96, 1.02, 800),  // overlaps it, compiles faster
      measured(0.97, 0.96, 0.99, 900),
  };
  EXPECT_EQ(choose(r, Objective{}), 2u);
}

// A sequence that skips passes compiles fastest; when noise widens the
// intervals it overlaps the lowest, but its median is above O3's: never
// chosen (ResNet-50 and SSD had been tuned to such sequences).
TEST(Tuning, LatencyChoiceIsNoSlowerThanO3) {
  std::vector<TuningRecord> r = {
      measured(1.00, 0.90, 1.10, 1000), // O3
      measured(0.96, 0.85, 1.08, 1050),
      measured(1.03, 0.95, 1.12, 400), // overlaps, faster to compile, slower
  };
  // The lowest: O3 compiles faster, but by less than one compile's noise.
  EXPECT_EQ(choose(r, Objective{}), 1u);
  // Faster to compile and not slower than O3 by its median: chosen.
  r[2] = measured(1.00, 0.95, 1.12, 400);
  EXPECT_EQ(choose(r, Objective{}), 2u);
}

// A candidate faster to compile whose interval does not reach the lowest's
// is slower beyond noise.
TEST(Tuning, LatencyChoiceNeedsOverlappingIntervals) {
  std::vector<TuningRecord> r = {
      measured(1.00, 0.99, 1.01, 1000), // O3
      measured(0.90, 0.88, 0.92, 1200),
      measured(0.95, 0.93, 0.97, 300),
  };
  EXPECT_EQ(choose(r, Objective{}), 1u);
}

// Auto's graph, equal within noise to the lowest, stays the choice unless
// another compiles faster by more than the margin of one compile's noise
// (ResNet-50 had been tuned away from auto's passes to a sequence without
// FoldConstant that compiled faster once, and then ran 9% slower).
TEST(Tuning, LatencyChoiceKeepsAutoWithinNoise) {
  std::vector<TuningRecord> r = {
      measured(1.00, 0.97, 1.03, 1000), // O3
      measured(0.88, 0.85, 0.91, 1150), // auto's graph
      measured(0.86, 0.84, 0.89, 1250), // the lowest median
      measured(0.90, 0.86, 0.93, 1100), // tied, 4% faster to compile
  };
  EXPECT_EQ(choose(r, Objective{}, 1), 1u);
  // Without an incumbent the lowest is the reference, and 1100 ms is more
  // than 10% below its 1250.
  EXPECT_EQ(choose(r, Objective{}), 3u);
  // Faster to compile beyond the margin: chosen over auto's.
  r[3].compileMs = 700;
  EXPECT_EQ(choose(r, Objective{}, 1), 3u);
  // Auto's graph slower beyond noise than the lowest: not kept.
  r[3].compileMs = 1200;
  r[1] = measured(0.95, 0.93, 0.97, 1150);
  EXPECT_EQ(choose(r, Objective{}, 1), 2u);
}

// Nothing better than O3 and nothing faster to compile within noise: O3.
TEST(Tuning, LatencyChoiceKeepsO3) {
  std::vector<TuningRecord> r = {
      measured(1.00, 0.97, 1.03, 1000),
      measured(0.99, 0.96, 1.04, 1400),
  };
  EXPECT_EQ(choose(r, Objective{}), 0u);
  std::vector<TuningRecord> alone = {measured(1, 1, 1, 1000)};
  EXPECT_EQ(choose(alone, Objective{}), 0u);
}

// The other objectives take the lowest score, with no tie-break.
TEST(Tuning, CompileAndMixChooseTheLowestScore) {
  std::vector<TuningRecord> r = {
      measured(1.00, 0.97, 1.03, 1000),
      measured(1.20, 1.10, 1.30, 500),
      measured(0.90, 0.85, 0.95, 1100),
  };
  EXPECT_EQ(choose(r, *parseObjective("compile")), 1u);
  // 0.5 * latency + 0.5 * compile: 1.0, 0.85, 1.0.
  EXPECT_EQ(choose(r, *parseObjective("mix:0.5")), 1u);
  // 0.9 * latency + 0.1 * compile: 1.0, 1.13, 0.92.
  EXPECT_EQ(choose(r, *parseObjective("mix:0.9")), 2u);
}
