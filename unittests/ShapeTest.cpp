//===- ShapeTest.cpp - broadcasting and strides ----------------------------===//
#include "dlc/Support/Shape.h"

#include "gtest/gtest.h"

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
