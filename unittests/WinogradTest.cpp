//===- WinogradTest.cpp - Winograd weight transforms -----------------------===//
#include "dlc/Support/Winograd.h"

#include "gtest/gtest.h"

#include <random>
#include <vector>

using namespace dlc;

/// The HWIO transform (taken in chunks of kernels) against the OIHW one, on
/// the same kernels: 7 x 300 of them, so the last chunk is a partial one.
TEST(Winograd, HWIOWeightsEqualOIHWOnes) {
  const int64_t o = 7, c = 300;
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> oihw(o * c * 9), hwio(9 * c * o);
  for (float &x : oihw)
    x = dist(gen);
  for (int64_t oc = 0; oc < o; ++oc)
    for (int64_t ic = 0; ic < c; ++ic)
      for (int64_t tap = 0; tap < 9; ++tap)
        hwio[(tap * c + ic) * o + oc] = oihw[(oc * c + ic) * 9 + tap];
  for (int64_t m : {2, 4}) {
    int64_t area = (m + 2) * (m + 2);
    std::vector<float> u(area * o * c), uHWIO(area * c * o);
    winograd::transformWeights(oihw, o, c, m, u);
    winograd::transformWeightsHWIO(hwio, c, o, m, uHWIO);
    for (int64_t e = 0; e < area; ++e)
      for (int64_t oc = 0; oc < o; ++oc)
        for (int64_t ic = 0; ic < c; ++ic)
          ASSERT_FLOAT_EQ(uHWIO[(e * c + ic) * o + oc], u[(e * o + oc) * c + ic])
              << "m " << m << ", element " << e << ", o " << oc << ", c " << ic;
  }
}
