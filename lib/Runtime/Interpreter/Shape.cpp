//===- Shape.cpp - shape and indexing -------------------------------------===//
//
// Data movement: transpose, the reshapes, concat, split, slice, pad (three
// modes), gather and gather_elements (indices clamped, see graph.gather),
// resize (per axis, taps from Support/Resize.h) and layout transforms.
//
//===----------------------------------------------------------------------===//
#include "Eval.h"

#include "dlc/Support/Layout.h"
#include "dlc/Support/Resize.h"
#include "dlc/Dialect/Graph/GraphOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;
using namespace dlc::interp;

EvalResult interp::evalShape(Operation *op, Inputs in, Outputs out) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](TransposeOp c) {
        const Tensor &x = *in[0];
        Shape xs = rowMajorStrides(x.shape), st;
        for (int64_t p : c.getPerm())
          st.push_back(xs[*normalizeAxis(p, x.shape.size())]);
        forEachIndex(out[0].shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
          out[0].data[linear] = x.data[dot(idx, st)];
        });
        return success();
      })
      .Case<ReshapeOp, ExpandDimsOp, SqueezeOp>([&](auto) {
        out[0].data = in[0]->data;
        return success();
      })
      .Case([&](DynamicReshapeOp c) -> LogicalResult {
        const Tensor &x = *in[0];
        Shape target;
        int64_t inferAt = -1, known = 1;
        for (auto [i, v] : llvm::enumerate(in[1]->data)) {
          int64_t dim = static_cast<int64_t>(v);
          if (dim == 0 && i < x.shape.size())
            dim = x.shape[i];
          if (dim == -1) {
            if (inferAt >= 0)
              return c.emitError("dynamic_reshape: shape operand has more "
                                 "than one -1");
            inferAt = i;
          } else if (dim < 0) {
            return c.emitError("dynamic_reshape: negative size ") << dim;
          } else {
            known *= dim;
          }
          target.push_back(dim);
        }
        if (inferAt >= 0)
          target[inferAt] = known ? x.size() / known : 0;
        if (ArrayRef<int64_t>(target) != ArrayRef<int64_t>(out[0].shape))
          return c.emitError("dynamic_reshape: shape operand gives ")
                 << formatShape(target) << " but the result type is "
                 << formatShape(out[0].shape);
        out[0].data = x.data;
        return success();
      })
      .Case([&](ConcatOp c) {
        int64_t axis = *normalizeAxis(c.getAxis(), out[0].shape.size());
        int64_t inner = rowMajorStrides(out[0].shape)[axis];
        int64_t outer = out[0].size() / (out[0].shape[axis] * inner);
        int64_t pos = 0;
        for (int64_t o = 0; o < outer; ++o)
          for (const Tensor *t : in) {
            int64_t chunk = t->shape[axis] * inner;
            std::copy_n(t->data.begin() + o * chunk, chunk,
                        out[0].data.begin() + pos);
            pos += chunk;
          }
        return success();
      })
      .Case([&](SplitOp c) {
        const Tensor &x = *in[0];
        int64_t axis = *normalizeAxis(c.getAxis(), x.shape.size());
        int64_t inner = rowMajorStrides(x.shape)[axis];
        int64_t outer = x.size() / (x.shape[axis] * inner);
        int64_t pos = 0;
        for (int64_t o = 0; o < outer; ++o)
          for (Tensor &t : out) {
            int64_t chunk = t.shape[axis] * inner;
            std::copy_n(x.data.begin() + pos, chunk,
                        t.data.begin() + o * chunk);
            pos += chunk;
          }
        return success();
      })
      .Case([&](SliceOp c) {
        const Tensor &x = *in[0];
        Shape xs = rowMajorStrides(x.shape);
        ArrayRef<int64_t> starts = c.getStarts(), steps = c.getSteps();
        forEachIndex(out[0].shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
          int64_t off = 0;
          for (size_t d = 0; d < idx.size(); ++d)
            off += (starts[d] + idx[d] * steps[d]) * xs[d];
          out[0].data[linear] = x.data[off];
        });
        return success();
      })
      .Case([&](PadOp c) {
        const Tensor &x = *in[0];
        Shape xs = rowMajorStrides(x.shape);
        ArrayRef<int64_t> before = c.getPadBefore();
        StringRef mode = c.getMode();
        double value = c.getValue().convertToDouble();
        forEachIndex(out[0].shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
          int64_t off = 0;
          for (size_t d = 0; d < idx.size(); ++d) {
            int64_t p = idx[d] - before[d], dim = x.shape[d];
            if (p < 0 || p >= dim) {
              if (mode == "constant") {
                off = -1;
                break;
              }
              if (mode == "reflect")
                p = p < 0 ? -p : 2 * (dim - 1) - p;
              else
                p = p < 0 ? 0 : dim - 1;
            }
            off += p * xs[d];
          }
          out[0].data[linear] = off < 0 ? value : x.data[off];
        });
        return success();
      })
      .Case([&](GatherOp c) -> LogicalResult {
        const Tensor &data = *in[0], &indices = *in[1];
        int64_t axis = *normalizeAxis(c.getAxis(), data.shape.size());
        int64_t dim = data.shape[axis];
        int64_t inner = rowMajorStrides(data.shape)[axis];
        int64_t outer = data.size() / (dim * inner);
        int64_t pos = 0;
        for (int64_t o = 0; o < outer; ++o)
          for (double v : indices.data) {
            int64_t i = toInt64(v);
            if (i < 0)
              i += dim;
            i = std::clamp<int64_t>(i, 0, dim - 1); // see graph.gather
            std::copy_n(data.data.begin() + (o * dim + i) * inner, inner,
                        out[0].data.begin() + pos);
            pos += inner;
          }
        return success();
      })
      .Case([&](GatherElementsOp c) {
        const Tensor &data = *in[0], &indices = *in[1];
        int64_t axis = *normalizeAxis(c.getAxis(), data.shape.size());
        int64_t dim = data.shape[axis];
        Shape ds = rowMajorStrides(data.shape);
        forEachIndex(indices.shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
          int64_t i = toInt64(indices.data[linear]);
          if (i < 0)
            i += dim;
          i = std::clamp<int64_t>(i, 0, dim - 1); // see graph.gather_elements
          out[0].data[linear] = data.data[dot(idx, ds) + (i - idx[axis]) * ds[axis]];
        });
        return success();
      })
      .Case([&](ResizeOp c) {
        // One axis at a time, the last first: y[.., o, ..] = bias[o] +
        // sum over taps k of weight[k][o] x[.., index[k][o], ..].
        Tensor cur = *in[0];
        ResizeMode mode = c.getResizeMode();
        for (int64_t a = static_cast<int64_t>(cur.shape.size()) - 1; a >= 0; --a) {
          int64_t inLen = cur.shape[a], outLen = out[0].shape[a];
          if (inLen == outLen && c.getScales()[a] == 1.0 && c.getRoi().empty())
            continue;
          ArrayRef<double> roi = c.getRoi();
          ResizeTaps taps = resizeTaps(mode, inLen, outLen, c.getScales()[a],
                                       roi.empty() ? 0.0 : roi[a],
                                       roi.empty() ? 1.0 : roi[a + cur.shape.size()]);
          Shape shape(cur.shape);
          shape[a] = outLen;
          Tensor next(cur.dtype, shape);
          int64_t inner = rowMajorStrides(cur.shape)[a];
          int64_t outer = cur.size() / std::max<int64_t>(inLen * inner, 1);
          for (int64_t o = 0; o < outer; ++o)
            for (int64_t x = 0; x < outLen; ++x)
              for (int64_t i = 0; i < inner; ++i) {
                double acc = taps.bias[x];
                for (int64_t k = 0; k < taps.count; ++k)
                  acc += taps.weight[k * outLen + x] *
                         cur.data[(o * inLen + taps.index[k * outLen + x]) * inner + i];
                next.data[(o * outLen + x) * inner + i] = acc;
              }
          cur = std::move(next);
        }
        out[0].data = std::move(cur.data);
        return success();
      })
      .Case([&](LayoutTransformOp c) {
        std::string error;
        Layout src = *Layout::parse(c.getSrcLayout(), error);
        Layout dst = *Layout::parse(c.getDstLayout(), error);
        Shape xs = rowMajorStrides(in[0]->shape);
        SmallVector<int64_t> srcIdx;
        forEachIndex(out[0].shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
          dst.mapIndex(src, idx, srcIdx);
          out[0].data[linear] = in[0]->data[dot(srcIdx, xs)];
        });
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}
