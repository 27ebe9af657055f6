//===- Detection.cpp - detection ------------------------------------------===//
//
// Non-maximum suppression: greedy per class, then the best max_detections
// over all classes.
//
//===----------------------------------------------------------------------===//
#include "Eval.h"

#include "dlc/Dialect/Graph/GraphOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::interp;

namespace {

double iou(const double *a, const double *b) {
  auto area = [](const double *r) {
    return std::max(0.0, r[2] - r[0]) * std::max(0.0, r[3] - r[1]);
  };
  double w = std::min(a[2], b[2]) - std::max(a[0], b[0]);
  double h = std::min(a[3], b[3]) - std::max(a[1], b[1]);
  double inter = std::max(0.0, w) * std::max(0.0, h);
  double uni = area(a) + area(b) - inter;
  return uni > 0 ? inter / uni : 0.0;
}

/// Greedy per-class NMS, then the best max_detections over all classes.
void evalNms(NmsOp op, const Tensor &boxes, const Tensor &scores,
                    Outputs out) {
  int64_t n = boxes.shape[0], nb = boxes.shape[1], nc = scores.shape[1];
  int64_t k = op.getMaxDetections(), background = op.getBackgroundClass();
  double iouMax = op.getIouThreshold().convertToDouble();
  double minScore = op.getScoreThreshold().convertToDouble();
  struct Detection {
    double score;
    int64_t cls, box;
  };
  std::fill(out[2].data.begin(), out[2].data.end(), -1.0);
  for (int64_t i = 0; i < n; ++i) {
    const double *bx = boxes.data.data() + i * nb * 4;
    std::vector<Detection> kept;
    for (int64_t c = 0; c < nc; ++c) {
      if (c == background)
        continue;
      const double *sc = scores.data.data() + (i * nc + c) * nb;
      std::vector<int64_t> order;
      for (int64_t b = 0; b < nb; ++b)
        if (sc[b] > minScore)
          order.push_back(b);
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return sc[a] > sc[b]; });
      std::vector<int64_t> classKept;
      for (int64_t b : order) {
        bool suppressed = llvm::any_of(classKept, [&](int64_t q) {
          return iou(bx + b * 4, bx + q * 4) > iouMax;
        });
        if (!suppressed) {
          classKept.push_back(b);
          kept.push_back({sc[b], c, b});
        }
      }
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [](const Detection &a, const Detection &b) {
                       return a.score > b.score;
                     });
    for (int64_t j = 0; j < std::min<int64_t>(k, kept.size()); ++j) {
      for (int64_t q = 0; q < 4; ++q)
        out[0].data[(i * k + j) * 4 + q] = bx[kept[j].box * 4 + q];
      out[1].data[i * k + j] = kept[j].score;
      out[2].data[i * k + j] = kept[j].cls;
    }
  }
}

} // namespace

EvalResult interp::evalDetection(Operation *op, Inputs in, Outputs out) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](NmsOp c) {
        evalNms(c, *in[0], *in[1], out);
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}
