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

/// Whether `actual` agrees with `expected`: NaN with NaN only, otherwise
/// |actual - expected| <= atol + rtol * |expected| (an infinity only with
/// itself, unless rtol makes the bound infinite).
bool withinTolerance(double actual, double expected, double atol, double rtol);

/// The outcome of comparing an output with its expected values.
struct Comparison {
  bool match = true;
  double maxAbsError = 0, maxRelError = 0;
  int64_t mismatches = 0;
  /// Detections left unpaired as tied at the cut-off (compareDetections).
  int64_t excusedDetections = 0;
  std::string reason; ///< why it does not match, where the counts do not say

  /// Counts `actual`'s difference from `expected` into the largest errors
  /// (none for equal values or two NaNs).
  void record(double actual, double expected);
};

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
