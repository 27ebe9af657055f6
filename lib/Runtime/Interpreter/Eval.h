//===- Eval.h - the reference interpreter's op families ---------*- C++ -*-===//
//
// Private to lib/Runtime. The interpreter (Interpreter.cpp) walks a block
// and hands each op to the families' evaluators in turn, one file each, named
// as the ONNX importer's and the linalg lowering's families are: the first
// that knows the op computes its results, which arrive allocated with the
// result types' shapes and element types. Every element is held as a double
// and rounded to its type afterwards.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_RUNTIME_INTERPRETER_EVAL_H
#define DLC_LIB_RUNTIME_INTERPRETER_EVAL_H

#include "dlc/Runtime/Tensor.h"
#include "dlc/Support/Shape.h"

#include "mlir/IR/Operation.h"

#include <cmath>
#include <limits>
#include <optional>

namespace dlc::interp {

using mlir::ArrayRef;
using mlir::LogicalResult;
using mlir::Operation;
using mlir::SmallVector;
using mlir::StringRef;
using Inputs = llvm::ArrayRef<const Tensor *>;
using Outputs = llvm::MutableArrayRef<Tensor>;
/// A family's verdict on an op: std::nullopt when the op is not of the
/// family, else whether evaluating it succeeded (failures are diagnosed at
/// the op).
using EvalResult = std::optional<LogicalResult>;

EvalResult evalElementwise(Operation *op, Inputs in, Outputs out);
EvalResult evalLinear(Operation *op, Inputs in, Outputs out);
EvalResult evalPooling(Operation *op, Inputs in, Outputs out);
EvalResult evalNormalization(Operation *op, Inputs in, Outputs out);
EvalResult evalReductions(Operation *op, Inputs in, Outputs out);
EvalResult evalShape(Operation *op, Inputs in, Outputs out);
EvalResult evalQuantization(Operation *op, Inputs in, Outputs out);
EvalResult evalDetection(Operation *op, Inputs in, Outputs out);

/// Calls fn(index, linear) for every multi-index of `shape` in row-major
/// order.
template <typename Fn>
void forEachIndex(ArrayRef<int64_t> shape, Fn fn) {
  int64_t n = numElements(shape);
  SmallVector<int64_t> idx(shape.size(), 0);
  for (int64_t linear = 0; linear < n; ++linear) {
    fn(ArrayRef<int64_t>(idx), linear);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
}

inline int64_t dot(ArrayRef<int64_t> idx, ArrayRef<int64_t> strides) {
  int64_t off = 0;
  for (size_t i = 0; i < idx.size(); ++i)
    off += idx[i] * strides[i];
  return off;
}

/// max and min as ONNX (and IEEE 754-2019 maximum/minimum, which the CPU's
/// arith.maximumf/minimumf compute) define them: a NaN operand gives NaN.
inline double nanMax(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN()
                                        : std::max(a, b);
}
inline double nanMin(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN()
                                        : std::min(a, b);
}

/// Sizes and strides of the N, C, H, W dimensions of an image in `layout`
/// ("NCHW" or "NHWC").
struct ImageView {
  int64_t n, c, h, w;     // sizes
  int64_t sn, sc, sh, sw; // strides
};
inline ImageView imageView(ArrayRef<int64_t> shape, StringRef layout) {
  Shape st = rowMajorStrides(shape);
  if (layout == "NHWC")
    return {shape[0], shape[3], shape[1], shape[2], st[0], st[3], st[1], st[2]};
  return {shape[0], shape[1], shape[2], shape[3], st[0], st[1], st[2], st[3]};
}

/// y = f(a, b) with numpy broadcasting.
template <typename Fn>
void broadcastBinary(const Tensor &a, const Tensor &b, Tensor &y, Fn f) {
  if (y.shape.empty()) {
    y.data[0] = f(a.data[0], b.data[0]);
    return;
  }
  // Row by row along the innermost dimension: the offsets of a row's first
  // element are computed once, then stepped by the innermost strides.
  Shape sa = broadcastStrides(a.shape, y.shape);
  Shape sb = broadcastStrides(b.shape, y.shape);
  int64_t inner = y.shape.back(), ia = sa.back(), ib = sb.back();
  ArrayRef<int64_t> outer = ArrayRef<int64_t>(y.shape).drop_back();
  if (inner == 0)
    return;
  forEachIndex(outer, [&](ArrayRef<int64_t> idx, int64_t row) {
    const double *pa = a.data.data() + dot(idx, sa);
    const double *pb = b.data.data() + dot(idx, sb);
    double *py = y.data.data() + row * inner;
    for (int64_t i = 0; i < inner; ++i)
      py[i] = f(pa[i * ia], pb[i * ib]);
  });
}

} // namespace dlc::interp

#endif // DLC_LIB_RUNTIME_INTERPRETER_EVAL_H
