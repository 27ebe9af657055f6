//===- Objective.cpp - scores, space sizes and the run's choice -----------===//
//
// The decisions of a tuning run that are arithmetic on its figures alone,
// apart from the session that measures them (so that they are tested with
// figures chosen by hand: unittests/TuningTest.cpp).
//
//===----------------------------------------------------------------------===//
#include "dlc/Tuning/Objective.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace dlc;

double Objective::score(double latencyRatio, double compileRatio) const {
  switch (kind) {
  case Latency:
    return latencyRatio;
  case Compile:
    return compileRatio;
  case Mix:
    return weight * latencyRatio + (1 - weight) * compileRatio;
  }
  return latencyRatio;
}

std::string Objective::str() const {
  if (kind == Mix)
    return llvm::formatv("mix:{0}", llvm::format("%g", weight)).str();
  return kind == Latency ? "latency" : "compile";
}

llvm::Expected<Objective> dlc::parseObjective(llvm::StringRef text) {
  Objective o;
  if (text == "latency")
    return o;
  if (text == "compile") {
    o.kind = Objective::Compile;
    return o;
  }
  double w;
  llvm::StringRef weight = text;
  if (weight.consume_front("mix:") && !weight.getAsDouble(w) && w >= 0 && w <= 1) {
    o.kind = Objective::Mix;
    o.weight = w;
    return o;
  }
  return llvm::createStringError("bad objective '" + text.str() +
                                 "': expected latency, compile or mix:W with W in [0, 1] "
                                 "(the weight of latency)");
}

SpaceSize dlc::spaceSize(int64_t passes, int64_t maxLength) {
  SpaceSize s{passes, 0};
  double term = 1;
  for (int64_t k = 0; k <= maxLength; ++k, term *= passes)
    s.sequences += term;
  return s;
}

size_t dlc::chooseBest(llvm::ArrayRef<const TuningRecord *> pool, const Objective &objective,
                       std::optional<size_t> incumbent) {
  assert(!pool.empty() && "the pool holds O3 at least");
  auto byScore = [](const TuningRecord *a, const TuningRecord *b) { return a->score < b->score; };
  size_t lowest = llvm::min_element(pool, byScore) - pool.begin(), best = lowest;
  if (objective.kind != Objective::Latency)
    return best;
  const TuningRecord &low = *pool[lowest], &o3 = *pool.front();
  auto tied = [&](const TuningRecord &r) {
    return r.latencyLow <= low.latencyHigh && low.latencyLow <= r.latencyHigh &&
           r.score <= o3.score;
  };
  if (incumbent && tied(*pool[*incumbent]))
    best = *incumbent;
  for (auto [i, r] : llvm::enumerate(pool))
    if (tied(*r) && r->compileMs < (1 - kCompileMargin) * pool[best]->compileMs)
      best = i;
  return best;
}
