//===- Pooling.cpp - pooling ----------------------------------------------===//
//
// Max and average pooling over 2-D windows (padding, dilation, the
// count_include_pad rule) and global average pooling, in NCHW or NHWC.
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

template <typename PoolOp>
void evalPool(PoolOp op, const Tensor &x, Tensor &y, bool isMax) {
  ImageView xi = imageView(x.shape, op.getLayout());
  ImageView yi = imageView(y.shape, op.getLayout());
  ArrayRef<int64_t> k = op.getKernelSize(), s = op.getStrides(),
                    d = op.getDilations(), p = op.getPadding();
  bool countPad = false;
  if constexpr (std::is_same_v<PoolOp, AvgPool2DOp>)
    countPad = op.getCountIncludePad();
  for (int64_t n = 0; n < yi.n; ++n)
    for (int64_t c = 0; c < yi.c; ++c)
      for (int64_t oh = 0; oh < yi.h; ++oh)
        for (int64_t ow = 0; ow < yi.w; ++ow) {
          double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
          int64_t count = 0;
          for (int64_t r = 0; r < k[0]; ++r)
            for (int64_t q = 0; q < k[1]; ++q) {
              int64_t ih = oh * s[0] - p[0] + r * d[0];
              int64_t iw = ow * s[1] - p[1] + q * d[1];
              bool inside = ih >= 0 && ih < xi.h && iw >= 0 && iw < xi.w;
              bool inPadded = ih < xi.h + p[2] && iw < xi.w + p[3];
              if (!inside) {
                count += countPad && inPadded;
                continue;
              }
              double v = x.data[n * xi.sn + c * xi.sc + ih * xi.sh + iw * xi.sw];
              acc = isMax ? nanMax(acc, v) : acc + v;
              ++count;
            }
          if (!isMax)
            acc = count ? acc / count : 0.0;
          y.data[n * yi.sn + c * yi.sc + oh * yi.sh + ow * yi.sw] = acc;
        }
}

} // namespace

EvalResult interp::evalPooling(Operation *op, Inputs in, Outputs out) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](MaxPool2DOp c) {
        evalPool(c, *in[0], out[0], /*isMax=*/true);
        return success();
      })
      .Case([&](AvgPool2DOp c) {
        evalPool(c, *in[0], out[0], /*isMax=*/false);
        return success();
      })
      .Case([&](GlobalAvgPool2DOp c) {
        ImageView xi = imageView(in[0]->shape, c.getLayout());
        ImageView yi = imageView(out[0].shape, c.getLayout());
        for (int64_t n = 0; n < xi.n; ++n)
          for (int64_t ch = 0; ch < xi.c; ++ch) {
            double acc = 0;
            for (int64_t h = 0; h < xi.h; ++h)
              for (int64_t w = 0; w < xi.w; ++w)
                acc += in[0]->data[n * xi.sn + ch * xi.sc + h * xi.sh +
                                   w * xi.sw];
            out[0].data[n * yi.sn + ch * yi.sc] = acc / (xi.h * xi.w);
          }
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}
