//===- Reductions.cpp - reductions ----------------------------------------===//
//
// Sum, mean and maximum over a set of axes (all when none are given).
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

EvalResult interp::evalReductions(Operation *op, Inputs in, Outputs out) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp>([&](auto c) {
        const Tensor &x = *in[0];
        int64_t rank = x.shape.size();
        SmallVector<bool> reduced(rank, c.getAxes().empty());
        for (int64_t a : c.getAxes())
          reduced[*normalizeAxis(a, rank)] = true;
        // Strides into the output for each input dim (0 when reduced).
        Shape keptShape;
        for (int64_t d = 0; d < rank; ++d)
          keptShape.push_back(reduced[d] ? 1 : x.shape[d]);
        Shape st = broadcastStrides(keptShape, x.shape);
        bool isMax = isa<ReduceMaxOp>(c.getOperation());
        std::fill(out[0].data.begin(), out[0].data.end(),
                  isMax ? -std::numeric_limits<double>::infinity() : 0.0);
        forEachIndex(x.shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
          double &acc = out[0].data[dot(idx, st)];
          acc = isMax ? nanMax(acc, x.data[linear]) : acc + x.data[linear];
        });
        if (isa<ReduceMeanOp>(c.getOperation())) {
          int64_t count = x.size() / std::max<int64_t>(out[0].size(), 1);
          for (double &v : out[0].data)
            v /= count;
        }
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}
