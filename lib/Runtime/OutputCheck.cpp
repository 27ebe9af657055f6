//===- OutputCheck.cpp - comparing a model's outputs ----------------------===//
#include "dlc/Runtime/OutputCheck.h"
#include "dlc/Dialect/Graph/GraphOps.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

using namespace mlir;
using namespace dlc;

std::vector<DetectionOutputs> dlc::findDetectionOutputs(func::FuncOp func) {
  std::vector<DetectionOutputs> found;
  if (func.isExternal())
    return found;
  auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
  auto position = [&](Value v) -> std::optional<unsigned> {
    for (auto [i, operand] : llvm::enumerate(ret.getOperands()))
      if (operand == v)
        return i;
    return std::nullopt;
  };
  func.walk([&](graph::NmsOp nms) {
    std::optional<unsigned> boxes = position(nms.getOutBoxes()),
                            scores = position(nms.getOutScores()),
                            classes = position(nms.getOutClasses());
    if (boxes && scores && classes)
      found.push_back({*boxes, *scores, *classes});
  });
  return found;
}

namespace {
/// One image's detections of one side, in rank order.
struct Detection {
  int64_t rank;
  double classId, score;
  const double *box;
};

std::vector<Detection> detectionsOf(const Tensor &boxes, const Tensor &scores,
                                    const Tensor &classes, int64_t image) {
  int64_t k = scores.shape[1];
  std::vector<Detection> found;
  for (int64_t r = 0; r < k; ++r) {
    int64_t i = image * k + r;
    if (classes.data[i] >= 0)
      found.push_back({r, classes.data[i], scores.data[i], &boxes.data[i * 4]});
  }
  return found;
}
} // namespace

std::array<Comparison, 3>
dlc::compareDetections(const Tensor &boxes, const Tensor &scores, const Tensor &classes,
                       const Tensor &expectedBoxes, const Tensor &expectedScores,
                       const Tensor &expectedClasses, double atol, double rtol) {
  const Shape &s = scores.shape;
  bool laidOut = s.size() == 2 && boxes.shape == Shape{s[0], s[1], 4} && classes.shape == s &&
                 boxes.shape == expectedBoxes.shape && s == expectedScores.shape &&
                 s == expectedClasses.shape;
  if (!laidOut)
    return {compareTensors(boxes, expectedBoxes, atol, rtol),
            compareTensors(scores, expectedScores, atol, rtol),
            compareTensors(classes, expectedClasses, atol, rtol)};

  std::array<Comparison, 3> c;
  auto near = [&](double a, double e) { return withinTolerance(a, e, atol, rtol); };
  int64_t k = s[1], unpaired = 0, excused = 0;
  std::string reason;
  for (int64_t image = 0; image < s[0]; ++image) {
    std::vector<Detection> mine = detectionsOf(boxes, scores, classes, image);
    std::vector<Detection> theirs =
        detectionsOf(expectedBoxes, expectedScores, expectedClasses, image);
    std::vector<bool> minePaired(mine.size()), theirsPaired(theirs.size());
    for (auto [t, e] : llvm::enumerate(theirs)) {
      std::optional<size_t> best;
      double bestError = std::numeric_limits<double>::infinity();
      for (auto [m, a] : llvm::enumerate(mine)) {
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
                             const std::vector<Detection> &other, llvm::StringRef which) {
      bool otherFull = static_cast<int64_t>(other.size()) == k;
      double lowest = std::numeric_limits<double>::infinity();
      for (const Detection &d : other)
        lowest = std::min(lowest, d.score);
      for (auto [d, detection] : llvm::enumerate(side)) {
        if (paired[d])
          continue;
        if (otherFull && near(detection.score, lowest)) {
          ++excused;
          continue;
        }
        if (unpaired++ == 0)
          llvm::raw_string_ostream(reason)
              << "image " << image << ": the " << which << " detection of class "
              << toInt64(detection.classId) << " with score " << llvm::format("%g", detection.score)
              << " at rank " << detection.rank
              << " has no counterpart of the same class with score and box within atol "
              << llvm::format("%g", atol) << " + rtol " << llvm::format("%g", rtol);
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
      each.reason = llvm::formatv("{0} unpaired detection{1}; {2}", unpaired,
                                  unpaired == 1 ? "" : "s", reason);
  }
  return c;
}

std::vector<Comparison> dlc::compareOutputs(llvm::ArrayRef<Tensor> actual,
                                            llvm::ArrayRef<Tensor> expected,
                                            llvm::ArrayRef<DetectionOutputs> detections,
                                            double atol, double rtol) {
  size_t n = std::min(actual.size(), expected.size());
  std::vector<Comparison> c(n);
  std::vector<bool> done(n);
  for (const DetectionOutputs &d : detections) {
    if (std::max({d.boxes, d.scores, d.classes}) >= n)
      continue;
    std::array<Comparison, 3> group =
        compareDetections(actual[d.boxes], actual[d.scores], actual[d.classes],
                          expected[d.boxes], expected[d.scores], expected[d.classes], atol, rtol);
    for (auto [i, each] : llvm::zip(std::array{d.boxes, d.scores, d.classes}, group)) {
      c[i] = std::move(each);
      done[i] = true;
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (!done[i])
      c[i] = compareTensors(actual[i], expected[i], atol, rtol);
  return c;
}
