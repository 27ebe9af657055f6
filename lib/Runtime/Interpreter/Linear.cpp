//===- Linear.cpp - convolutions and matrix products ----------------------===//
//
// graph.conv2d in either data and kernel layout, dense, matmul (numpy batch
// broadcasting), batch_matmul and bias_add, accumulated in double.
//
//===----------------------------------------------------------------------===//
#include "Eval.h"

#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Support/Winograd.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::interp;

namespace {

LogicalResult evalConv(Conv2DOp op, const Tensor &x,
                                    const Tensor &w, const Tensor *b,
                                    Tensor &y) {
  ImageView xi = imageView(x.shape, op.getDataLayout());
  ImageView yi = imageView(y.shape, op.getDataLayout());
  Shape ws = rowMajorStrides(w.shape);
  bool oihw = op.getKernelLayout() == "OIHW";
  // Strides of weight dims O, I, KH, KW.
  int64_t so = oihw ? ws[0] : ws[3], si = oihw ? ws[1] : ws[2];
  int64_t skh = oihw ? ws[2] : ws[0], skw = oihw ? ws[3] : ws[1];
  int64_t kh = oihw ? w.shape[2] : w.shape[0];
  int64_t kw = oihw ? w.shape[3] : w.shape[1];
  int64_t groups = op.getGroups();
  int64_t icPerGroup = xi.c / groups, ocPerGroup = yi.c / groups;
  ArrayRef<int64_t> s = op.getStrides(), d = op.getDilations(),
                    p = op.getPadding();
  // Each output accumulates its terms in (ic, r, c) order, as a plain
  // seven-deep loop would; the loops are arranged so the innermost one runs
  // along an output row, which keeps big models tolerable.
  for (int64_t n = 0; n < yi.n; ++n)
    for (int64_t oc = 0; oc < yi.c; ++oc) {
      int64_t g = oc / ocPerGroup;
      double *py = y.data.data() + n * yi.sn + oc * yi.sc;
      for (int64_t oh = 0; oh < yi.h; ++oh)
        for (int64_t ow = 0; ow < yi.w; ++ow)
          py[oh * yi.sh + ow * yi.sw] = b ? b->data[oc] : 0.0;
      for (int64_t ic = 0; ic < icPerGroup; ++ic) {
        const double *px = x.data.data() + n * xi.sn + (g * icPerGroup + ic) * xi.sc;
        for (int64_t r = 0; r < kh; ++r)
          for (int64_t c = 0; c < kw; ++c) {
            double wv = w.data[oc * so + ic * si + r * skh + c * skw];
            // Output columns whose input column is inside the image.
            int64_t off = c * d[1] - p[1];
            int64_t owLo = off >= 0 ? 0 : (-off + s[1] - 1) / s[1];
            int64_t owHi = xi.w - 1 - off < 0 ? -1 : (xi.w - 1 - off) / s[1];
            owHi = std::min(owHi, yi.w - 1);
            for (int64_t oh = 0; oh < yi.h; ++oh) {
              int64_t ih = oh * s[0] - p[0] + r * d[0];
              if (ih < 0 || ih >= xi.h)
                continue;
              const double *row = px + ih * xi.sh;
              double *out = py + oh * yi.sh;
              for (int64_t ow = owLo; ow <= owHi; ++ow)
                out[ow * yi.sw] += wv * row[(ow * s[1] + off) * xi.sw];
            }
          }
      }
    }
  return success();
}


/// graph.conv2d_winograd by its algorithm, in double: every tile of the
/// padded input (zeros past its edge) transformed, multiplied by the
/// transformed weights, summed over the input channels, transformed back.
LogicalResult evalConvWinograd(Conv2DWinogradOp op, const Tensor &x, const Tensor &u,
                               const Tensor *b, Tensor &y) {
  winograd::Transforms t = winograd::transforms(op.getTile());
  // NCHW with U [alpha^2, O, C], or NHWC with U [alpha^2, C, O].
  bool nhwc = op.getDataLayout() == "NHWC";
  int64_t ci = nhwc ? 3 : 1, hi = nhwc ? 1 : 2;
  int64_t m = t.m, a = t.alpha, n = x.shape[0], c = x.shape[ci], h = x.shape[hi],
          w = x.shape[hi + 1], o = y.shape[ci], oh = y.shape[hi], ow = y.shape[hi + 1];
  auto at = [&](int64_t in, int64_t ch, int64_t r, int64_t q, int64_t rows, int64_t cols,
                int64_t chans) {
    return nhwc ? ((in * rows + r) * cols + q) * chans + ch
                : ((in * chans + ch) * rows + r) * cols + q;
  };
  ArrayRef<int64_t> p = op.getPadding();
  std::vector<double> d(a * a), tmp(a * a), v(a * a * c), acc(a * a), out(m * a);
  for (int64_t in = 0; in < n; ++in)
    for (int64_t ty = 0; ty < oh; ty += m)
      for (int64_t tx = 0; tx < ow; tx += m) {
        for (int64_t ic = 0; ic < c; ++ic) { // V = BT d B
          for (int64_t i = 0; i < a; ++i)
            for (int64_t j = 0; j < a; ++j) {
              int64_t r = ty + i - p[0], q = tx + j - p[1];
              d[i * a + j] = r >= 0 && r < h && q >= 0 && q < w
                                 ? x.data[at(in, ic, r, q, h, w, c)]
                                 : 0.0;
            }
          for (int64_t i = 0; i < a; ++i)
            for (int64_t j = 0; j < a; ++j) {
              double s = 0;
              for (int64_t k = 0; k < a; ++k)
                s += t.bt[i * a + k] * d[k * a + j];
              tmp[i * a + j] = s;
            }
          for (int64_t i = 0; i < a; ++i)
            for (int64_t j = 0; j < a; ++j) {
              double s = 0;
              for (int64_t k = 0; k < a; ++k)
                s += tmp[i * a + k] * t.bt[j * a + k];
              v[(i * a + j) * c + ic] = s;
            }
        }
        for (int64_t oc = 0; oc < o; ++oc) {
          for (int64_t e = 0; e < a * a; ++e) { // M = sum_c U . V
            double s = 0;
            for (int64_t ic = 0; ic < c; ++ic)
              s += u.data[nhwc ? (e * c + ic) * o + oc : (e * o + oc) * c + ic] * v[e * c + ic];
            acc[e] = s;
          }
          for (int64_t i = 0; i < m; ++i) // Y = AT M A
            for (int64_t j = 0; j < a; ++j) {
              double s = 0;
              for (int64_t k = 0; k < a; ++k)
                s += t.at[i * a + k] * acc[k * a + j];
              out[i * a + j] = s;
            }
          for (int64_t i = 0; i < m && ty + i < oh; ++i)
            for (int64_t j = 0; j < m && tx + j < ow; ++j) {
              double s = b ? b->data[oc] : 0.0;
              for (int64_t k = 0; k < a; ++k)
                s += out[i * a + k] * t.at[j * a + k];
              y.data[at(in, oc, ty + i, tx + j, oh, ow, o)] = s;
            }
        }
      }
  return success();
}

} // namespace

