//===- Winograd.cpp - minimal-filtering transforms for 3x3 convolutions ---===//
#include "dlc/Support/Winograd.h"

#include <cassert>

using namespace dlc;

// F(2 x 2, 3 x 3): interpolation points 0, 1, -1 and infinity.
static const double kBT2[] = {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1};
static const double kG2[] = {1, 0, 0, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0, 0, 1};
static const double kAT2[] = {1, 1, 1, 0, 0, 1, -1, -1};

// F(4 x 4, 3 x 3): points 0, 1, -1, 2, -2 and infinity.
static const double kBT4[] = {4, 0, -5, 0,  1, 0, 0, -4, -4, 1, 1, 0, 0, 4, -4, -1, 1, 0,
                              0, -2, -1, 2, 1, 0, 0, 2,  -1, -2, 1, 0, 0, 4, 0,  -5, 0, 1};
static const double kG4[] = {1.0 / 4,  0,         0,        -1.0 / 6, -1.0 / 6, -1.0 / 6,
                             -1.0 / 6, 1.0 / 6,   -1.0 / 6, 1.0 / 24, 1.0 / 12, 1.0 / 6,
                             1.0 / 24, -1.0 / 12, 1.0 / 6,  0,        0,        1};
static const double kAT4[] = {1, 1, 1, 1, 1, 0, 0, 1, -1, 2,  -2, 0,
                              0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1};

bool winograd::isSupportedTile(int64_t m) { return m == 2 || m == 4; }

winograd::Transforms winograd::transforms(int64_t m) {
  assert(isSupportedTile(m) && "unsupported Winograd tile");
  if (m == 2)
    return {2, 4, kBT2, kG2, kAT2};
  return {4, 6, kBT4, kG4, kAT4};
}

std::vector<float> winograd::transformWeights(llvm::ArrayRef<float> w, int64_t o, int64_t c,
                                              int64_t m) {
  Transforms t = transforms(m);
  int64_t a = t.alpha;
  std::vector<float> u(a * a * c * o);
  std::vector<double> gw(a * 3);
  for (int64_t oc = 0; oc < o; ++oc)
    for (int64_t ic = 0; ic < c; ++ic) {
      const float *g = w.data() + (oc * c + ic) * 9;
      for (int64_t i = 0; i < a; ++i) // G g
        for (int64_t j = 0; j < 3; ++j)
          gw[i * 3 + j] = t.g[i * 3] * g[j] + t.g[i * 3 + 1] * g[3 + j] + t.g[i * 3 + 2] * g[6 + j];
      for (int64_t i = 0; i < a; ++i) // (G g) GT
        for (int64_t j = 0; j < a; ++j) {
          double v = gw[i * 3] * t.g[j * 3] + gw[i * 3 + 1] * t.g[j * 3 + 1] +
                     gw[i * 3 + 2] * t.g[j * 3 + 2];
          u[((i * a + j) * o + oc) * c + ic] = static_cast<float>(v);
        }
    }
  return u;
}
