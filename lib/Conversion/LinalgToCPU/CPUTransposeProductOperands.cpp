//===- CPUTransposeProductOperands.cpp - B read along n, not k -------------===//
//
// A matrix product C[.., m, n] += A[.., m, k] * B[.., n, k] (attention's
// Q x K', a dense layer with a computed weight) reads B across its rows: the
// register-tiled kernel loads a row of B along n as vectors, which here are
// gathers with a stride of k elements. B is copied transposed to
// [.., k, n] first, and the product reads the copy: n k moves for m n k
// multiply-adds.
//
//===----------------------------------------------------------------------===//
#include "CPUSchedules.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

namespace dlc {
#define GEN_PASS_DEF_CPUTRANSPOSEPRODUCTOPERANDSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc::cpu;

namespace {
/// Rows of A (m) below which each moved element of B would be read too few
/// times to pay for the move.
constexpr int64_t kMinRows = 4;

/// `map` with its last two results swapped.
AffineMap swapLastTwo(AffineMap map) {
  SmallVector<AffineExpr> results(map.getResults());
  std::swap(results[results.size() - 2], results.back());
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(), results, map.getContext());
}

/// The indexing maps of `op` reading B through the transposing copy if `op`
/// is a product that reads B as [.., n, k] and has at least kMinRows rows;
/// nothing otherwise.
std::optional<SmallVector<AffineMap>> transposedOperandMaps(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || !isF32Contraction(op) || matchProduct(op))
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps[1] = swapLastTwo(maps[1]);
  std::optional<ProductDims> d = productDims(maps, op.getIteratorTypesArray());
  if (!d || op.getStaticLoopRanges()[d->m] < kMinRows)
    return std::nullopt;
  return maps;
}

struct CPUTransposeProductOperandsPass
    : dlc::impl::CPUTransposeProductOperandsPassBase<CPUTransposeProductOperandsPass> {
  void runOnOperation() override {
    int64_t transposed = 0;
    getOperation().walk([&](linalg::GenericOp op) {
      std::optional<SmallVector<AffineMap>> maps = transposedOperandMaps(op);
      if (!maps)
        return;
      OpBuilder b(op);
      OpOperand *operand = op.getDpsInputOperand(1);
      auto type = cast<RankedTensorType>(operand->get().getType());
      SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
      std::swap(perm[perm.size() - 2], perm.back());
      Value init = tensor::EmptyOp::create(b, op.getLoc(), applyPermutation(type.getShape(), perm),
                                           type.getElementType());
      operand->set(
          linalg::TransposeOp::create(b, op.getLoc(), operand->get(), init, perm)->getResult(0));
      op.setIndexingMapsAttr(b.getAffineMapArrayAttr(*maps));
      ++transposed;
    });
    dlc::recordPassStat(getArgument(), "transposed", transposed);
  }
};
} // namespace
