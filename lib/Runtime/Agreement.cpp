//===- Agreement.cpp - when two runs of a model agree ---------------------===//
#include "dlc/Runtime/Agreement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <vector>

using namespace dlc;

bool dlc::withinTolerance(double actual, double expected, double atol, double rtol) {
  if (std::isnan(actual) || std::isnan(expected))
    return std::isnan(actual) && std::isnan(expected);
  if (std::isinf(actual) || std::isinf(expected))
    return actual == expected;
  return std::fabs(actual - expected) <= atol + rtol * std::fabs(expected);
}

void Comparison::record(double actual, double expected) {
  if (actual == expected || std::isnan(actual) || std::isnan(expected))
    return;
  double abs = std::fabs(actual - expected);
  double rel = expected != 0 ? abs / std::fabs(expected) : abs;
  if (std::isinf(actual) || std::isinf(expected))
    abs = rel = std::numeric_limits<double>::infinity();
  maxAbsError = std::max(maxAbsError, abs);
  maxRelError = std::max(maxRelError, rel);
}

Comparison dlc::compareValues(const double *actual, const double *expected, int64_t n,
                              double atol, double rtol) {
  Comparison c;
  for (int64_t i = 0; i < n; ++i) {
    c.record(actual[i], expected[i]);
    if (!withinTolerance(actual[i], expected[i], atol, rtol) && c.mismatches++ == 0) {
      c.match = false;
      c.firstMismatch = i;
    }
  }
  return c;
}

namespace {
/// One image's detection on one side.
struct Detection {
  int64_t rank;
  double classId, score;
  const double *box;
};

/// One image's detections of one side, in rank order.
std::vector<Detection> detectionsOf(DetectionsView side, int64_t image, int64_t slots) {
  std::vector<Detection> found;
  for (int64_t r = 0; r < slots; ++r) {
    int64_t i = image * slots + r;
    if (side.classes[i] >= 0)
      found.push_back({r, side.classes[i], side.scores[i], &side.boxes[i * 4]});
  }
  return found;
}
} // namespace

std::array<Comparison, 3> dlc::compareDetections(DetectionsView actual, DetectionsView expected,
                                                 int64_t images, int64_t slots, double atol,
                                                 double rtol) {
  std::array<Comparison, 3> c;
  auto near = [&](double a, double e) { return withinTolerance(a, e, atol, rtol); };
  int64_t unpaired = 0, excused = 0;
  std::string reason;
  for (int64_t image = 0; image < images; ++image) {
    std::vector<Detection> mine = detectionsOf(actual, image, slots);
    std::vector<Detection> theirs = detectionsOf(expected, image, slots);
    std::vector<bool> minePaired(mine.size()), theirsPaired(theirs.size());
    for (size_t t = 0; t < theirs.size(); ++t) {
      const Detection &e = theirs[t];
      std::optional<size_t> best;
      double bestError = std::numeric_limits<double>::infinity();
      for (size_t m = 0; m < mine.size(); ++m) {
        const Detection &a = mine[m];
        if (minePaired[m] || a.classId != e.classId || !near(a.score, e.score))
          continue;
        double error = std::fabs(a.score - e.score);
        bool boxNear = true;
        for (int q = 0; q < 4; ++q) {
          boxNear &= near(a.box[q], e.box[q]);
          error = std::max(error, std::fabs(a.box[q] - e.box[q]));
        }
        if (boxNear && error < bestError) {
          best = m;
          bestError = error;
        }
      }
      if (!best)
        continue;
      const Detection &a = mine[*best];
      minePaired[*best] = theirsPaired[t] = true;
      c[1].record(a.score, e.score);
      for (int q = 0; q < 4; ++q)
        c[0].record(a.box[q], e.box[q]);
    }
    // An unpaired detection is excused when the other side is full and its
    // lowest score ties with it: the two sides cut the ranking among equals.
    auto countUnpaired = [&](const std::vector<Detection> &side, const std::vector<bool> &paired,
                             const std::vector<Detection> &other, const char *which) {
      bool otherFull = static_cast<int64_t>(other.size()) == slots;
      double lowest = std::numeric_limits<double>::infinity();
      for (const Detection &d : other)
        lowest = std::min(lowest, d.score);
      for (size_t d = 0; d < side.size(); ++d) {
        if (paired[d])
          continue;
        if (otherFull && near(side[d].score, lowest)) {
          ++excused;
          continue;
        }
        if (unpaired++ == 0) {
          char text[320];
          std::snprintf(text, sizeof text,
                        "image %lld: the %s detection of class %.0f with score %g at rank %lld "
                        "has no counterpart of the same class with score and box within atol "
                        "%g + rtol %g",
                        static_cast<long long>(image), which, side[d].classId, side[d].score,
                        static_cast<long long>(side[d].rank), atol, rtol);
          reason = text;
        }
      }
    };
    countUnpaired(theirs, theirsPaired, mine, "expected");
    countUnpaired(mine, minePaired, theirs, "actual");
  }
  for (Comparison &each : c) {
    each.match = unpaired == 0;
    each.mismatches = unpaired;
    each.excusedDetections = excused;
    if (unpaired)
      each.reason = std::to_string(unpaired) + " unpaired detection" + (unpaired == 1 ? "" : "s") +
                    "; " + reason;
  }
  return c;
}
