//===- Resize.h - ONNX Resize's interpolation taps --------------*- C++ -*-===//
//
// graph.resize interpolates one axis at a time (the last first, as ONNX's
// reference does): each output position along an axis reads `count` input
// positions (1 nearest, 2 linear, 4 cubic) with weights, plus a bias that
// is the extrapolation value where tf_crop_and_resize falls outside the
// input. The taps depend only on the sizes and attributes, so the reference
// interpreter computes them and the lowering bakes them into constants.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_RESIZE_H
#define DLC_SUPPORT_RESIZE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace dlc {

/// graph.resize's attributes.
struct ResizeMode {
  llvm::StringRef mode = "nearest";                       ///< nearest, linear, cubic
  llvm::StringRef coordinates = "half_pixel";             ///< ONNX coordinate_transformation_mode
  llvm::StringRef nearest = "round_prefer_floor";         ///< ONNX nearest_mode
  double cubicA = -0.75;
  bool excludeOutside = false;
  double extrapolation = 0.0;
};

struct ResizeTaps {
  int64_t count = 1;           ///< taps per output position
  std::vector<int64_t> index;  ///< [count][out], within [0, in - 1]
  std::vector<double> weight;  ///< [count][out]
  std::vector<double> bias;    ///< [out]
};

/// The taps of one axis resized from `in` to `out` positions with `scale`
/// (out / in when sizes were given); `roiStart` and `roiEnd` are the
/// normalized crop of tf_crop_and_resize.
ResizeTaps resizeTaps(const ResizeMode &mode, int64_t in, int64_t out, double scale,
                      double roiStart = 0.0, double roiEnd = 1.0);

/// Whether `name` is a mode, coordinate transformation or nearest mode
/// resizeTaps knows.
bool isResizeMode(llvm::StringRef name);
bool isResizeCoordinates(llvm::StringRef name);
bool isResizeNearest(llvm::StringRef name);

} // namespace dlc

#endif // DLC_SUPPORT_RESIZE_H