EvalResult interp::evalLinear(Operation *op, Inputs in, Outputs out) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](Conv2DOp c) {
        return evalConv(c, *in[0], *in[1], in.size() > 2 ? in[2] : nullptr,
                        out[0]);
      })
      .Case([&](Conv2DWinogradOp c) {
        return evalConvWinograd(c, *in[0], *in[1], in.size() > 2 ? in[2] : nullptr, out[0]);
      })
      .Case([&](BiasAddOp c) {
        const Tensor &x = *in[0];
        int64_t axis = *normalizeAxis(c.getAxis(), x.shape.size());
        for (int64_t i = 0; i < x.size(); ++i)
          out[0].data[i] = x.data[i] + in[1]->data[axisIndex(i, x.shape, axis)];
        return success();
      })
      .Case([&](DenseOp) {
        const Tensor &x = *in[0], &w = *in[1];
        int64_t k = x.shape.back(), o = w.shape[0];
        int64_t m = numElements(ArrayRef(x.shape).drop_back());
        for (int64_t r = 0; r < m; ++r)
          for (int64_t j = 0; j < o; ++j) {
            double acc = in.size() > 2 ? in[2]->data[j] : 0.0;
            for (int64_t i = 0; i < k; ++i)
              acc += x.data[r * k + i] * w.data[j * k + i];
            out[0].data[r * o + j] = acc;
          }
        return success();
      })
      .Case([&](MatmulOp) {
        Shape a(in[0]->shape), b(in[1]->shape);
        if (a.size() == 1)
          a.insert(a.begin(), 1);
        if (b.size() == 1)
          b.push_back(1);
        int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
        Shape batch = *broadcastShapes(ArrayRef(a).drop_back(2),
                                       ArrayRef(b).drop_back(2));
        Shape sa = broadcastStrides(ArrayRef(a).drop_back(2), batch);
        Shape sb = broadcastStrides(ArrayRef(b).drop_back(2), batch);
        forEachIndex(batch, [&](ArrayRef<int64_t> idx, int64_t linear) {
          const double *pa = in[0]->data.data() + dot(idx, sa) * m * k;
          const double *pb = in[1]->data.data() + dot(idx, sb) * k * n;
          double *py = out[0].data.data() + linear * m * n;
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
              double acc = 0;
              for (int64_t l = 0; l < k; ++l)
                acc += pa[i * k + l] * pb[l * n + j];
              py[i * n + j] = acc;
            }
        });
        return success();
      })
      .Case([&](BatchMatmulOp c) {
        const Tensor &a = *in[0], &b = *in[1];
        bool ta = c.getTransposeA(), tb = c.getTransposeB();
        int64_t batch = out[0].shape[0], m = out[0].shape[1],
                n = out[0].shape[2], k = ta ? a.shape[1] : a.shape[2];
        for (int64_t bi = 0; bi < batch; ++bi) {
          int64_t ba = a.shape[0] == 1 ? 0 : bi, bb = b.shape[0] == 1 ? 0 : bi;
          const double *pa = a.data.data() + ba * m * k;
          const double *pb = b.data.data() + bb * k * n;
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
              double acc = 0;
              for (int64_t l = 0; l < k; ++l)
                acc += (ta ? pa[l * m + i] : pa[i * k + l]) *
                       (tb ? pb[j * k + l] : pb[l * n + j]);
              out[0].data[(bi * m + i) * n + j] = acc;
            }
        }
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}
