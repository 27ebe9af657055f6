//===- CPUVectorizeContractions.cpp - register-tiled matrix products -------===//
//
// The schedule of ../shared/reference/cpu-codegen for matrix products on
// buffers: cache tiles, register tiles of `mr` rows by `nr` columns with the
// reduction innermost, the full register tiles vectorized into
// vector.contract, the accumulator tile hoisted out of the reduction loop,
// and the contraction lowered to broadcast + FMA outer products.
//
//===----------------------------------------------------------------------===//
#include "CPUSchedules.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/ScopeExit.h"

namespace dlc {
#define GEN_PASS_DEF_CPUVECTORIZECONTRACTIONSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc::cpu;

namespace {
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

/// Every registered op's canonicalization patterns.
FrozenRewritePatternSet canonicalization(MLIRContext *ctx, RewritePatternSet patterns) {
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  return std::move(patterns);
}

/// Tiles `op` and returns the tiled op and its loops (outermost first, in
/// the order of `interchange` if given, else of the op's loops).
FailureOr<scf::SCFTilingResult> tile(RewriterBase &rewriter, linalg::GenericOp op,
                                     ArrayRef<OpFoldResult> sizes,
                                     ArrayRef<int64_t> interchange = {}) {
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (succeeded(tiled))
    rewriter.eraseOp(op);
  return tiled;
}

/// The scf.for among `loops` that walks loop dimension `dim` of the tiled op,
/// given that only the loops for non-zero tile sizes were created, in the
/// order of `interchange` if given.
scf::ForOp loopFor(ArrayRef<LoopLikeOpInterface> loops, ArrayRef<OpFoldResult> sizes,
                   int64_t dim, ArrayRef<int64_t> interchange = {}) {
  unsigned index = 0;
  for (int64_t i = 0, e = sizes.size(); i < e; ++i) {
    int64_t d = interchange.empty() ? i : interchange[i];
    if (d == dim)
      return dyn_cast<scf::ForOp>(LoopLikeOpInterface(loops[index]).getOperation());
    if (getConstantIntValue(sizes[d]) != 0)
      ++index;
  }
  return {};
}

/// Keeps a register tile's accumulator in registers across its reduction
/// loop: the loop's read and write of the same vector of C (indices defined
/// outside the loop, no other use of that buffer inside it) move out of the
/// loop, which carries the value instead. Unlike upstream's
/// hoistRedundantVectorTransfers, C may be a view (a collapsed convolution
/// output): the tiles this pass builds read A and B from other buffers.
/// Returns the read, now before the loop; null if nothing moved.
vector::TransferReadOp hoistAccumulator(RewriterBase &rewriter, scf::ForOp loop) {
  vector::TransferWriteOp write;
  for (auto w : loop.getBody()->getOps<vector::TransferWriteOp>()) {
    if (write)
      return {};
    write = w;
  }
  if (!write || !loop.isDefinedOutsideOfLoop(write.getBase()) ||
      !llvm::all_of(write.getIndices(), [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
    return {};
  vector::TransferReadOp read;
  for (auto r : loop.getBody()->getOps<vector::TransferReadOp>())
    if (r.getBase() == write.getBase() && r.getIndices() == write.getIndices() &&
        r.getVectorType() == write.getVectorType() && r.getPermutationMap() == write.getPermutationMap() &&
        r.getMask() == write.getMask())
      read = r;
  if (!read || (write.getMask() && !loop.isDefinedOutsideOfLoop(write.getMask())))
    return {};
  bool otherUse = false;
  loop.getBody()->walk([&](Operation *op) {
    if (op != read && op != write && llvm::is_contained(op->getOperands(), write.getBase()))
      otherUse = true;
  });
  if (otherUse)
    return {};
  rewriter.moveOpBefore(read, loop);
  Value sum = write.getVector();
  FailureOr<LoopLikeOpInterface> carried = loop.replaceWithAdditionalYields(
      rewriter, read.getResult(), /*replaceInitOperandUsesInLoop=*/true,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) { return SmallVector<Value>{sum}; });
  if (failed(carried))
    return {};
  rewriter.moveOpAfter(write, *carried);
  rewriter.modifyOpInPlace(write, [&] {
    write.getValueToStoreMutable().assign(carried->getOperation()->getResults().back());
  });
  return read;
}

/// Makes a register tile of a product whose B is packed
/// (dlc-cpu-pack-weights), which reads one row of one panel, read it as a
/// plain [1, nr] row of B indexed (k, n), so that it vectorizes like any
/// other tile. False (nothing changed) for any other tile.
bool readPanelRow(RewriterBase &rewriter, linalg::GenericOp tile, ProductDims d) {
  std::optional<int64_t> width = panelWidth(tile.getIndexingMapsArray()[1]);
  OpOperand *b = tile.getDpsInputOperand(1);
  auto type = dyn_cast<MemRefType>(b->get().getType());
  // [.., 1, 1, width]: one row of one panel (of one matrix of a batch).
  if (!width || !type || type.getRank() < 3 || type.getShape().back() != *width ||
      llvm::any_of(type.getShape().drop_back(), [](int64_t size) { return size != 1; }))
    return false;
  rewriter.setInsertionPoint(tile);
  int64_t rank = type.getRank();
  SmallVector<int64_t> offsets(rank, 0), sizes(rank, 1), strides(rank, 1);
  sizes.back() = *width;
  auto rowType = cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
      {1, *width}, type, offsets, sizes, strides));
  Value row = memref::SubViewOp::create(rewriter, tile.getLoc(), rowType, b->get(), offsets,
                                        sizes, strides);
  MLIRContext *ctx = tile.getContext();
  SmallVector<AffineMap> maps = tile.getIndexingMapsArray();
  maps[1] = AffineMap::get(tile.getNumLoops(), 0,
                           {getAffineDimExpr(d.k, ctx), getAffineDimExpr(d.n, ctx)}, ctx);
  rewriter.modifyOpInPlace(tile, [&] {
    b->set(row);
    tile.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return true;
}

/// Computes a masked contraction of a partial column tile on whole vectors.
/// Only the tile's n dimension (parallel) is masked, and the tile's stores
/// are masked too, so the lanes past its last column are never stored:
/// computing them costs nothing on vector hardware, and leaves an unmasked
/// contraction that lowers to plain FMAs.
struct ComputeMaskedColumns : OpRewritePattern<vector::MaskOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::MaskOp mask, PatternRewriter &rewriter) const override {
    Operation *op = mask.getMaskableOp();
    if (!op || mask.hasPassthru() || !isa<vector::ContractionOp, vector::MultiDimReductionOp>(op))
      return failure();
    rewriter.setInsertionPoint(mask);
    Operation *unmasked = rewriter.clone(*op);
    rewriter.replaceOp(mask, unmasked->getResults());
    return success();
  }
};

/// A product whose output a fill of a constant wrote just before it, with
/// its whole reduction in every cache tile: each register tile reads its
/// accumulator once, and can start from the constant instead. The fill goes
/// when every register tile does (a fill of a tile's stack buffer cost
/// ResNet-50 about 2% of its samples at two threads).
struct FilledProduct {
  linalg::FillOp fill;
  TypedAttr value;
  // Its register tiles: made, and started from `value` (vectorized, their
  // accumulators hoisted).
  int64_t tiles = 0, folded = 0;
  // Whether every cache tile was tiled into register tiles.
  bool tiled = true;
};

/// The attribute that ties a product's tiles and their reduction loops to
/// its FilledProduct (an index).
constexpr llvm::StringLiteral kFilledMarker = "dlc.filled_product";

/// The attribute on a cache tile whose register tiles fetch the next cache
/// tile's B (prefetchNextB).
constexpr llvm::StringLiteral kPrefetchMarker = "dlc.prefetch_next_b";

struct CPUVectorizeContractionsPass
    : dlc::impl::CPUVectorizeContractionsPassBase<CPUVectorizeContractionsPass> {
  using CPUVectorizeContractionsPassBase::CPUVectorizeContractionsPassBase;

  SmallVector<FilledProduct> filled;

  /// The index of `op`'s FilledProduct, if it has one.
  static std::optional<int64_t> filledIndex(Operation *op) {
    if (auto index = op->getAttrOfType<IntegerAttr>(kFilledMarker))
      return index.getInt();
    return std::nullopt;
  }

  /// Records `op` as a FilledProduct if it is one (see there) and returns
  /// its index.
  std::optional<int64_t> recordFill(RewriterBase &rewriter, linalg::GenericOp op, ProductDims d,
                                    ArrayRef<int64_t> ranges) {
    auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
    TypedAttr value;
    if (!fill || isPairProduct(op) || cacheTileK(ranges[d.k]) != ranges[d.k] ||
        fill.getOutputs()[0] != op.getDpsInitOperand(0)->get() ||
        !matchPattern(fill.getInputs()[0], m_Constant(&value)) ||
        value.getType() != getElementTypeOrSelf(fill.getOutputs()[0].getType()))
      return std::nullopt;
    op->setAttr(kFilledMarker, rewriter.getI64IntegerAttr(filled.size()));
    filled.push_back({fill, value});
    return filled.size() - 1;
  }

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
      // Products of bf16 pairs need AVX512-BF16 (dlc-cpu-pack-weights
      // makes them only for such hosts); elsewhere they stay loops, and so
      // do empty ones (a loop of size 0: no tile divides it).
      if (!op.hasPureBufferSemantics() || (vectorBits != 512 && isPairProduct(op)) ||
          llvm::is_contained(op.getStaticLoopRanges(), 0))
        return;
      if (std::optional<ProductDims> d = matchProduct(op))
        products.push_back({op, *d});
    });
    IRRewriter rewriter(ctx);
    StringAttr cacheMarker = StringAttr::get(ctx, "dlc.cache_tile");
    StringAttr marker = StringAttr::get(ctx, "dlc.register_tile");
    int64_t scheduled = 0, blocked = 0, peeled = 0, panelRows = 0, dots = 0, prefetched = 0;
    // Cache tiles. Those of m and k divide their loops; n is cut into
    // blocks whose last, partial one is peeled off, so that every tile has
    // a static shape once the peeled bounds are folded. Such blocks go
    // outermost: a block of B stays in cache while all the rows go by.
    filled.clear();
    llvm::scope_exit dropMarkers(
        [&] { func.walk([&](Operation *op) { op->removeAttr(kFilledMarker); }); });
    for (auto [op, d] : products) {
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      std::optional<int64_t> index = recordFill(rewriter, op, d, ranges);
      RegisterTile regTile = productTile(op, d, vectorBits);
      bool largeB = readsLargeB(op, d);
      // A dot-product tile keeps its accumulators in registers over the
      // whole reduction: its cache tiles cut m and n only.
      SmallVector<OpFoldResult> cache = tileSizes(
          rewriter, op, d, cacheTileM(ranges[d.m], regTile, largeB),
          cacheBlockN(ranges[d.n], regTile), isPairProduct(op) ? 0 : cacheTileK(ranges[d.k]));
      bool blockedCols = blockedColumns(ranges[d.n], regTile);
      // Fetching the next tile of B: f32 panels (CPUPrefetch.cpp) whose cache
      // tiles go through k within each block of columns.
      bool prefetch =
          largeB && !blockedCols && d.n < d.k && panelWidth(op.getIndexingMapsArray()[1]);
      SmallVector<int64_t> order;
      if (blockedCols) {
        for (int64_t i = 0, e = ranges.size(); i < e; ++i)
          if (i != d.m && i != d.n && i != d.k)
            order.push_back(i);
        order.append({d.n, d.k, d.m});
      }
      FailureOr<scf::SCFTilingResult> outer = tile(rewriter, op, cache, order);
      if (failed(outer)) {
        if (index)
          filled[*index].tiled = false;
        continue;
      }
      // The cache tile keeps the product's register tile (its own columns
      // may be fewer).
      outer->tiledOps.front()->setAttr(cacheMarker, rewriter.getI64IntegerAttr(regTile.nr));
      if (prefetch)
        outer->tiledOps.front()->setAttr(kPrefetchMarker, rewriter.getUnitAttr());
      scf::ForOp cols, partial;
      if (blockedCols && (cols = loopFor(outer->loops, cache, d.n, order)))
        blocked += succeeded(scf::peelForLoopAndSimplifyBounds(rewriter, cols, partial));
    }
    if (blocked && failed(applyPatternsGreedily(func, canonicalization(ctx, RewritePatternSet(ctx)))))
      return signalPassFailure();
    SmallVector<std::pair<linalg::GenericOp, RegisterTile>> cacheTiles;
    func.walk([&](linalg::GenericOp t) {
      if (auto nr = dyn_cast_if_present<IntegerAttr>(t->removeAttr(cacheMarker)))
        cacheTiles.push_back({t, registerTile(vectorBits, nr.getInt())});
    });
    // Register tiles, the partial row and column tiles peeled off the full ones.
    for (auto [cacheOp, regTile] : cacheTiles) {
      std::optional<int64_t> index = filledIndex(cacheOp);
      bool prefetch = static_cast<bool>(cacheOp->removeAttr(kPrefetchMarker));
      std::optional<ProductDims> d = matchProduct(cacheOp);
      if (!d) {
        if (index)
          filled[*index].tiled = false;
        continue;
      }
      if (isPairProduct(cacheOp)) {
        dots += succeeded(lowerPairProduct(rewriter, cacheOp, *d, regTile));
        continue;
      }
      Value tileB = prefetch ? cacheOp.getDpsInputs()[1] : Value();
      SmallVector<OpFoldResult> reg = tileSizes(rewriter, cacheOp, *d, regTile.mr, regTile.nr, 1);
      FailureOr<scf::SCFTilingResult> inner = tile(rewriter, cacheOp, reg);
      scf::ForOp reduction = succeeded(inner) ? loopFor(inner->loops, reg, d->k) : scf::ForOp();
      if (index) {
        if (reduction)
          reduction->setAttr(kFilledMarker, rewriter.getI64IntegerAttr(*index));
        else
          filled[*index].tiled = false;
      }
      if (failed(inner))
        continue;
      ++scheduled;
      if (tileB && reduction)
        prefetched += prefetchNextB(rewriter, tileB, regTile, loopFor(inner->loops, reg, d->m),
                                    loopFor(inner->loops, reg, d->n), reduction);
      auto regOp = cast<linalg::GenericOp>(inner->tiledOps.front());
      regOp->setAttr(marker, UnitAttr::get(ctx));
      panelRows += readPanelRow(rewriter, regOp, *d);
      scf::ForOp partial;
      if (scf::ForOp cols = loopFor(inner->loops, reg, d->n))
        peeled += succeeded(scf::peelForLoopAndSimplifyBounds(rewriter, cols, partial));
      if (scf::ForOp rows = loopFor(inner->loops, reg, d->m))
        peeled += succeeded(scf::peelForLoopAndSimplifyBounds(rewriter, rows, partial));
    }
    dlc::recordPassStat(getArgument(), "scheduled", scheduled);
    dlc::recordPassStat(getArgument(), "blocked", blocked);
    dlc::recordPassStat(getArgument(), "peeled", peeled);
    dlc::recordPassStat(getArgument(), "packed", panelRows);
    dlc::recordPassStat(getArgument(), "dots", dots);
    dlc::recordPassStat(getArgument(), "prefetched", prefetched);
    // A paired product left as loops (a shape the dot-product tiles do not
    // take) is correct but scalar: say so rather than run slowly unseen.
    int64_t pairLoops = 0;
    func.walk([&](linalg::GenericOp op) {
      if (!op.hasPureBufferSemantics() || !isPairProduct(op))
        return;
      ++pairLoops;
      op.emitWarning() << getArgument()
                       << ": a bf16 product whose weight is packed in pairs was left as "
                          "scalar loops (its tile shape takes no dot products): slow but "
                          "correct";
    });
    dlc::recordPassStat(getArgument(), "pair-loops", pairLoops);
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
      if (std::optional<int64_t> index = filledIndex(t))
        ++filled[*index].tiles;
      if (llvm::any_of(t.getStaticLoopRanges(), ShapedType::isDynamic))
        continue;
      rewriter.setInsertionPoint(t);
      // A partial column tile takes whole vectors, masked past its last
      // column, rather than a vector of odd length that LLVM would split
      // into scalars; with AVX-512, whole 256-bit vectors where its columns
      // are a multiple of those (the last 8 of 24 output channels).
      SmallVector<int64_t> sizes = t.getStaticLoopRanges();
      int64_t lanes = vectorBits / 32;
      constexpr int64_t kLanes256 = 256 / 32;
      if (std::optional<ProductDims> d = matchProduct(t))
        if (sizes[d->n] % kLanes256 != 0)
          sizes[d->n] = llvm::alignTo(sizes[d->n], lanes);
      if (sizes == t.getStaticLoopRanges())
        sizes.clear();
      SmallVector<bool> scalable(sizes.size(), false);
      FailureOr<linalg::VectorizationResult> v = linalg::vectorize(rewriter, t, sizes, scalable);
      if (failed(v))
        continue;
      rewriter.replaceOp(t, v->replacements);
      ++vectorized;
    }
    dlc::recordPassStat(getArgument(), "vectorized", vectorized);
    if (vectorized && failed(lowerVectors(func)))
      return signalPassFailure();
    int64_t fillsFolded = 0;
    for (FilledProduct &f : filled)
      if (f.tiled && f.tiles > 0 && f.folded == f.tiles) {
        rewriter.eraseOp(f.fill);
        ++fillsFolded;
      }
    dlc::recordPassStat(getArgument(), "fills-folded", fillsFolded);
  }

  /// Turns the vectorized tiles into hoisted accumulators and FMAs.
  LogicalResult lowerVectors(func::FuncOp func) {
    MLIRContext *ctx = &getContext();
    RewritePatternSet contracts(ctx);
    vector::populateVectorReductionToContractPatterns(contracts);
    vector::populateVectorTransferPermutationMapLoweringPatterns(contracts);
    vector::populateVectorMaskLoweringPatternsForSideEffectingOps(contracts);
    contracts.add<ComputeMaskedColumns>(ctx);
    vector::populateSinkVectorOpsPatterns(contracts);
    // Transfers index the buffers themselves rather than per-tile subviews,
    // so that LICM and CSE share one address computation per loop.
    RewritePatternSet aliases(ctx);
    memref::populateFoldMemRefAliasOpPatterns(aliases);
    if (failed(applyPatternsGreedily(func, std::move(contracts))))
      return failure();
    // As the canonicalizer, not an error if this does not converge: the
    // folder of a transfer through an expand_shape creates its index ops
    // before it finds that it cannot fold a strided read (a column of A
    // viewed through one), and so never lets the driver settle.
    (void)applyPatternsGreedily(func, canonicalization(ctx, std::move(aliases)));
    IRRewriter rewriter(ctx);
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, func);
    func.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); }); // innermost first
    for (scf::ForOp loop : loops) {
      std::optional<int64_t> index = filledIndex(loop);
      vector::TransferReadOp read = hoistAccumulator(rewriter, loop);
      // A filled product's accumulator starts from the fill's value.
      if (read && index) {
        FilledProduct &f = filled[*index];
        rewriter.setInsertionPoint(read);
        rewriter.replaceOpWithNewOp<arith::ConstantOp>(
            read, DenseElementsAttr::get(read.getVectorType(), f.value));
        ++f.folded;
      }
    }
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
