//===- CPUVectorizeContractions.cpp - register-tiled matrix products -------===//
//
// The schedule of ../shared/reference/cpu-codegen for matrix products on
// buffers: cache tiles, register tiles of `mr` rows by `nr` columns with the
// reduction innermost, the full register tiles vectorized into
// vector.contract, the accumulator tile hoisted out of the reduction loop,
// and the contraction lowered to broadcast + FMA outer products.
//
//===----------------------------------------------------------------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace dlc {
#define GEN_PASS_DEF_CPUVECTORIZECONTRACTIONSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// The roles of a matrix product's loops: C[.., m, n] += A[.., m, k] * B[.., k, n].
struct ProductDims {
  unsigned m, n, k;
};

/// The loop roles if `op` is an f32 matrix product on buffers whose B and C
/// rows are contiguous along n (the vectorized dimension) and whose other
/// parallel loops index C only; nothing otherwise.
std::optional<ProductDims> matchProduct(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 || !linalg::isaContractionOpInterface(op) ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return std::nullopt;
  for (Value v : op->getOperands()) {
    auto type = cast<MemRefType>(v.getType());
    if (!type.getElementType().isF32() || type.getRank() < 2 ||
        !type.areTrailingDimsContiguous(1))
      return std::nullopt;
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto last = [&](unsigned operand, unsigned fromEnd) -> std::optional<unsigned> {
    AffineMap map = maps[operand];
    if (map.getNumResults() <= fromEnd)
      return std::nullopt;
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(map.getNumResults() - 1 - fromEnd));
    return dim ? std::optional<unsigned>(dim.getPosition()) : std::nullopt;
  };
  std::optional<unsigned> am = last(0, 1), ak = last(0, 0), bk = last(1, 1), bn = last(1, 0),
                          cm = last(2, 1), cn = last(2, 0);
  if (!am || !ak || !bk || !bn || !cm || !cn || *am != *cm || *bn != *cn || *ak != *bk ||
      op.getIteratorTypesArray()[*ak] != utils::IteratorType::reduction ||
      maps[1].isFunctionOfDim(*am) || maps[0].isFunctionOfDim(*bn))
    return std::nullopt;
  return ProductDims{*am, *bn, *ak};
}

/// Tile sizes for every loop of `op`: 1 for the outer parallel loops, the
/// given sizes for m, n and k (0 = untiled when `size` is 0).
SmallVector<OpFoldResult> tileSizes(Builder &b, linalg::GenericOp op, ProductDims d,
                                    int64_t m, int64_t n, int64_t k) {
  SmallVector<OpFoldResult> sizes(op.getNumLoops(), b.getIndexAttr(1));
  sizes[d.m] = b.getIndexAttr(m);
  sizes[d.n] = b.getIndexAttr(n);
  sizes[d.k] = b.getIndexAttr(k);
  return sizes;
}

/// The largest multiple of `step` that divides `range` and is at most
/// `limit`; the whole range if there is none.
int64_t cacheTile(int64_t range, int64_t step, int64_t limit) {
  for (int64_t t = std::min(range, limit) / step * step; t >= std::max(step, limit / 4);
       t -= step)
    if (range % t == 0)
      return t;
  return range;
}

/// Every registered op's canonicalization patterns.
FrozenRewritePatternSet canonicalization(MLIRContext *ctx, RewritePatternSet patterns) {
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  return std::move(patterns);
}

/// Tiles `op` and returns the tiled op and its loops (outermost first).
FailureOr<scf::SCFTilingResult> tile(RewriterBase &rewriter, linalg::GenericOp op,
                                     ArrayRef<OpFoldResult> sizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (succeeded(tiled))
    rewriter.eraseOp(op);
  return tiled;
}

