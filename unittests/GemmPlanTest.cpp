//===- GemmPlanTest.cpp - strided products as one column-major GEMM --------===//
//
// planGemm against the product computed over the views themselves: every
// storage order of A, B and C (row- or column-major, with padded leading
// dimensions), batches broadcast or not, accumulating or not; and the
// views no call computes.
//
//===----------------------------------------------------------------------===//
#include "dlc/Runtime/GemmPlan.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace {

/// A batch of rows x cols matrices in a buffer of its own, stored row- or
/// column-major with `pad` unused elements after each row (or column).
struct Stored {
  dlc::MatrixView view;
  std::vector<double> data;

  Stored(int64_t batch, int64_t rows, int64_t cols, bool columnMajor, int64_t pad,
         std::mt19937 &rng) {
    int64_t ld = (columnMajor ? rows : cols) + pad;
    int64_t matrix = ld * (columnMajor ? cols : rows);
    view = {batch, rows, cols, matrix, columnMajor ? 1 : ld, columnMajor ? ld : 1};
    std::uniform_real_distribution<double> u(-1, 1);
    data.resize(batch * matrix);
    for (double &d : data)
      d = u(rng);
  }
  double &at(int64_t p, int64_t i, int64_t j) {
    return data[(view.batch == 1 ? 0 : p) * view.batchStride + i * view.rowStride +
                j * view.colStride];
  }
};

TEST(GemmPlan, EveryStorageOrderComputesTheProduct) {
  std::mt19937 rng(11);
  int cases = 0, swapped = 0;
  for (int order = 0; order < 8; ++order)
    for (int broadcast = 0; broadcast < 3; ++broadcast)
      for (bool accumulate : {false, true}) {
        std::uniform_int_distribution<int64_t> size(1, 5), pad(0, 2);
        int64_t batch = 3, m = size(rng), n = size(rng), k = size(rng);
        Stored a(broadcast == 1 ? 1 : batch, m, k, order & 1, pad(rng), rng);
        Stored b(broadcast == 2 ? 1 : batch, k, n, order & 2, pad(rng), rng);
        Stored c(batch, m, n, order & 4, pad(rng), rng);
        std::vector<double> expected(batch * m * n);
        for (int64_t p = 0; p < batch; ++p)
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
              double sum = accumulate ? c.at(p, i, j) : 0;
              for (int64_t l = 0; l < k; ++l)
                sum += a.at(p, i, l) * b.at(p, l, j);
              expected[(p * m + i) * n + j] = sum;
            }
        std::string why;
        std::optional<dlc::GemmPlan> plan = dlc::planGemm(a.view, b.view, c.view, why);
        ASSERT_TRUE(plan) << why;
        swapped += plan->swapped;
        Stored &x = plan->swapped ? b : a, &y = plan->swapped ? a : b;
        dlc::columnMajorGemm(
            *plan, 1.0, accumulate ? 1.0 : 0.0, [&](int64_t i) { return x.data.at(i); },
            [&](int64_t i) { return y.data.at(i); }, [&](int64_t i) { return c.data.at(i); },
            [&](int64_t i, double v) { c.data.at(i) = v; });
        for (int64_t p = 0; p < batch; ++p)
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j)
              EXPECT_NEAR(c.at(p, i, j), expected[(p * m + i) * n + j], 1e-12)
                  << "order " << order << " broadcast " << broadcast << " at " << p << ","
                  << i << "," << j;
        ++cases;
      }
  EXPECT_EQ(cases, 48);
  EXPECT_GT(swapped, 0); // row-major outputs go through C^T = B^T A^T
}

TEST(GemmPlan, SaysWhyNoCallComputesAView) {
  std::string why;
  dlc::MatrixView a{1, 4, 3, 0, 3, 1}, b{1, 3, 5, 0, 5, 1}, c{1, 4, 5, 0, 5, 1};
  EXPECT_TRUE(dlc::planGemm(a, b, c, why));
  dlc::MatrixView strided{1, 4, 3, 0, 6, 2}; // every other column
  EXPECT_FALSE(dlc::planGemm(strided, b, c, why));
  EXPECT_EQ(why, "an operand has neither its rows nor its columns contiguous");
  EXPECT_FALSE(dlc::planGemm(b, b, c, why));
  EXPECT_EQ(why, "the operands' shapes do not make a product");
  dlc::MatrixView twoBatches{2, 4, 3, 12, 3, 1}, threeOut{3, 4, 5, 20, 5, 1};
  EXPECT_FALSE(dlc::planGemm(twoBatches, b, threeOut, why));
  EXPECT_EQ(why, "an operand's batch is neither the result's nor 1");
}

} // namespace
