//===- WinogradConv.cpp - 3x3 convolutions by Winograd's algorithm --------===//
//
// TVM's AlterOpLayout replaces a 3x3 convolution by
// contrib_conv2d_winograd_without_weight_transform where the target's
// strategy picks Winograd, and FoldConstant then transforms the weights.
// dlc transforms the constant weights right here, so that no pass order can
// leave the transform to run with every inference.
//
//===----------------------------------------------------------------------===//
#include "WinogradConv.h"

#include "PassUtils.h"
#include "dlc/Support/Winograd.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

/// Whether F(m x m, 3 x 3) computes `conv` at all, whatever its size.
static bool isWinogradShape(Conv2DOp conv) {
  auto w = tensorType(conv.getWeight());
  auto is = [](ArrayRef<int64_t> a, int64_t x, int64_t y) { return a[0] == x && a[1] == y; };
  return conv.getDataLayout() == "NCHW" && conv.getKernelLayout() == "OIHW" &&
         conv.getGroups() == 1 && w.getDimSize(2) == 3 && w.getDimSize(3) == 3 &&
         is(conv.getStrides(), 1, 1) && is(conv.getDilations(), 1, 1) &&
         conv.getType().getElementType().isF32() && w.hasStaticShape() &&
         conv.getType().hasStaticShape();
}

/// The largest tile, 4 or 2, that gives the output at least `minTiles`
/// tiles; 0 if none does.
static int64_t chooseTile(RankedTensorType out, int64_t minTiles) {
  for (int64_t m : {4, 2}) {
    int64_t tiles = out.getDimSize(0) * llvm::divideCeil(out.getDimSize(2), m) *
                    llvm::divideCeil(out.getDimSize(3), m);
    if (tiles >= minTiles)
      return m;
  }
  return 0;
}

void dlc::rewriteWinogradConvs(func::FuncOp func, int64_t minTiles, StringRef pass) {
  int64_t rewritten = 0, small = 0, weights = 0;
  SmallVector<Conv2DOp> convs;
  for (Operation &op : func.getBody().getOps())
    if (auto conv = dyn_cast<Conv2DOp>(op); conv && isWinogradShape(conv))
      convs.push_back(conv);
  for (Conv2DOp conv : convs) {
    int64_t m = chooseTile(conv.getType(), minTiles);
    if (!m) {
      ++small;
      continue;
    }
    auto constant = conv.getWeight().getDefiningOp<ConstantOp>();
    std::optional<ArrayRef<char>> bytes = constant ? payloadBytes(constant) : std::nullopt;
    if (!bytes) {
      ++weights;
      continue;
    }
    RankedTensorType wt = tensorType(conv.getWeight());
    int64_t o = wt.getDimSize(0), c = wt.getDimSize(1), alpha = m + 2;
    std::vector<float> u = winograd::transformWeights(
        ArrayRef(reinterpret_cast<const float *>(bytes->data()), o * c * 9), o, c, m);
    AsmResourceBlob blob = allocateBlob(u.size() * sizeof(float));
    std::memcpy(blob.getMutableData().data(), u.data(), u.size() * sizeof(float));
    auto ut = RankedTensorType::get({alpha * alpha, o, c}, wt.getElementType());
    OpBuilder b(conv);
    Value weight = ConstantOp::create(
        b, constant.getLoc(), DenseResourceElementsAttr::get(ut, "winograd", std::move(blob)));
    SmallVector<Value> operands{conv.getInput(), weight};
    if (Value bias = conv.getBias())
      operands.push_back(bias);
    auto replacement = Conv2DWinogradOp::create(
        b, conv.getLoc(), conv.getType(), operands,
        {b.getNamedAttr("tile", b.getI64IntegerAttr(m)),
         b.getNamedAttr("padding", conv.getPaddingAttr())});
    conv.getResult().replaceAllUsesWith(replacement.getResult());
    conv.erase();
    if (constant.use_empty())
      constant.erase();
    ++rewritten;
  }
  recordPassStat(pass, "winograd", rewritten);
  recordPassStat(pass, "winograd-small", small);
  recordPassStat(pass, "winograd-weights", weights);
}