/// The scf.for among `loops` that walks loop dimension `dim` of the tiled op,
/// given that only the loops for non-zero tile sizes were created in order.
scf::ForOp loopFor(ArrayRef<LoopLikeOpInterface> loops, ArrayRef<OpFoldResult> sizes,
                   unsigned dim) {
  unsigned index = 0;
  for (unsigned i = 0; i < dim; ++i)
    if (getConstantIntValue(sizes[i]) != 0)
      ++index;
  return dyn_cast<scf::ForOp>(LoopLikeOpInterface(loops[index]).getOperation());
}

/// Keeps a register tile's accumulator in registers across its reduction
/// loop: the loop's read and write of the same vector of C (indices defined
/// outside the loop, no other use of that buffer inside it) move out of the
/// loop, which carries the value instead. Unlike upstream's
/// hoistRedundantVectorTransfers, C may be a view (a collapsed convolution
/// output): the tiles this pass builds read A and B from other buffers.
bool hoistAccumulator(RewriterBase &rewriter, scf::ForOp loop) {
  vector::TransferWriteOp write;
  for (auto w : loop.getBody()->getOps<vector::TransferWriteOp>()) {
    if (write)
      return false;
    write = w;
  }
  if (!write || !loop.isDefinedOutsideOfLoop(write.getBase()) ||
      !llvm::all_of(write.getIndices(), [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
    return false;
  vector::TransferReadOp read;
  for (auto r : loop.getBody()->getOps<vector::TransferReadOp>())
    if (r.getBase() == write.getBase() && r.getIndices() == write.getIndices() &&
        r.getVectorType() == write.getVectorType() && r.getPermutationMap() == write.getPermutationMap() &&
        !r.getMask())
      read = r;
  if (!read || write.getMask())
    return false;
  bool otherUse = false;
  loop.getBody()->walk([&](Operation *op) {
    if (op != read && op != write && llvm::is_contained(op->getOperands(), write.getBase()))
      otherUse = true;
  });
  if (otherUse)
    return false;
  rewriter.moveOpBefore(read, loop);
  Value sum = write.getVector();
  FailureOr<LoopLikeOpInterface> carried = loop.replaceWithAdditionalYields(
      rewriter, read.getResult(), /*replaceInitOperandUsesInLoop=*/true,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) { return SmallVector<Value>{sum}; });
  if (failed(carried))
    return false;
  rewriter.moveOpAfter(write, *carried);
  rewriter.modifyOpInPlace(write, [&] {
    write.getValueToStoreMutable().assign(carried->getOperation()->getResults().back());
  });
  return true;
}

struct CPUVectorizeContractionsPass
    : dlc::impl::CPUVectorizeContractionsPassBase<CPUVectorizeContractionsPass> {
  using CPUVectorizeContractionsPassBase::CPUVectorizeContractionsPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    if (vectorBits != 256 && vectorBits != 512) {
      func.emitError() << getArgument() << ": vector-bits must be 256 or 512, got "
                       << static_cast<int64_t>(vectorBits);
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::GenericOp, ProductDims>> products;
    func.walk([&](linalg::GenericOp op) {
      if (std::optional<ProductDims> d = matchProduct(op))
        products.push_back({op, *d});
    });
    IRRewriter rewriter(ctx);
    StringAttr marker = StringAttr::get(ctx, "dlc.register_tile");
    int64_t scheduled = 0, peeled = 0;
    for (auto [op, d] : products) {
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      // Register tile: rows of two vectors; the accumulator takes half the
      // vector registers (16 of 32 with AVX-512, 12 of 16 with AVX2), the
      // rest hold B's row and the broadcast A element.
      int64_t nr = 2 * (vectorBits / 32), mr = vectorBits >= 512 ? 8 : 6;
      if (ranges[d.n] < nr)
        continue;
      // Cache tiles divide the loops, so every tile has a static shape.
      SmallVector<OpFoldResult> cache =
          tileSizes(rewriter, op, d, cacheTile(ranges[d.m], mr, 8 * mr),
                    cacheTile(ranges[d.n], nr, 256), cacheTile(ranges[d.k], 1, 256));
      FailureOr<scf::SCFTilingResult> outer = tile(rewriter, op, cache);
      if (failed(outer))
        continue;
      auto cacheOp = cast<linalg::GenericOp>(outer->tiledOps.front());
      SmallVector<OpFoldResult> reg = tileSizes(rewriter, cacheOp, d, mr, nr, 1);
      FailureOr<scf::SCFTilingResult> inner = tile(rewriter, cacheOp, reg);
      if (failed(inner))
        continue;
      ++scheduled;
      inner->tiledOps.front()->setAttr(marker, UnitAttr::get(ctx));
      // Peel the partial row and column tiles off the full ones.
      scf::ForOp partial;
      if (scf::ForOp cols = loopFor(inner->loops, reg, d.n))
        peeled += succeeded(scf::peelForLoopAndSimplifyBounds(rewriter, cols, partial));
      if (scf::ForOp rows = loopFor(inner->loops, reg, d.m))
        peeled += succeeded(scf::peelForLoopAndSimplifyBounds(rewriter, rows, partial));
    }
    dlc::recordPassStat(getArgument(), "scheduled", scheduled);
    dlc::recordPassStat(getArgument(), "peeled", peeled);
    if (scheduled == 0)
      return;
    // Static tile shapes: fold the peeled loops' bounds into the subviews.
    if (failed(applyPatternsGreedily(func, canonicalization(ctx, RewritePatternSet(ctx)))))
      return signalPassFailure();
    SmallVector<linalg::GenericOp> tiles;
    func.walk([&](linalg::GenericOp t) {
      if (t->removeAttr(marker))
        tiles.push_back(t);
    });
    int64_t vectorized = 0;
    for (linalg::GenericOp t : tiles) {
      if (llvm::any_of(t.getStaticLoopRanges(), ShapedType::isDynamic))
        continue;
      rewriter.setInsertionPoint(t);
      FailureOr<linalg::VectorizationResult> v = linalg::vectorize(rewriter, t);
      if (failed(v))
        continue;
      rewriter.replaceOp(t, v->replacements);
      ++vectorized;
    }
    dlc::recordPassStat(getArgument(), "vectorized", vectorized);
    if (vectorized && failed(lowerVectors(func)))
      signalPassFailure();
  }

  /// Turns the vectorized tiles into hoisted accumulators and FMAs.
  LogicalResult lowerVectors(func::FuncOp func) {
    MLIRContext *ctx = &getContext();
    RewritePatternSet contracts(ctx);
    vector::populateVectorReductionToContractPatterns(contracts);
    vector::populateVectorTransferPermutationMapLoweringPatterns(contracts);
    vector::populateVectorMaskLoweringPatternsForSideEffectingOps(contracts);
    vector::populateSinkVectorOpsPatterns(contracts);
    // Transfers index the buffers themselves rather than per-tile subviews,
    // so that LICM and CSE share one address computation per loop.
    RewritePatternSet aliases(ctx);
    memref::populateFoldMemRefAliasOpPatterns(aliases);
    if (failed(applyPatternsGreedily(func, std::move(contracts))) ||
        failed(applyPatternsGreedily(func, canonicalization(ctx, std::move(aliases)))))
      return failure();
    IRRewriter rewriter(ctx);
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, func);
    func.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); }); // innermost first
    for (scf::ForOp loop : loops)
      hoistAccumulator(rewriter, loop);
    RewritePatternSet unitDims(ctx);
    vector::populateCastAwayVectorLeadingOneDimPatterns(unitDims);
    if (failed(applyPatternsGreedily(func, canonicalization(ctx, std::move(unitDims)))))
      return failure();
    RewritePatternSet fmas(ctx);
    vector::populateVectorContractLoweringPatterns(fmas, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(fmas);
    // Transfers are left to convert-vector-to-scf: lowering them here,
    // together with canonicalization, can rewrite forever.
    return applyPatternsGreedily(func, canonicalization(ctx, std::move(fmas)));
  }
};
} // namespace
