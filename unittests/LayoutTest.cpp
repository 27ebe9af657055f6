//===- LayoutTest.cpp - layout strings -------------------------------------===//
#include "dlc/Support/Layout.h"

#include "gtest/gtest.h"

using namespace dlc;

static Layout parseOk(llvm::StringRef text) {
  std::string error;
  std::optional<Layout> l = Layout::parse(text, error);
  EXPECT_TRUE(l.has_value()) << error;
  return *l;
}

TEST(Layout, ParsesPrimalAndBlockedAxes) {
  Layout l = parseOk("NCHW16c");
  ASSERT_EQ(l.rank(), 5);
  EXPECT_EQ(l.indexOf('C'), 1);
  EXPECT_EQ(l.blockIndexOf('C'), 4);
  EXPECT_EQ(l.blockFactor('C'), 16);
  EXPECT_EQ(l.blockFactor('H'), 1);
}

TEST(Layout, RejectsMalformedLayouts) {
  std::string error;
  EXPECT_FALSE(Layout::parse("NCHC", error));
  EXPECT_NE(error.find("repeats"), std::string::npos);
  EXPECT_FALSE(Layout::parse("NHW8c", error));
  EXPECT_FALSE(Layout::parse("NCHW8", error));
  EXPECT_FALSE(Layout::parse("nchw", error));
  EXPECT_FALSE(Layout::parse("", error));
}

TEST(Layout, ConvertsShapes) {
  std::string error;
  Layout nchw = parseOk("NCHW"), nhwc = parseOk("NHWC"), blocked = parseOk("NCHW8c");
  EXPECT_EQ(*nhwc.convertShape(nchw, {1, 3, 4, 5}, error), (Shape{1, 4, 5, 3}));
  EXPECT_EQ(*blocked.convertShape(nchw, {1, 16, 7, 7}, error),
            (Shape{1, 2, 7, 7, 8}));
  EXPECT_EQ(*nchw.convertShape(blocked, {1, 2, 7, 7, 8}, error),
            (Shape{1, 16, 7, 7}));
  EXPECT_FALSE(blocked.convertShape(nchw, {1, 12, 7, 7}, error));
  EXPECT_NE(error.find("not divisible"), std::string::npos);
}

TEST(Layout, MapsIndicesThroughBlocks) {
  Layout nchw = parseOk("NCHW"), blocked = parseOk("NCHW8c");
  llvm::SmallVector<int64_t> src;
  // Element (n=0, C-block=1, h=2, w=3, c=5) is channel 13 in NCHW.
  blocked.mapIndex(nchw, {0, 1, 2, 3, 5}, src);
  EXPECT_EQ(src, (llvm::SmallVector<int64_t>{0, 13, 2, 3}));
  nchw.mapIndex(blocked, {0, 13, 2, 3}, src);
  EXPECT_EQ(src, (llvm::SmallVector<int64_t>{0, 1, 2, 3, 5}));
}
