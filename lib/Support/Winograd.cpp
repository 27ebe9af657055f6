//===- Winograd.cpp - minimal-filtering transforms for 3x3 convolutions ---===//
#include "dlc/Support/Winograd.h"

#include <algorithm>
#include <cassert>
#include <vector>

using namespace dlc;

// F(2 x 2, 3 x 3): interpolation points 0, 1, -1 and infinity.
static const float kBT2[] = {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1};
static const float kG2[] = {1, 0, 0, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0, 0, 1};
static const float kAT2[] = {1, 1, 1, 0, 0, 1, -1, -1};

// F(4 x 4, 3 x 3): points 0, 1, -1, 2, -2 and infinity.
static const float kBT4[] = {4, 0, -5, 0,  1, 0, 0, -4, -4, 1, 1, 0, 0, 4, -4, -1, 1, 0,
                              0, -2, -1, 2, 1, 0, 0, 2,  -1, -2, 1, 0, 0, 4, 0,  -5, 0, 1};
static const float kG4[] = {1.0 / 4,  0,         0,        -1.0 / 6, -1.0 / 6, -1.0 / 6,
                             -1.0 / 6, 1.0 / 6,   -1.0 / 6, 1.0 / 24, 1.0 / 12, 1.0 / 6,
                             1.0 / 24, -1.0 / 12, 1.0 / 6,  0,        0,        1};
static const float kAT4[] = {1, 1, 1, 1, 1, 0, 0, 1, -1, 2,  -2, 0,
                              0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1};

bool winograd::isSupportedTile(int64_t m) { return m == 2 || m == 4; }

winograd::Transforms winograd::transforms(int64_t m) {
  assert(isSupportedTile(m) && "unsupported Winograd tile");
  if (m == 2)
    return {2, 4, kBT2, kG2, kAT2};
  return {4, 6, kBT4, kG4, kAT4};
}

/// G taps GT for `len` kernels at once: `taps` the kernels' 9 taps in rows
/// `tapStride` floats apart (each row along the kernels), via `gw`
/// [alpha][3][len], into the rows u[e * stride, + len), e < alpha^2. Every
/// inner loop runs over contiguous floats.
static void transformTaps(const winograd::Transforms &t, const float *taps, int64_t tapStride,
                          int64_t len, std::vector<float> &gw, float *u, int64_t stride) {
  int64_t a = t.alpha;
  gw.resize(a * 3 * len);
  for (int64_t i = 0; i < a; ++i)
    for (int64_t col = 0; col < 3; ++col) {
      float g0 = t.g[i * 3], g1 = t.g[i * 3 + 1], g2 = t.g[i * 3 + 2];
      const float *r0 = taps + col * tapStride, *r1 = taps + (3 + col) * tapStride,
                  *r2 = taps + (6 + col) * tapStride;
      float *out = &gw[(i * 3 + col) * len];
      for (int64_t l = 0; l < len; ++l)
        out[l] = g0 * r0[l] + g1 * r1[l] + g2 * r2[l];
    }
  for (int64_t i = 0; i < a; ++i)
    for (int64_t j = 0; j < a; ++j) {
      float g0 = t.g[j * 3], g1 = t.g[j * 3 + 1], g2 = t.g[j * 3 + 2];
      const float *r0 = &gw[(i * 3) * len], *r1 = &gw[(i * 3 + 1) * len],
                  *r2 = &gw[(i * 3 + 2) * len];
      float *out = u + (i * a + j) * stride;
      for (int64_t l = 0; l < len; ++l)
        out[l] = g0 * r0[l] + g1 * r1[l] + g2 * r2[l];
    }
}

void winograd::transformWeights(llvm::ArrayRef<float> w, int64_t o, int64_t c, int64_t m,
                                llvm::MutableArrayRef<float> u) {
  Transforms t = transforms(m);
  assert(static_cast<int64_t>(w.size()) == o * c * 9 &&
         static_cast<int64_t>(u.size()) == t.alpha * t.alpha * o * c && "wrong sizes");
  // Per output channel: its taps [9][C], into U's rows [alpha^2][O][C].
  std::vector<float> taps(9 * c), gw;
  for (int64_t oc = 0; oc < o; ++oc) {
    const float *k = w.data() + oc * c * 9;
    for (int64_t ic = 0; ic < c; ++ic)
      for (int64_t tap = 0; tap < 9; ++tap)
        taps[tap * c + ic] = k[ic * 9 + tap];
    transformTaps(t, taps.data(), c, c, gw, u.data() + oc * c, o * c);
  }
}

void winograd::transformWeightsHWIO(llvm::ArrayRef<float> w, int64_t c, int64_t o, int64_t m,
                                    llvm::MutableArrayRef<float> u) {
  Transforms t = transforms(m);
  assert(static_cast<int64_t>(w.size()) == 9 * c * o &&
         static_cast<int64_t>(u.size()) == t.alpha * t.alpha * c * o && "wrong sizes");
  // HWIO is the taps [9][C * O] already; taken 2048 kernels at a time, so
  // that `gw` stays 147 KB, in the cache (in one go it took twice the
  // kernels' bytes: 24 MB of fresh pages for SSD-ResNet50's class head).
  constexpr int64_t kChunk = 2048;
  int64_t len = c * o;
  std::vector<float> gw;
  for (int64_t first = 0; first < len; first += kChunk)
    transformTaps(t, w.data() + first, len, std::min(kChunk, len - first), gw, u.data() + first,
                  len);
}
