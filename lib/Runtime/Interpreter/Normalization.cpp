//===- Normalization.cpp - normalization and softmax ----------------------===//
//
// Batch and layer normalization and softmax, each along its axis; softmax
// subtracts the maximum first, as every backend does.
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

EvalResult interp::evalNormalization(Operation *op, Inputs in, Outputs out) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](BatchNormOp c) {
        const Tensor &x = *in[0];
        int64_t axis = *normalizeAxis(c.getAxis(), x.shape.size());
        double eps = c.getEpsilon().convertToDouble();
        for (int64_t i = 0; i < x.size(); ++i) {
          int64_t ch = axisIndex(i, x.shape, axis);
          out[0].data[i] = (x.data[i] - in[3]->data[ch]) /
                               std::sqrt(in[4]->data[ch] + eps) *
                               in[1]->data[ch] +
                           in[2]->data[ch];
        }
        return success();
      })
      .Case<SoftmaxOp, FastSoftmaxOp>([&](auto c) {
        const Tensor &x = *in[0];
        int64_t axis = *normalizeAxis(c.getAxis(), x.shape.size());
        int64_t len = x.shape[axis];
        int64_t inner = rowMajorStrides(x.shape)[axis];
        int64_t outer = x.size() / (len * inner);
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t i = 0; i < inner; ++i) {
            int64_t base = o * len * inner + i;
            double mx = -std::numeric_limits<double>::infinity(), sum = 0;
            for (int64_t j = 0; j < len; ++j)
              mx = nanMax(mx, x.data[base + j * inner]);
            for (int64_t j = 0; j < len; ++j)
              sum += std::exp(x.data[base + j * inner] - mx);
            for (int64_t j = 0; j < len; ++j)
              out[0].data[base + j * inner] =
                  std::exp(x.data[base + j * inner] - mx) / sum;
          }
        return success();
      })
      .Case([&](LayerNormOp c) {
        const Tensor &x = *in[0];
        int64_t axis = *normalizeAxis(c.getAxis(), x.shape.size());
        int64_t inner = numElements(ArrayRef(x.shape).drop_front(axis));
        double eps = c.getEpsilon().convertToDouble();
        for (int64_t o = 0; o < x.size() / inner; ++o) {
          const double *px = x.data.data() + o * inner;
          double mean = 0, var = 0;
          for (int64_t i = 0; i < inner; ++i)
            mean += px[i];
          mean /= inner;
          for (int64_t i = 0; i < inner; ++i)
            var += (px[i] - mean) * (px[i] - mean);
          var /= inner;
          double inv = 1.0 / std::sqrt(var + eps);
          for (int64_t i = 0; i < inner; ++i)
            out[0].data[o * inner + i] =
                (px[i] - mean) * inv * in[1]->data[i] + in[2]->data[i];
        }
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}
