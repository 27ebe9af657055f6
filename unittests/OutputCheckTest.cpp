//===- OutputCheckTest.cpp - detections compared as sets ------------------===//
#include "dlc/Runtime/Model.h"
#include "dlc/Runtime/OutputCheck.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace dlc;

namespace {
/// One image's K detection slots: boxes [1, K, 4], scores [1, K], classes [1, K].
struct Detections {
  Tensor boxes, scores, classes;
  explicit Detections(int64_t k)
      : boxes(DType::F32, {1, k, 4}), scores(DType::F32, {1, k}), classes(DType::I64, {1, k}) {
    for (double &c : classes.data)
      c = -1; // unused slots
  }
  Detections &set(int64_t rank, double classId, double score, double x) {
    classes.data[rank] = classId;
    scores.data[rank] = score;
    for (int q = 0; q < 4; ++q)
      boxes.data[rank * 4 + q] = x + q;
    return *this;
  }
  std::array<Comparison, 3> against(const Detections &expected, double tol = 1e-3) const {
    return compareDetections(boxes, scores, classes, expected.boxes, expected.scores,
                             expected.classes, tol, tol);
  }
};
} // namespace

TEST(OutputCheck, DetectionsTiedInScoreMatchInEitherOrder) {
  Detections expected(3), actual(3);
  expected.set(0, 2, 0.9, 10).set(1, 5, 0.9, 20).set(2, 2, 0.5, 30);
  actual.set(0, 5, 0.9000001, 20.0002).set(1, 2, 0.9, 10).set(2, 2, 0.5, 30);
  std::array<Comparison, 3> c = actual.against(expected);
  for (const Comparison &each : c)
    EXPECT_TRUE(each.match) << each.reason;
  EXPECT_NEAR(c[0].maxAbsError, 2e-4, 1e-9);
  EXPECT_NEAR(c[1].maxAbsError, 1e-7, 1e-9);
  // Element by element, the swap is 8 box coordinates, 2 classes apart.
  EXPECT_FALSE(compareTensors(actual.boxes, expected.boxes, 1e-3, 1e-3).match);
}

TEST(OutputCheck, DetectionsDifferingInClassScoreOrBoxMismatch) {
  Detections expected(3); // a free slot: nothing was cut
  expected.set(0, 2, 0.9, 10).set(1, 5, 0.8, 20);
  Detections otherClass = expected, lowerScore = expected, movedBox = expected;
  otherClass.set(1, 6, 0.8, 20);
  lowerScore.set(1, 5, 0.7, 20);
  movedBox.set(1, 5, 0.8, 20.5);
  for (const Detections *actual : {&otherClass, &lowerScore, &movedBox}) {
    std::array<Comparison, 3> c = actual->against(expected);
    for (const Comparison &each : c) {
      EXPECT_FALSE(each.match);
      EXPECT_EQ(each.mismatches, 2); // one unpaired on each side
    }
    EXPECT_NE(c[0].reason.find("image 0: the expected detection of class 5 with score 0.8 at "
                               "rank 1 has no counterpart"),
              std::string::npos)
        << c[0].reason;
  }
}

TEST(OutputCheck, MissingOrExtraDetectionsMismatch) {
  Detections expected(3), fewer(3);
  expected.set(0, 1, 0.9, 10).set(1, 1, 0.6, 30);
  fewer.set(0, 1, 0.9, 10);
  EXPECT_EQ(fewer.against(expected)[1].mismatches, 1);
  EXPECT_NE(expected.against(fewer)[1].reason.find("the actual detection of class 1"),
            std::string::npos);
}

TEST(OutputCheck, TiesAtTheCutOffAreExcusedOnlyWhenTheSlotsAreFull) {
  // Both full: the last slot holds one of two detections tied in score.
  Detections expected(2), actual(2);
  expected.set(0, 1, 0.9, 10).set(1, 3, 0.5, 40);
  actual.set(0, 1, 0.9, 10).set(1, 4, 0.5000001, 70);
  for (const Comparison &each : actual.against(expected)) {
    EXPECT_TRUE(each.match) << each.reason;
    EXPECT_EQ(each.excusedDetections, 2); // one on each side
  }
  // Not tied: a real difference.
  actual.set(1, 4, 0.6, 70);
  EXPECT_FALSE(actual.against(expected)[0].match);
  // Not full: nothing was cut, so the other detection is missing.
  Detections roomy(3), roomyActual(3);
  roomy.set(0, 1, 0.9, 10).set(1, 3, 0.5, 40);
  roomyActual.set(0, 1, 0.9, 10).set(1, 4, 0.5, 70);
  EXPECT_EQ(roomyActual.against(roomy)[0].mismatches, 2);
}

