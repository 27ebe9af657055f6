//===- OutputCheck.cpp - comparing a model's outputs ----------------------===//
#include "dlc/Runtime/OutputCheck.h"
#include "dlc/Dialect/Graph/GraphOps.h"

#include <algorithm>
#include <optional>

using namespace mlir;
using namespace dlc;

std::vector<DetectionOutputs> dlc::findDetectionOutputs(func::FuncOp func) {
  std::vector<DetectionOutputs> found;
  if (func.isExternal())
    return found;
  auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
  auto position = [&](Value v) -> std::optional<unsigned> {
    for (auto [i, operand] : llvm::enumerate(ret.getOperands()))
      if (operand == v)
        return i;
    return std::nullopt;
  };
  func.walk([&](graph::NmsOp nms) {
    std::optional<unsigned> boxes = position(nms.getOutBoxes()),
                            scores = position(nms.getOutScores()),
                            classes = position(nms.getOutClasses());
    if (boxes && scores && classes)
      found.push_back({*boxes, *scores, *classes});
  });
  return found;
}

std::array<Comparison, 3>
dlc::compareDetections(const Tensor &boxes, const Tensor &scores, const Tensor &classes,
                       const Tensor &expectedBoxes, const Tensor &expectedScores,
                       const Tensor &expectedClasses, double atol, double rtol) {
  const Shape &s = scores.shape;
  bool laidOut = hasDetectionShapes(boxes.shape, s, classes.shape) &&
                 boxes.shape == expectedBoxes.shape && s == expectedScores.shape &&
                 classes.shape == expectedClasses.shape;
  if (!laidOut)
    return {compareTensors(boxes, expectedBoxes, atol, rtol),
            compareTensors(scores, expectedScores, atol, rtol),
            compareTensors(classes, expectedClasses, atol, rtol)};
  return compareDetections({boxes.data.data(), scores.data.data(), classes.data.data()},
                           {expectedBoxes.data.data(), expectedScores.data.data(),
                            expectedClasses.data.data()},
                           s[0], s[1], atol, rtol);
}

std::vector<Comparison> dlc::compareOutputs(llvm::ArrayRef<Tensor> actual,
                                            llvm::ArrayRef<Tensor> expected,
                                            llvm::ArrayRef<DetectionOutputs> detections,
                                            double atol, double rtol) {
  size_t n = std::min(actual.size(), expected.size());
  std::vector<Comparison> c(n);
  std::vector<bool> done(n);
  for (const DetectionOutputs &d : detections) {
    if (std::max({d.boxes, d.scores, d.classes}) >= n)
      continue;
    std::array<Comparison, 3> group =
        compareDetections(actual[d.boxes], actual[d.scores], actual[d.classes],
                          expected[d.boxes], expected[d.scores], expected[d.classes], atol, rtol);
    for (auto [i, each] : llvm::zip(std::array{d.boxes, d.scores, d.classes}, group)) {
      c[i] = std::move(each);
      done[i] = true;
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (!done[i])
      c[i] = compareTensors(actual[i], expected[i], atol, rtol);
  return c;
}
