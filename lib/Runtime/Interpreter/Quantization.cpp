//===- Quantization.cpp - quantization ------------------------------------===//
//
// Quantize (round half to even, saturate) and dequantize, per tensor or
// per axis.
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

/// Per-tensor or per-axis quantization parameter of element `linear`.
static double quantParam(const Tensor &param, const Tensor &data, int64_t linear,
                         int64_t axis) {
  if (param.size() == 1)
    return param.data[0];
  int64_t a = *normalizeAxis(axis, data.shape.size());
  return param.data[axisIndex(linear, data.shape, a)];
}

EvalResult interp::evalQuantization(Operation *op, Inputs in, Outputs out) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](QuantizeOp c) {
        const Tensor &x = *in[0];
        double lo = out[0].dtype == DType::I8 ? -128.0 : -2147483648.0;
        double hi = out[0].dtype == DType::I8 ? 127.0 : 2147483647.0;
        for (int64_t i = 0; i < x.size(); ++i) {
          double scale = quantParam(*in[1], x, i, c.getAxis());
          double zp = quantParam(*in[2], x, i, c.getAxis());
          // The quotient in x's type, as ONNX and the CPU divide: rounding
          // it first moves ties.
          double q = std::nearbyint(roundToDType(x.dtype, x.data[i] / scale)) + zp;
          out[0].data[i] = std::min(std::max(q, lo), hi);
        }
        return success();
      })
      .Case([&](DequantizeOp c) {
        const Tensor &x = *in[0];
        for (int64_t i = 0; i < x.size(); ++i)
          out[0].data[i] = (x.data[i] - quantParam(*in[2], x, i, c.getAxis())) *
                           quantParam(*in[1], x, i, c.getAxis());
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}
