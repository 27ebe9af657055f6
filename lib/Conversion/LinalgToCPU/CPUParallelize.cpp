//===- CPUParallelize.cpp - split linalg ops across threads ----------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_CPUPARALLELIZEPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct CPUParallelizePass : dlc::impl::CPUParallelizePassBase<CPUParallelizePass> {
  using CPUParallelizePassBase::CPUParallelizePassBase;
  void runOnOperation() override {
    if (threads <= 1)
      return;
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<scf::ForallOp>() && op.hasPureTensorSemantics())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    int64_t parallelized = 0;
    for (linalg::LinalgOp op : ops) {
      if (op->getNumResults() != 1 ||
          cast<ShapedType>(op->getResult(0).getType()).getNumElements() < minElements)
        continue;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      auto iters = op.getIteratorTypesArray();
      // The longest parallel loop: for a convolution's matrix product the
      // output positions rather than the channels, so that each thread
      // keeps whole register tiles.
      int64_t dim = -1;
      for (size_t i = 0; i < ranges.size(); ++i)
        if (iters[i] == utils::IteratorType::parallel && ranges[i] >= threads &&
            (dim < 0 || ranges[i] > ranges[dim]))
          dim = i;
      if (dim < 0)
        continue;
      SmallVector<OpFoldResult> numThreads(ranges.size(), rewriter.getIndexAttr(0));
      numThreads[dim] = rewriter.getIndexAttr(threads);
      scf::SCFTilingOptions options;
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
      options.setNumThreads(numThreads);
      auto tileable = dyn_cast<TilingInterface>(op.getOperation());
      if (!tileable) // the TilingInterface models are not registered
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled =
          scf::tileUsingSCF(rewriter, tileable, options);
      if (failed(tiled))
        continue;
      rewriter.replaceOp(op, tiled->replacements);
      ++parallelized;
    }
    dlc::recordPassStat(getArgument(), "parallelized", parallelized);
  }
};
} // namespace
