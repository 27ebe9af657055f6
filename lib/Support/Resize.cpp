//===- Resize.cpp - ONNX Resize's interpolation taps ----------------------===//
//
// The coordinate transformations, nearest rounding and linear and cubic
// coefficients of ONNX Resize (onnx/reference/ops/op_resize.py): an output
// position x maps to x_original in the input; the taps are the nearest
// input positions around it, clamped to the edge.
//
//===----------------------------------------------------------------------===//
#include "dlc/Support/Resize.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>

using namespace dlc;

bool dlc::isResizeMode(llvm::StringRef name) {
  return name == "nearest" || name == "linear" || name == "cubic";
}

bool dlc::isResizeCoordinates(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
              "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize"},
             true)
      .Default(false);
}

bool dlc::isResizeNearest(llvm::StringRef name) {
  return name == "round_prefer_floor" || name == "round_prefer_ceil" || name == "floor" ||
         name == "ceil";
}

/// Where output position `x` lies in the input, or NaN where
/// tf_crop_and_resize falls outside it.
static double originalCoordinate(const ResizeMode &m, double x, int64_t in, int64_t outInt,
                                 double scale, double roiStart, double roiEnd) {
  double out = scale * in; // ONNX's output width, not rounded
  llvm::StringRef c = m.coordinates;
  if (c == "align_corners")
    return out == 1 ? 0.0 : x * (in - 1) / (out - 1);
  if (c == "asymmetric")
    return x / scale;
  if (c == "pytorch_half_pixel")
    return out == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
  if (c == "tf_half_pixel_for_nn")
    return (x + 0.5) / scale;
  if (c == "half_pixel_symmetric") {
    double adjustment = outInt / out, center = in / 2.0;
    return center * (1 - adjustment) + (x + 0.5) / scale - 0.5;
  }
  if (c == "tf_crop_and_resize") {
    double xo = out == 1 ? (roiEnd - roiStart) * (in - 1) / 2
                         : x * (roiEnd - roiStart) * (in - 1) / (out - 1);
    xo += roiStart * (in - 1);
    return xo < 0 || xo > in - 1 ? std::nan("") : xo;
  }
  return (x + 0.5) / scale - 0.5; // half_pixel
}

static void cubicCoefficients(double t, double a, double c[4]) {
  c[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
  c[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  c[2] = ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1;
  c[3] = ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a;
}

ResizeTaps dlc::resizeTaps(const ResizeMode &m, int64_t in, int64_t out, double scale,
                           double roiStart, double roiEnd) {
  ResizeTaps taps;
  taps.count = m.mode == "nearest" ? 1 : m.mode == "linear" ? 2 : 4;
  taps.index.assign(taps.count * out, 0);
  taps.weight.assign(taps.count * out, 0.0);
  taps.bias.assign(out, 0.0);
  auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i, 0, in - 1); };
  for (int64_t x = 0; x < out; ++x) {
    double xo = originalCoordinate(m, x, in, out, scale, roiStart, roiEnd);
    if (std::isnan(xo)) { // outside tf_crop_and_resize's box: no taps
      taps.bias[x] = m.extrapolation;
      continue;
    }
    double f = std::floor(xo), t = xo - f;
    int64_t base = static_cast<int64_t>(f);
    if (taps.count == 1) {
      bool up = m.nearest == "ceil"                ? t > 0
                : m.nearest == "floor"             ? false
                : m.nearest == "round_prefer_ceil" ? t >= 0.5
                                                   : t > 0.5;
      taps.index[x] = clamp(base + up);
      taps.weight[x] = 1;
      continue;
    }
    double c[4];
    int64_t first;
    if (taps.count == 2) {
      c[0] = 1 - t;
      c[1] = t;
      first = base;
    } else {
      cubicCoefficients(t, m.cubicA, c);
      first = base - 1;
    }
    double sum = 0;
    for (int64_t k = 0; k < taps.count; ++k) {
      int64_t i = first + k;
      if (m.excludeOutside && (i < 0 || i >= in))
        c[k] = 0;
      sum += c[k];
    }
    for (int64_t k = 0; k < taps.count; ++k) {
      taps.index[k * out + x] = clamp(first + k);
      taps.weight[k * out + x] = m.excludeOutside && sum != 0 ? c[k] / sum : c[k];
    }
  }
  return taps;
}
