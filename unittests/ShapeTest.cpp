//===- ShapeTest.cpp - broadcasting and strides ----------------------------===//
#include "dlc/Support/Shape.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <vector>

using namespace dlc;

TEST(Shape, BroadcastsLikeNumpy) {
  EXPECT_EQ(*broadcastShapes({8, 1, 6, 1}, {7, 1, 5}), (Shape{8, 7, 6, 5}));
  EXPECT_EQ(*broadcastShapes({5, 4}, {1}), (Shape{5, 4}));
  EXPECT_EQ(*broadcastShapes({}, {2, 3}), (Shape{2, 3}));
  EXPECT_EQ(*broadcastShapes({15, 3, 5}, {15, 1, 5}), (Shape{15, 3, 5}));
  EXPECT_EQ(*broadcastShapes({3, 0}, {1, 0}), (Shape{3, 0}));
}

TEST(Shape, RejectsIncompatibleBroadcast) {
  EXPECT_FALSE(broadcastShapes({3}, {4}).has_value());
  EXPECT_FALSE(broadcastShapes({2, 1}, {8, 4, 3}).has_value());
}

TEST(Shape, NormalizesAxes) {
  EXPECT_EQ(*normalizeAxis(-1, 4), 3);
  EXPECT_EQ(*normalizeAxis(0, 4), 0);
  EXPECT_FALSE(normalizeAxis(4, 4).has_value());
  EXPECT_FALSE(normalizeAxis(-5, 4).has_value());
}

TEST(Shape, StridesAndBroadcastStrides) {
  EXPECT_EQ(rowMajorStrides({2, 3, 4}), (Shape{12, 4, 1}));
  EXPECT_EQ(rowMajorStrides({}), Shape{});
  EXPECT_EQ(broadcastStrides({3, 1}, {2, 3, 4}), (Shape{0, 1, 0}));
  EXPECT_EQ(numElements({2, 3, 4}), 24);
  EXPECT_EQ(numElements({}), 1);
  EXPECT_EQ(formatShape({1, 3, 224, 224}), "1x3x224x224");
}

/// permuteElements against the definition, element by element, for
/// elements of 4 and 2 bytes (f32; f16 and bf16): every permutation of
/// rank-4 shapes whose sizes are no multiple of the copy's 16 x 16 blocks,
/// with and without axes of one element, and the layout transforms of
/// weights and images.
template <typename T> static void checkPermute(Shape shape, llvm::ArrayRef<int64_t> perm) {
  int64_t count = numElements(shape);
  std::vector<T> in(count), out(count, T(-1));
  for (int64_t i = 0; i < count; ++i)
    in[i] = static_cast<T>(i);
  permuteElements(in.data(), sizeof(T), shape, perm, out.data());
  Shape outShape;
  for (int64_t a : perm)
    outShape.push_back(shape[a]);
  Shape inStrides = rowMajorStrides(shape);
  for (int64_t i = 0; i < count; ++i) {
    int64_t source = 0;
    for (size_t k = 0; k < perm.size(); ++k)
      source += axisIndex(i, outShape, k) * inStrides[perm[k]];
    ASSERT_EQ(out[i], in[source]) << "element " << i << " of " << formatShape(outShape);
  }
}

TEST(Shape, PermutesElements) {
  auto check = [](Shape shape, llvm::ArrayRef<int64_t> perm) {
    checkPermute<uint32_t>(shape, perm);
    checkPermute<uint16_t>(shape, perm);
  };
  for (Shape shape : {Shape{3, 17, 5, 33}, Shape{18, 1, 5, 1}, Shape{1, 20, 1, 9}}) {
    llvm::SmallVector<int64_t> perm{0, 1, 2, 3};
    do
      check(shape, perm);
    while (std::next_permutation(perm.begin(), perm.end()));
  }
  check({64, 40, 3, 3}, {2, 3, 1, 0}); // OIHW -> HWIO
  check({64, 40, 1, 1}, {2, 3, 1, 0}); // a 1 x 1 kernel's: a transpose
  check({1, 1, 1, 1}, {3, 2, 1, 0});
  check({1, 20, 7, 9}, {0, 2, 3, 1});  // NCHW -> NHWC
  check({1, 7, 9, 20}, {0, 3, 1, 2});  // NHWC -> NCHW
  check({37}, {0});
  check({}, {});
}
