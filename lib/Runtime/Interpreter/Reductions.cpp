//===- Reductions.cpp - reductions ----------------------------------------===//
//
// Sum, mean, maximum, minimum and product over a set of axes (all when none
// are given); the index of the largest or smallest element along an axis.
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
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp>([&](auto c) {
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
        Operation *o = c.getOperation();
        double inf = std::numeric_limits<double>::infinity();
        double init = isa<ReduceMaxOp>(o) ? -inf : isa<ReduceMinOp>(o) ? inf
                      : isa<ReduceProdOp>(o)  ? 1.0
                                              : 0.0;
        std::fill(out[0].data.begin(), out[0].data.end(), init);
        forEachIndex(x.shape, [&](ArrayRef<int64_t> idx, int64_t linear) {
          double &acc = out[0].data[dot(idx, st)];
          double v = x.data[linear];
          acc = isa<ReduceMaxOp>(o)    ? nanMax(acc, v)
                : isa<ReduceMinOp>(o)  ? nanMin(acc, v)
                : isa<ReduceProdOp>(o) ? acc * v
                                       : acc + v;
        });
        if (isa<ReduceMeanOp>(o)) {
          int64_t count = x.size() / std::max<int64_t>(out[0].size(), 1);
          for (double &v : out[0].data)
            v /= count;
        }
        return success();
      })
      .Case<ArgMaxOp, ArgMinOp>([&](auto c) {
        const Tensor &x = *in[0];
        int64_t axis = *normalizeAxis(c.getAxis(), x.shape.size());
        int64_t len = x.shape[axis], inner = rowMajorStrides(x.shape)[axis];
        int64_t outer = x.size() / std::max<int64_t>(len * inner, 1);
        bool isMax = isa<ArgMaxOp>(c.getOperation()), last = c.getSelectLastIndex();
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t i = 0; i < inner; ++i) {
            const double *p = x.data.data() + o * len * inner + i;
            int64_t best = 0;
            for (int64_t j = 1; j < len; ++j) {
              double v = p[j * inner], b = p[best * inner];
              // A NaN wins over numbers; among equals the first or the last.
              bool better = std::isnan(b) ? last && std::isnan(v)
                            : std::isnan(v) ? true
                            : isMax         ? (last ? v >= b : v > b)
                                            : (last ? v <= b : v < b);
              if (better)
                best = j;
            }
            out[0].data[o * inner + i] = best;
          }
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}
