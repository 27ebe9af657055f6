//===- CombineParallelConv2D.cpp - convolutions of one input as one --------===//
#include "CombineParallel.h"
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_COMBINEPARALLELCONV2DPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {
struct Conv2DCombiner : ParallelOpCombiner {
  bool isRoot(Operation *op) const override {
    auto conv = dyn_cast<Conv2DOp>(op);
    return conv && conv.getGroups() == 1;
  }
  Value sharedInput(Operation *root) const override { return cast<Conv2DOp>(root).getInput(); }

  /// Equal strides, padding, dilations, layouts, element type and kernel
  /// size (the output channels may differ); bias on both or neither.
  bool compatible(Operation *a, Operation *b) const override {
    auto x = cast<Conv2DOp>(a), y = cast<Conv2DOp>(b);
    auto wx = tensorType(x.getWeight()), wy = tensorType(y.getWeight());
    bool hwio = x.getKernelLayout() == "HWIO";
    int64_t h = hwio ? 0 : 2, w = hwio ? 1 : 3;
    return x.getStrides() == y.getStrides() && x.getPadding() == y.getPadding() &&
           x.getDilations() == y.getDilations() && x.getDataLayout() == y.getDataLayout() &&
           x.getKernelLayout() == y.getKernelLayout() &&
           wx.getElementType() == wy.getElementType() && wx.getDimSize(h) == wy.getDimSize(h) &&
           wx.getDimSize(w) == wy.getDimSize(w) && !x.getBias() == !y.getBias();
  }

  /// Weights concatenated along O, biases too; the results side by side
  /// along the channel axis.
  std::optional<CombinedValue> combine(OpBuilder &b, ArrayRef<Operation *> roots) const override {
    auto first = cast<Conv2DOp>(roots.front());
    int64_t outAxis = first.getKernelLayout() == "HWIO" ? 3 : 0;
    int64_t channelAxis = first.getDataLayout() == "NHWC" ? 3 : 1;
    SmallVector<Value> weights, biases;
    CombinedValue c;
    c.axis = channelAxis;
    for (Operation *op : roots) {
      auto conv = cast<Conv2DOp>(op);
      weights.push_back(conv.getWeight());
      if (conv.getBias())
        biases.push_back(conv.getBias());
      c.sizes.push_back(tensorType(conv.getWeight()).getDimSize(outAxis));
    }
    Location loc =
        b.getFusedLoc(llvm::map_to_vector(roots, [](Operation *op) { return op->getLoc(); }));
    Value weight = concat(b, loc, weights, outAxis);
    Value bias = biases.empty() ? Value() : concat(b, loc, biases, 0);
    auto conv =
        Conv2DOp::create(b, loc, first.getInput(), weight, bias, first.getStridesAttr(),
                         first.getPaddingAttr(), first.getDilationsAttr(), first.getGroupsAttr(),
                         first.getDataLayoutAttr(), first.getKernelLayoutAttr());
    c.value = conv.getResult();
    return c;
  }
};

struct CombineParallelConv2DPass
    : dlc::impl::CombineParallelConv2DPassBase<CombineParallelConv2DPass> {
  using CombineParallelConv2DPassBase::CombineParallelConv2DPassBase;
  void runOnOperation() override {
    recordCombineCounts(getArgument(),
                        combineParallelOps(getOperation(), Conv2DCombiner(), minNumBranches));
  }
};
} // namespace