TEST(OutputCheck, NaNMatchesNaNAsElementByElement) {
  Detections expected(2), actual(2);
  expected.set(0, 1, 0.9, 10);
  expected.boxes.data[2] = std::nan("");
  actual = expected;
  for (const Comparison &each : actual.against(expected))
    EXPECT_TRUE(each.match) << each.reason;
  actual.boxes.data[2] = 12;
  EXPECT_FALSE(actual.against(expected)[0].match);
}

TEST(OutputCheck, NaNAndInfinitiesAgreeOnlyWithThemselves) {
  double inf = INFINITY, nan = std::nan("");
  EXPECT_TRUE(withinTolerance(nan, nan, 0, 0));
  EXPECT_FALSE(withinTolerance(nan, 1, 1, 1));
  EXPECT_TRUE(withinTolerance(inf, inf, 0, 0));
  EXPECT_FALSE(withinTolerance(-inf, inf, 1e-3, 1e-3));
  EXPECT_FALSE(withinTolerance(5.0, inf, 1e-3, 1e-3)); // rtol * inf bounds nothing
  EXPECT_FALSE(withinTolerance(inf, 5.0, 1e-3, 1e-3));
  double actual[] = {1, 2, inf, 5}, expected[] = {1, 2.5, inf, inf};
  Comparison c = compareValues(actual, expected, 4, 1e-3, 1e-3);
  EXPECT_FALSE(c.match);
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.firstMismatch, 1);
}

TEST(OutputCheck, OutputsOtherThanDetectionsCompareElementByElement) {
  Detections expected(2), actual(2);
  expected.set(0, 1, 0.9, 10).set(1, 2, 0.9, 20);
  actual.set(0, 2, 0.9, 20).set(1, 1, 0.9, 10);
  Tensor extra(DType::F32, {2}), extraExpected(DType::F32, {2});
  extraExpected.data = {1, 2};
  extra.data = {2, 1};
  std::vector<Tensor> mine{actual.boxes, extra, actual.scores, actual.classes};
  std::vector<Tensor> theirs{expected.boxes, extraExpected, expected.scores, expected.classes};
  std::vector<Comparison> c = compareOutputs(mine, theirs, {{0, 2, 3}}, 1e-3, 1e-3);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_TRUE(c[0].match && c[2].match && c[3].match);
  EXPECT_FALSE(c[1].match);
  EXPECT_EQ(c[1].mismatches, 2);
  // Without all three expected tensors, element by element.
  std::vector<Comparison> partial =
      compareOutputs(mine, llvm::ArrayRef(theirs).take_front(2), {{0, 2, 3}}, 1e-3, 1e-3);
  ASSERT_EQ(partial.size(), 2u);
  EXPECT_FALSE(partial[0].match);
}

TEST(OutputCheck, FindsTheNmsResultsAFunctionReturns) {
  mlir::DialectRegistry registry;
  registerModelDialects(registry);
  mlir::MLIRContext context(registry);
  const char *ir = R"mlir(
    func.func @main(%b: tensor<1x8x4xf32>, %s: tensor<1x3x8xf32>)
        -> (tensor<1x2xf32>, tensor<1x2x4xf32>, tensor<1x2xi64>, tensor<1x2xf32>) {
      %0:3 = graph.nms %b, %s {max_detections = 2 : i64}
        : (tensor<1x8x4xf32>, tensor<1x3x8xf32>)
        -> (tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xi64>)
      %1:3 = graph.nms %b, %s {max_detections = 2 : i64}
        : (tensor<1x8x4xf32>, tensor<1x3x8xf32>)
        -> (tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xi64>)
      return %0#1, %0#0, %0#2, %1#1 : tensor<1x2xf32>, tensor<1x2x4xf32>, tensor<1x2xi64>,
        tensor<1x2xf32>
    })mlir";
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(ir, &context);
  ASSERT_TRUE(module);
  auto func = module->lookupSymbol<mlir::func::FuncOp>("main");
  std::vector<DetectionOutputs> found = findDetectionOutputs(func);
  // The second NMS returns only its scores: those compare element by element.
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].boxes, 1u);
  EXPECT_EQ(found[0].scores, 0u);
  EXPECT_EQ(found[0].classes, 2u);
}
