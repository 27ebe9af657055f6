//===- Agreement.h - when two runs of a model agree -------------*- C++ -*-===//
//
// The rules by which dlc's tools judge outputs: element by element within a
// tolerance, and detections as sets (OutputCheck.h says why). Without LLVM:
// dlc-cuda-run judges the outputs of GPU runs by the same code, on machines
// that have no compiler.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_AGREEMENT_H
#define DLC_RUNTIME_AGREEMENT_H

#include <array>
#include <cstdint>
#include <string>

namespace dlc {

/// Whether `actual` agrees with `expected`: NaN with NaN only, an infinity
/// with itself only, otherwise |actual - expected| <= atol + rtol *
/// |expected|.
bool withinTolerance(double actual, double expected, double atol, double rtol);

/// The outcome of comparing an output with its expected values.
struct Comparison {
  bool match = true;
  double maxAbsError = 0, maxRelError = 0;
  int64_t mismatches = 0;
  /// Element by element: the first element outside the tolerance, or -1.
  int64_t firstMismatch = -1;
  /// Detections left unpaired as tied at the cut-off (compareDetections).
  int64_t excusedDetections = 0;
  std::string reason; ///< why it does not match, where the counts do not say

  /// Counts `actual`'s difference from `expected` into the largest errors
  /// (none for equal values or two NaNs).
  void record(double actual, double expected);
};

/// Compares `n` values element by element (withinTolerance).
Comparison compareValues(const double *actual, const double *expected, int64_t n, double atol,
                         double rtol);

/// The positions among a model's outputs of the three results of one
/// graph.nms: boxes [N, K, 4], scores [N, K] and classes [N, K].
struct DetectionOutputs {
  unsigned boxes, scores, classes;
};

/// Whether three shapes are those of graph.nms's results: boxes [N, K, 4],
/// scores and classes [N, K].
template <typename ShapeT>
bool hasDetectionShapes(const ShapeT &boxes, const ShapeT &scores, const ShapeT &classes) {
  return scores.size() == 2 && classes.size() == 2 && boxes.size() == 3 &&
         classes[0] == scores[0] && classes[1] == scores[1] && boxes[0] == scores[0] &&
         boxes[1] == scores[1] && boxes[2] == 4;
}

/// One side's detections, as graph.nms returns them for `images` images of
/// `slots` each: boxes [images, slots, 4], scores and classes [images,
/// slots]; a slot of class < 0 is empty.
struct DetectionsView {
  const double *boxes, *scores, *classes;
};

/// Compares two sets of detections. Image by image, each expected detection,
/// in rank order, is paired greedily with the closest unpaired actual one of
/// the same class whose score and four coordinates are within `atol + rtol *
/// |expected|`. A detection left unpaired is a mismatch, unless the other
/// side filled all its slots and the detection's score is within the
/// tolerance of that side's lowest score: it tied at the cut-off (counted in
/// excusedDetections). The returned comparisons are those of boxes, scores
/// and classes in that order; the largest errors are those of paired
/// detections, and on a mismatch all three carry the count of unpaired
/// detections and a reason saying where the first one is.
std::array<Comparison, 3> compareDetections(DetectionsView actual, DetectionsView expected,
                                            int64_t images, int64_t slots, double atol,
                                            double rtol);

} // namespace dlc

#endif // DLC_RUNTIME_AGREEMENT_H
