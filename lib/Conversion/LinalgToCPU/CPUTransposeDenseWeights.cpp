//===- CPUTransposeDenseWeights.cpp - dense as x * W' with W' stored [k, n] ===//
#include "../../Transforms/PassUtils.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/Graph/GraphOps.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Threading.h"

#include <cstring>

namespace dlc {
#define GEN_PASS_DEF_CPUTRANSPOSEDENSEWEIGHTSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

/// `w` [n, k] as [k, n].
static Tensor transposed(const Tensor &w) {
  int64_t n = w.shape[0], k = w.shape[1];
  Tensor t(w.dtype, {k, n});
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j)
      t.data[j * n + i] = w.data[i * k + j];
  return t;
}

namespace {
/// The constant `weight` is, directly or as the operand of the region op
/// whose body argument it is (a fused kernel's weight).
graph::ConstantOp weightConstant(Value weight) {
  if (auto c = weight.getDefiningOp<graph::ConstantOp>())
    return c;
  auto arg = dyn_cast<BlockArgument>(weight);
  Operation *region = arg ? arg.getOwner()->getParentOp() : nullptr;
  if (!isa_and_nonnull<graph::FusedOp, graph::CompositeOp>(region))
    return {};
  return region->getOperand(arg.getArgNumber()).getDefiningOp<graph::ConstantOp>();
}

/// The f32 payload [n, k] of `c` if it has one worth moving word by word
/// (no conversion: BERT-base's weights take 1 s through doubles); small
/// weights take the general path and stay readable dense literals.
std::optional<ArrayRef<char>> f32Payload(graph::ConstantOp c) {
  std::optional<ArrayRef<char>> bytes = payloadBytes(c);
  if (!bytes || !c.getType().getElementType().isF32() || c.getType().getNumElements() < 4096)
    return std::nullopt;
  return bytes;
}

/// `bytes`, f32 [n, k], transposed to [k, n] in a new blob.
AsmResourceBlob transposedBlob(ArrayRef<char> bytes, int64_t n, int64_t k) {
  AsmResourceBlob blob = allocateBlob(bytes.size());
  char *out = blob.getMutableData().data();
  const char *in = bytes.data();
  // Blocks of 32 x 32 words: rows and columns both stay in cache.
  constexpr int64_t kBlock = 32;
  for (int64_t i0 = 0; i0 < n; i0 += kBlock)
    for (int64_t j0 = 0; j0 < k; j0 += kBlock)
      for (int64_t i = i0; i < std::min(n, i0 + kBlock); ++i)
        for (int64_t j = j0; j < std::min(k, j0 + kBlock); ++j)
          std::memcpy(out + (j * n + i) * 4, in + (i * k + j) * 4, 4);
  return blob;
}

/// The transposed weight as a value usable at `op`: a new constant beside
/// `c` (`blob` when the payload was moved word by word), passed into `op`'s
/// region when `c` is outside it.
Value transposedWeight(OpBuilder &b, graph::DenseOp op, graph::ConstantOp c,
                       std::optional<AsmResourceBlob> blob) {
  b.setInsertionPoint(c);
  Value wt;
  if (blob) {
    auto type = cast<RankedTensorType>(c.getType());
    auto attr = DenseResourceElementsAttr::get(
        RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)}, type.getElementType()),
        "transposed_weight", std::move(*blob));
    wt = graph::ConstantOp::create(b, c.getLoc(), attr);
  } else {
    wt = createConstant(b, c.getLoc(), transposed(*constantValue(c)), "transposed_weight");
  }
  auto arg = dyn_cast<BlockArgument>(op.getWeight());
  if (!arg)
    return wt;
  Operation *region = arg.getOwner()->getParentOp();
  region->insertOperands(region->getNumOperands(), wt);
  return arg.getOwner()->addArgument(wt.getType(), wt.getLoc());
}

struct CPUTransposeDenseWeightsPass
    : dlc::impl::CPUTransposeDenseWeightsPassBase<CPUTransposeDenseWeightsPass> {
  void runOnOperation() override {
    SmallVector<graph::DenseOp> denses;
    getOperation().walk([&](graph::DenseOp op) {
      if (weightConstant(op.getWeight()) && op.getType().getElementType().isF32())
        denses.push_back(op);
    });
    // The payloads are moved on the context's threads (memory-bound: BERT-base
    // has 340 MB of them), then the IR is rewritten in order.
    std::vector<std::optional<AsmResourceBlob>> blobs(denses.size());
    std::vector<std::optional<ArrayRef<char>>> payloads;
    for (graph::DenseOp op : denses)
      payloads.push_back(f32Payload(weightConstant(op.getWeight())));
    mlir::parallelFor(&getContext(), 0, denses.size(), [&](size_t i) {
      if (payloads[i]) {
        ArrayRef<int64_t> shape = denses[i].getWeight().getType().getShape();
        blobs[i] = transposedBlob(*payloads[i], shape[0], shape[1]);
      }
    });
    OpBuilder b(&getContext());
    int64_t rewritten = 0;
    for (auto [op, blob] : llvm::zip_equal(denses, blobs)) {
      graph::ConstantOp c = weightConstant(op.getWeight());
      Value wt = transposedWeight(b, op, c, std::move(blob));
      b.setInsertionPoint(op);
      Location loc = op.getLoc();
      Value y = graph::MatmulOp::create(b, loc, op.getInput(), wt);
      if (Value bias = op.getBias())
        y = graph::AddOp::create(b, loc, y, bias);
      op.replaceAllUsesWith(y);
      Value weight = op.getWeight();
      op.erase();
      // The original weight, and the region argument that carried it.
      if (auto arg = dyn_cast<BlockArgument>(weight); arg && arg.use_empty()) {
        Operation *region = arg.getOwner()->getParentOp();
        region->eraseOperand(arg.getArgNumber());
        arg.getOwner()->eraseArgument(arg.getArgNumber());
      }
      if (c->use_empty())
        c->erase();
      ++rewritten;
    }
    recordPassStat(getArgument(), "transposed", rewritten);
  }
};
} // namespace
