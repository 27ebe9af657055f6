//===- CPUPadBorders.cpp - pads as fills of their borders ------------------===//
//
// One-shot bufferization writes a tensor.pad as a fill of the whole padded
// buffer followed by a copy of the source into its interior, so every
// element inside is written twice. A depthwise convolution's tile pads whole
// planes of a vector's worth of channels (MobileNetV2's stride-2 ones:
// 113 x 113 x 16 floats, 0.8 MB filled where 29 KB of border needed it).
// Here each pad of static shapes and padding whose value does not depend on
// the position becomes a tensor.empty, one fill for each padded side of each
// dimension, and an insert_slice of the source, which bufferize in place:
// the border is written once by its fills and the interior once by the copy.
//
//===----------------------------------------------------------------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_CPUPADBORDERSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// Replaces `pad` (static shapes, padding of at least 0, one value for the
/// whole border, not `nofold`) by fills of its border and an insert_slice of
/// its source; false if it is not such.
/// The side of dimension `d` spans the source's extent in the dimensions
/// before `d` and the whole result in those after, so the sides are
/// disjoint and cover the border.
bool fillBorders(RewriterBase &rewriter, tensor::PadOp pad) {
  RankedTensorType type = pad.getResultType(), source = pad.getSourceType();
  Value value = pad.getConstantPaddingValue();
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  // Dynamic padding (ShapedType::kDynamic is negative) and crops are left.
  auto negative = [](int64_t p) { return p < 0; };
  if (!value || pad.getNofold() || !type.hasStaticShape() || !source.hasStaticShape() ||
      llvm::any_of(low, negative) || llvm::any_of(high, negative))
    return false;
  rewriter.setInsertionPoint(pad);
  Location loc = pad.getLoc();
  int64_t rank = type.getRank();
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
  Value result = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType(),
                                         type.getEncoding());
  for (int64_t d = 0; d < rank; ++d) {
    for (auto [offset, size] :
         {std::pair(int64_t(0), low[d]), std::pair(low[d] + source.getDimSize(d), high[d])}) {
      SmallVector<int64_t> offsets(low.take_front(d)), sizes(source.getShape().take_front(d));
      offsets.push_back(offset);
      sizes.push_back(size);
      for (int64_t i = d + 1; i < rank; ++i) {
        offsets.push_back(0);
        sizes.push_back(type.getDimSize(i));
      }
      if (llvm::is_contained(sizes, 0))
        continue;
      SmallVector<OpFoldResult> at = getAsIndexOpFoldResult(ctx, offsets),
                                extent = getAsIndexOpFoldResult(ctx, sizes);
      Value side = tensor::ExtractSliceOp::create(rewriter, loc, result, at, extent, strides);
      Value filled = linalg::FillOp::create(rewriter, loc, value, side).getResult(0);
      result = tensor::InsertSliceOp::create(rewriter, loc, filled, result, at, extent, strides);
    }
  }
  rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
      pad, pad.getSource(), result, getAsIndexOpFoldResult(ctx, low),
      getAsIndexOpFoldResult(ctx, source.getShape()), strides);
  return true;
}

struct CPUPadBordersPass : dlc::impl::CPUPadBordersPassBase<CPUPadBordersPass> {
  void runOnOperation() override {
    SmallVector<tensor::PadOp> pads;
    getOperation().walk([&](tensor::PadOp pad) { pads.push_back(pad); });
    IRRewriter rewriter(&getContext());
    int64_t filled = 0;
    for (tensor::PadOp pad : pads)
      filled += fillBorders(rewriter, pad);
    dlc::recordPassStat(getArgument(), "borders", filled);
    dlc::recordPassStat(getArgument(), "left", int64_t(pads.size()) - filled);
  }
};
} // namespace
