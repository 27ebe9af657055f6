//===- OutputCheck.h - comparing a model's outputs --------------*- C++ -*-===//
//
// How the tools decide that two runs of one model agree: element by element
// within a tolerance, except for detections. The results of graph.nms are
// ranked by score, and scores that tie within rounding may come out in either
// order from two correct compilations of one model (channels-last against
// channels-first, say). Detections are therefore compared as sets: every
// detection must have a counterpart of the same class whose score and box
// agree within the tolerance, wherever it is ranked.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_OUTPUTCHECK_H
#define DLC_RUNTIME_OUTPUTCHECK_H

#include "dlc/Runtime/Tensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <vector>

namespace dlc {

/// The graph.nms whose three results `func` returns directly.
std::vector<DetectionOutputs> findDetectionOutputs(mlir::func::FuncOp func);

/// Compares two sets of detections (Agreement.h's compareDetections) where
/// the six tensors are laid out as graph.nms returns them, element by element
/// otherwise.
std::array<Comparison, 3> compareDetections(const Tensor &boxes, const Tensor &scores,
                                            const Tensor &classes, const Tensor &expectedBoxes,
                                            const Tensor &expectedScores,
                                            const Tensor &expectedClasses, double atol,
                                            double rtol);

/// Compares outputs pairwise: the groups in `detections` whose three tensors
/// are all present with compareDetections, every other output with
/// compareTensors. `expected` may be shorter than `actual`.
std::vector<Comparison> compareOutputs(llvm::ArrayRef<Tensor> actual,
                                       llvm::ArrayRef<Tensor> expected,
                                       llvm::ArrayRef<DetectionOutputs> detections, double atol,
                                       double rtol);

} // namespace dlc

#endif // DLC_RUNTIME_OUTPUTCHECK_H
