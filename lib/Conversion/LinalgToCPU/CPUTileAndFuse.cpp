//===- CPUTileAndFuse.cpp - one loop nest per anchor and its epilogue ------===//
//
// Every op with reduction loops (matrix products, convolutions, pooling,
// reductions) is an anchor. Its elementwise consumers (bias, activation,
// residual add) are tiled by cache tiles of the anchor, and the anchor, its
// initial value (a fill or bias broadcast) and the elementwise producers of
// the consumers are computed tile by tile inside that loop: each tile is
// filled, accumulated and finished while it is in cache, instead of three
// passes over memory, and bufferization sees no shared initial values that
// it would have to copy. With several threads the tile loop is an
// scf.forall, which later becomes an OpenMP loop.
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
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"

namespace dlc {
#define GEN_PASS_DEF_CPUTILEANDFUSEPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc::cpu;

namespace {
/// Outputs per tile of anchors that are not matrix products.
constexpr int64_t kWindowTileElements = 4096;
/// Iterations (multiply-adds for a product) below which splitting an op
/// into tiles of any size costs the threads more than it saves.
constexpr int64_t kMinSplitWork = 1 << 16;

/// Whether every result of `op` is indexed by loops only (no constants),
/// which tiling a result needs; with `keptDims`, also results that index a
/// kept reduced dimension by 0 (a reduction's `1x128x1`), which a tile loop
/// over the op's own iterations can take, but fusing it into a consumer's
/// tile (computing its iterations from a tile of its result) cannot.
bool resultsTileable(linalg::LinalgOp op, bool keptDims = false) {
  return llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
    return op.getMatchingIndexingMap(&init).isProjectedPermutation(keptDims);
  });
}

bool isElementwise(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.hasPureTensorSemantics() && generic.getNumReductionLoops() == 0 &&
         generic->getNumResults() == 1 && resultsTileable(generic) &&
         llvm::all_of(generic.getIndexingMapsArray(), [](AffineMap m) {
           return m.isProjectedPermutation(/*allowZeroInResults=*/true);
         });
}

/// The largest multiple of `step` below `tile` that divides `range`; 0 if
/// there is none.
int64_t smallerTile(int64_t range, int64_t tile, int64_t step) {
  for (int64_t t = (tile - 1) / step * step; t >= step; t -= step)
    if (range % t == 0)
      return t;
  return 0;
}

/// The loops of `op` that index a padded dimension of an input that a
/// tensor.pad produces.
llvm::SmallBitVector paddedLoops(linalg::LinalgOp op) {
  llvm::SmallBitVector loops(op.getNumLoops());
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto pad = input->get().getDefiningOp<tensor::PadOp>();
    if (!pad)
      continue;
    for (auto [i, e] : llvm::enumerate(op.getMatchingIndexingMap(input).getResults())) {
      std::optional<int64_t> low = getConstantIntValue(pad.getMixedLowPad()[i]);
      std::optional<int64_t> high = getConstantIntValue(pad.getMixedHighPad()[i]);
      if (low == 0 && high == 0)
        continue;
      e.walk([&](AffineExpr d) {
        if (auto dim = dyn_cast<AffineDimExpr>(d))
          loops.set(dim.getPosition());
      });
    }
  }
  return loops;
}

/// The bytes of the largest part of a padded input of window op `op` that
/// one tile of `tiles` (0: the whole loop) reads, which the tile pads into
/// a buffer of its own.
int64_t paddedSliceBytes(linalg::LinalgOp op, ArrayRef<int64_t> tiles) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // Every loop at its tile's last iteration: a window's indices are sums of
  // loops with non-negative coefficients, 0 at the first.
  SmallVector<AffineExpr> last;
  for (auto [range, tile] : llvm::zip(ranges, tiles))
    last.push_back(getAffineConstantExpr((tile > 0 ? tile : range) - 1, op.getContext()));
  int64_t largest = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!input->get().getDefiningOp<tensor::PadOp>())
      continue;
    auto type = cast<RankedTensorType>(input->get().getType());
    int64_t bytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    for (AffineExpr e : op.getMatchingIndexingMap(input).getResults()) {
      auto end = dyn_cast<AffineConstantExpr>(e.replaceDims(last));
      if (!end)
        return std::numeric_limits<int64_t>::max();
      bytes *= end.getValue() + 1;
    }
    largest = std::max(largest, bytes);
  }
  return largest;
}

/// Tiles of bands of output rows, with as many channels as keep each
/// tile's padded band within kCPUWindowBandBytes, for NHWC window op `op`
/// whose plane tiles `tiles` (whole padded planes of `tiles[channel]`
/// channels) would pad more than that; `tiles` unchanged (false) otherwise. The
/// band loop `rows` is the outermost padded output loop. Of the channel
/// counts (multiples of `step` that divide the channels), the largest whose
/// bands together pad at most half as much again as the whole plane (the
/// rows that two bands share). Not for strided windows, whose output is a
/// fraction of the plane they pad: there whole planes measured as fast or
/// faster (AMD EPYC Zen 4, AVX-512: MobileNetV2's depthwise convolutions of
/// 96 channels on 112 x 112 and of 144 on 56 x 56 at stride 2, ResNet's
/// max pooling of 64 channels on 112 x 112).
bool rowBands(linalg::LinalgOp op, SmallVector<int64_t> &tiles, unsigned channel, unsigned rows,
              int64_t step) {
  if (paddedSliceBytes(op, tiles) <= dlc::kCPUWindowBandBytes)
    return false;
  // The rows loop's step through the padded input: its index there with
  // that loop at 1 and the others at 0.
  SmallVector<AffineExpr> unit(op.getNumLoops(), getAffineConstantExpr(0, op.getContext()));
  unit[rows] = getAffineConstantExpr(1, op.getContext());
  for (OpOperand *input : op.getDpsInputOperands())
    if (input->get().getDefiningOp<tensor::PadOp>())
      for (AffineExpr e : op.getMatchingIndexingMap(input).getResults())
        if (auto stride = dyn_cast<AffineConstantExpr>(e.replaceDims(unit));
            !stride || stride.getValue() > 1)
          return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> best;
  for (int64_t c = ranges[channel]; c > 0; c = smallerTile(ranges[channel], c, step)) {
    SmallVector<int64_t> band = tiles;
    band[channel] = c;
    band[rows] = 0;
    int64_t plane = paddedSliceBytes(op, band), bytes = 0;
    // The most rows that divide the loop and fit.
    for (int64_t r = ranges[rows]; r > 0; r = smallerTile(ranges[rows], r, 1)) {
      band[rows] = r;
      if ((bytes = paddedSliceBytes(op, band)) <= dlc::kCPUWindowBandBytes)
        break;
    }
    if (bytes > dlc::kCPUWindowBandBytes)
      continue;
    best = band;
    if (2 * bytes * (ranges[rows] / band[rows]) <= 3 * plane)
      break;
  }
  if (best.empty())
    return false;
  tiles = best;
  return true;
}

/// Tile sizes for the loops of `anchor` (0: the whole loop), dividing every
/// loop; nothing when the op has a dynamic shape or would be a single tile.
std::optional<SmallVector<int64_t>> anchorTiles(linalg::LinalgOp anchor, int64_t vectorBits,
                                                int64_t threads) {
  SmallVector<int64_t> ranges = anchor.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic) || anchor.getNumDpsInits() != 1 ||
      !resultsTileable(anchor, /*keptDims=*/true))
    return std::nullopt;
  auto iters = anchor.getIteratorTypesArray();
  SmallVector<int64_t> tiles(ranges.size(), 0), steps(ranges.size(), 1);
  std::optional<ProductDims> product = matchProduct(anchor);
  RegisterTile reg =
      product ? productTile(anchor, *product, vectorBits) : registerTile(vectorBits);
  bool largeB = product && readsLargeB(anchor, *product);
  if (const std::optional<ProductDims> &d = product) {
    // Whole register tiles per cache tile; one row of tiles per batch.
    for (size_t i = 0; i < ranges.size(); ++i)
      if (iters[i] == utils::IteratorType::parallel)
        tiles[i] = 1;
    // Where no column tile divides n, the rows stay whole (the split
    // below cuts them as far as the threads need) and the product's cache
    // tiles walk blocks of B's columns outermost
    // (dlc-cpu-vectorize-contractions), so B, often a large im2col buffer,
    // is read once per tile rather than once for every few rows.
    tiles[d->m] = blockedColumns(ranges[d->n], reg)
                      ? ranges[d->m]
                      : cacheTileM(ranges[d->m], reg, largeB);
    tiles[d->n] = cacheTileN(ranges[d->n], reg);
    steps[d->m] = std::min(reg.mr, ranges[d->m]);
    steps[d->n] = std::min(reg.nr, ranges[d->n]);
  } else {
    // Windows and reductions: whole output rows, then as many rows and
    // outer positions as fit in about kWindowTileElements outputs; whole
    // planes when the input is padded, so that each tile pads its own
    // plane (a part of a plane would need a padding of dynamic size).
    // With channels innermost (NHWC), whole padded planes of a vector's
    // worth of channels each: all channels would make a tile's padded
    // plane megabytes. Fewer channels where even those would be more than
    // a thread's stack keeps (SSD's 152 x 152 pooling plane): the padded
    // plane is a buffer of each tile's own, which beyond that limit would
    // come from the heap at every tile of every run. With half a vector a
    // tile reads half of each cache line, and the tiles together read the
    // input twice (MobileNetV2's 112 x 112 depthwise convolutions of 32
    // and 96 channels with AVX-512: 2.7x and 1.8x NCHW's time with 8
    // channels per tile, 1.8x and 1.25x with 16).
    //
    // Where even a vector's worth of channels would pad more than a band
    // (planes from 56 x 56), tiles of bands of rows instead, with all
    // channels or a part of them that fits (rowBands): each tile reads and
    // writes whole pixels, and pads a band that stays in cache. A band's
    // padding varies (the first and last bands reach the border), so each
    // tile fills a buffer of the band's size and copies in the rows that
    // exist (materializeBand).
    llvm::SmallBitVector whole = paddedLoops(anchor);
    AffineMap out = anchor.getMatchingIndexingMap(anchor.getDpsInitOperand(0));
    int64_t elements = 1;
    bool innermost = true;
    std::optional<unsigned> channel, rows;
    for (AffineExpr e : llvm::reverse(out.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim || iters[dim.getPosition()] != utils::IteratorType::parallel)
        continue;
      unsigned i = dim.getPosition();
      int64_t t = ranges[i];
      if (whole[i]) { // not tiled: its slices start at 0
        elements *= t;
        innermost = false;
        rows = i;
        continue;
      }
      if (innermost && whole.any()) {
        int64_t vector = vectorBits / 32;
        int64_t lanes = t % vector == 0 ? vector : t;
        // One tile's plane: the padded loops whole, one position of the
        // others, `lanes` channels.
        SmallVector<int64_t> plane(ranges.size(), 1);
        for (unsigned j : whole.set_bits())
          plane[j] = 0;
        for (plane[i] = lanes; lanes > 1 && paddedSliceBytes(anchor, plane) >
                                                dlc::kCPUMaxStackPlaneBytes;
             plane[i] = lanes)
          lanes = smallerTile(t, lanes, 1);
        tiles[i] = lanes;
        elements *= tiles[i];
        innermost = false;
        channel = i;
        continue;
      }
      innermost = false;
      while (elements > 1 && elements * t > kWindowTileElements && t > 1)
        t = smallerTile(ranges[i], t, 1);
      tiles[i] = std::max<int64_t>(t, 1);
      elements *= tiles[i];
    }
    if (channel && rows) {
      int64_t vector = vectorBits / 32;
      int64_t step = ranges[*channel] % vector == 0 ? vector : 1;
      if (rowBands(anchor, tiles, *channel, *rows, step))
        steps[*channel] = step;
    }
  }
  auto count = [&] {
    int64_t n = 1;
    for (size_t i = 0; i < ranges.size(); ++i)
      if (tiles[i] > 0)
        n *= ranges[i] / tiles[i];
    return n;
  };
  // Enough tiles to keep every thread busy (as many each, or several each
  // so that the last round matters less): split the largest tile; a
  // product's columns first where its B is large (readsLargeB) and column
  // tiles divide them, so that each thread reads its part of B once for all
  // of its rows. Not elsewhere: a thread whose tiles take all the rows reads
  // all of A, the previous op's output, much of it written by the other
  // threads (BERT-tiny, whose B are 256 KiB at most, took 1.1x the time at
  // two threads with its products' columns split first).
  int64_t first = -1;
  if (largeB && !blockedColumns(ranges[product->n], reg))
    first = product->n;
  auto split = [&] {
    while (count() < threads || (count() % threads != 0 && count() < 4 * threads)) {
      int64_t best = -1, bestTile = 0;
      for (size_t i = 0; i < ranges.size(); ++i) {
        int64_t t = tiles[i] > 0 ? smallerTile(ranges[i], tiles[i], steps[i]) : 0;
        if (t > 0 && tiles[i] / steps[i] > bestTile) {
          best = i;
          bestTile = tiles[i] / steps[i];
        }
      }
      if (first >= 0 && smallerTile(ranges[first], tiles[first], steps[first]) > 0)
        best = first;
      if (best < 0)
        break;
      tiles[best] = smallerTile(ranges[best], tiles[best], steps[best]);
    }
  };
  split();
  // Still too few (e.g. a classifier's 1 x 1000 product, which no multiple
  // of a register tile divides) for an op worth splitting: tiles of any
  // size, whose partial register tiles the product kernel masks.
  int64_t work = 1;
  for (int64_t r : ranges)
    work *= r;
  if (count() < threads && work >= kMinSplitWork) {
    steps.assign(ranges.size(), 1);
    first = -1; // the largest: columns of any size would be masked
    // Panels of a packed B are whole in every tile.
    if (product)
      if (std::optional<int64_t> width = packedWidth(anchor.getIndexingMapsArray()[1]))
        steps[product->n] = *width;
    split();
  }
  // A product's tile narrower than the output's rows can compute in a
  // buffer of its own: on the thread's stack up to kCPUMaxStackTileBytes
  // (dlc-cpu-tile-buffers), else taken from the heap at every tile of
  // every run (an NHWC convolution's 784 or 1444 positions, whole, by 128
  // or 256 columns). Such rows go in tiles that need not be multiples of
  // the register tile, whose last partial one the product kernel peels;
  // not where the rows stay whole on purpose (blocked columns, above).
  if (const std::optional<ProductDims> &d = product)
    if (tiles[d->m] == ranges[d->m] && tiles[d->n] < ranges[d->n] &&
        !blockedColumns(ranges[d->n], reg) &&
        tiles[d->m] * tiles[d->n] * int64_t(sizeof(float)) > dlc::kCPUMaxStackTileBytes)
      tiles[d->m] = anyRowTile(ranges[d->m], reg);
  if (count() < std::max<int64_t>(threads, 2))
    return std::nullopt;
  return tiles;
}

/// Whether `slice` of the result of `pad` starts at 0 in every padded
/// dimension, so that its padding has a static size.
bool wholePaddedDims(tensor::PadOp pad, tensor::ExtractSliceOp slice) {
  for (auto [i, offset] : llvm::enumerate(slice.getMixedOffsets())) {
    std::optional<int64_t> low = getConstantIntValue(pad.getMixedLowPad()[i]);
    std::optional<int64_t> high = getConstantIntValue(pad.getMixedHighPad()[i]);
    if ((low != 0 || high != 0) && getConstantIntValue(offset) != 0)
      return false;
  }
  return true;
}

/// Whether `slice` has one use, as an input of a window op (an op with
/// reductions that is not a matrix product): where a tile pads its own
/// part of a padded input.
bool isWindowInput(tensor::ExtractSliceOp slice) {
  if (!slice->hasOneUse())
    return false;
  OpOperand &use = *slice->use_begin();
  auto window = dyn_cast<linalg::LinalgOp>(use.getOwner());
  return window && window.getNumReductionLoops() > 0 && !matchProduct(window) &&
         window.isDpsInput(&use);
}

/// Replaces `slice`, of static shape, of the result of `pad`, which no
/// static padding describes (a band of rows that may reach the border or
/// not), by a buffer of the slice's shape filled with the padding value,
/// into which the rows and columns of the pad's source that the slice
/// covers are copied: each tile pads its own band.
LogicalResult materializeBand(RewriterBase &rewriter, tensor::PadOp pad,
                              tensor::ExtractSliceOp slice) {
  RankedTensorType source = pad.getSourceType(), type = slice.getType();
  Value value = pad.getConstantPaddingValue();
  if (!value || !source.hasStaticShape() || !type.hasStaticShape() || !slice.hasUnitStride() ||
      type.getRank() != source.getRank())
    return failure();
  ArrayRef<int64_t> low = pad.getStaticLow();
  if (llvm::any_of(low, ShapedType::isDynamic))
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(slice);
  Location loc = slice.getLoc();
  if (Attribute constant; matchPattern(value, m_Constant(&constant)))
    value = arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(constant));
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  SmallVector<OpFoldResult> from, sizes, to;
  for (auto [i, offset] : llvm::enumerate(slice.getMixedOffsets())) {
    int64_t size = type.getDimSize(i), n = source.getDimSize(i);
    if (low[i] == 0 && pad.getStaticHigh()[i] == 0) {
      from.push_back(offset);
      sizes.push_back(rewriter.getIndexAttr(size));
      to.push_back(rewriter.getIndexAttr(0));
      continue;
    }
    // The slice covers [offset - low, offset - low + size) of the source.
    OpFoldResult start = affine::makeComposedFoldedAffineMax(
        rewriter, loc, AffineMap::get(1, 0, {d0 - low[i], getAffineConstantExpr(0, ctx)}, ctx),
        {offset});
    OpFoldResult end = affine::makeComposedFoldedAffineMin(
        rewriter, loc,
        AffineMap::get(1, 0, {d0 - low[i] + size, getAffineConstantExpr(n, ctx)}, ctx), {offset});
    from.push_back(start);
    sizes.push_back(affine::makeComposedFoldedAffineMax(
        rewriter, loc, AffineMap::get(2, 0, {d0 - d1, getAffineConstantExpr(0, ctx)}, ctx),
        {end, start}));
    to.push_back(affine::makeComposedFoldedAffineApply(rewriter, loc, d0 - d1 + low[i],
                                                       {start, offset}));
  }
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
  Value filled = linalg::FillOp::create(rewriter, loc, value, empty).getResult(0);
  Value part = tensor::ExtractSliceOp::create(rewriter, loc, pad.getSource(), from, sizes,
                                              SmallVector<OpFoldResult>(type.getRank(),
                                                                        rewriter.getIndexAttr(1)));
  rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
      slice, part, filled, to, sizes,
      SmallVector<OpFoldResult>(type.getRank(), rewriter.getIndexAttr(1)));
  return success();
}

/// Tile sizes of the dimensions of the value that `op` writes to `init`,
/// given tile sizes for its loops (0 for dimensions no loop tiles).
SmallVector<int64_t> valueTiles(linalg::LinalgOp op, OpOperand *init, ArrayRef<int64_t> loopTiles) {
  SmallVector<int64_t> tiles;
  for (AffineExpr e : op.getMatchingIndexingMap(init).getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    tiles.push_back(dim ? loopTiles[dim.getPosition()] : 0);
  }
  return tiles;
}

/// Tile sizes for the loops of elementwise `consumer` that reads a value
/// tiled as `tiles` through `operand`.
SmallVector<int64_t> consumerTiles(linalg::GenericOp consumer, OpOperand &operand,
                                   ArrayRef<int64_t> tiles) {
  SmallVector<int64_t> loops(consumer.getNumLoops(), 0);
  AffineMap map = consumer.getMatchingIndexingMap(&operand);
  for (auto [e, t] : llvm::zip(map.getResults(), tiles))
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      loops[dim.getPosition()] = t;
  return loops;
}

struct CPUTileAndFusePass : dlc::impl::CPUTileAndFusePassBase<CPUTileAndFusePass> {
  using CPUTileAndFusePassBase::CPUTileAndFusePassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    // Elementwise consumers of an anchor's collapsed result (a convolution
    // computed as a matrix product) take that result's shape, so that the
    // two share their loops.
    RewritePatternSet reshapes(ctx);
    linalg::populateFoldReshapeOpsByCollapsingPatterns(reshapes, [](OpOperand *operand) {
      auto expand = operand->get().getDefiningOp<tensor::ExpandShapeOp>();
      auto producer = expand ? expand.getSrc().getDefiningOp<linalg::LinalgOp>() : nullptr;
      return producer && producer.getNumReductionLoops() > 0 && isElementwise(operand->getOwner());
    });
    if (failed(applyPatternsGreedily(func, std::move(reshapes))))
      return signalPassFailure();

    SmallVector<linalg::LinalgOp> anchors;
    func.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && op.getNumReductionLoops() > 0 &&
          op->getNumResults() == 1 && !op->getParentOfType<scf::ForallOp>())
        anchors.push_back(op);
    });
    IRRewriter rewriter(ctx);
    int64_t tiled = 0, fused = 0, fusedPads = 0, paddedBands = 0;
    for (linalg::LinalgOp anchor : anchors) {
      std::optional<SmallVector<int64_t>> tiles = anchorTiles(anchor, vectorBits, threads);
      if (!tiles)
        continue;
      unshareInit(rewriter, anchor);
      // The root: the last of a chain of single-use elementwise consumers.
      Operation *root = anchor;
      SmallVector<int64_t> rootTiles = *tiles;
      Value value = anchor->getResult(0);
      OpOperand *init = anchor.getDpsInitOperand(0);
      SmallVector<int64_t> flowing = valueTiles(anchor, init, rootTiles);
      // An anchor that keeps a reduced dimension is its own root: it cannot
      // be fused into a consumer's tile.
      while (resultsTileable(anchor) && value.hasOneUse() &&
             isElementwise(value.use_begin()->getOwner())) {
        OpOperand &use = *value.use_begin();
        auto consumer = cast<linalg::GenericOp>(use.getOwner());
        if (consumer->getBlock() != anchor->getBlock() || consumer.isDpsInit(&use))
          break;
        rootTiles = consumerTiles(consumer, use, flowing);
        flowing = valueTiles(consumer, consumer.getDpsInitOperand(0), rootTiles);
        root = consumer;
        value = consumer->getResult(0);
      }
      scf::SCFTilingOptions tiling;
      tiling.setTileSizes(getAsIndexOpFoldResult(ctx, rootTiles));
      tiling.setLoopType(threads > 1 ? scf::SCFTilingOptions::LoopType::ForallOp
                                     : scf::SCFTilingOptions::LoopType::ForOp);
      // The original ops whose tiles the loop computes.
      llvm::SmallPtrSet<Operation *, 8> group = {root};
      scf::SCFTileAndFuseOptions options;
      options.setTilingOptions(tiling);
      options.setFusionControlFn(
          [&](tensor::ExtractSliceOp slice, OpResult producer,
              bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            // Used only by the group: otherwise it would be computed twice.
            Operation *loop = slice->getParentOp();
            if (!slice->hasOneUse() || llvm::any_of(producer.getUsers(), [&](Operation *user) {
                  return !group.contains(user) && !loop->isAncestor(user);
                }))
              return std::nullopt;
            auto consumer = dyn_cast<linalg::LinalgOp>(*slice->user_begin());
            if (!consumer)
              return std::nullopt;
            // A window op's padded input: each tile pads its own window
            // while it is in cache, in parallel, instead of one serial copy
            // of the whole tensor.
            if (auto pad = dyn_cast<tensor::PadOp>(producer.getOwner())) {
              if (!isWindowInput(slice) || !wholePaddedDims(pad, slice))
                return std::nullopt;
              group.insert(pad);
              ++fusedPads;
              return scf::SCFTileAndFuseOptions::ControlFnResult{};
            }
            auto op = dyn_cast<linalg::LinalgOp>(producer.getOwner());
            if (!op || !resultsTileable(op))
              return std::nullopt;
            bool init = consumer.isDpsInit(&*slice->use_begin());
            // Into the epilogue: the anchor and elementwise producers. Into
            // an op with reductions: only its initial value (its inputs
            // would be recomputed for every tile).
            bool parallel = op.getNumReductionLoops() == 0;
            if (consumer.getNumReductionLoops() == 0 ? (parallel || op == anchor)
                                                     : (init && parallel)) {
              group.insert(op);
              return scf::SCFTileAndFuseOptions::ControlFnResult{};
            }
            return std::nullopt;
          });
      rewriter.setInsertionPoint(root);
      FailureOr<scf::SCFTileAndFuseResult> result = scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(root), options);
      if (failed(result))
        continue;
      ++tiled;
      fused += result->fusedProducers.size();
      for (auto [original, replacement] : result->replacements)
        rewriter.replaceAllUsesWith(original, replacement);
      rewriter.eraseOp(root);
      // Bands of a padded input (rowBands), which the fusion above left to
      // be read from the whole padded tensor.
      SmallVector<std::pair<tensor::PadOp, tensor::ExtractSliceOp>> bands;
      if (!result->loops.empty())
        result->loops.front()->walk([&](tensor::ExtractSliceOp slice) {
          if (auto pad = slice.getSource().getDefiningOp<tensor::PadOp>();
              pad && isWindowInput(slice))
            bands.emplace_back(pad, slice);
        });
      for (auto [pad, slice] : bands) {
        if (failed(materializeBand(rewriter, pad, slice)))
          continue;
        ++paddedBands;
        if (pad->use_empty())
          rewriter.eraseOp(pad);
      }
      // The fused producers are dead now (the only op with reductions
      // among them is this anchor, so the list of anchors stays valid).
      SmallVector<Operation *> dead(result->fusedProducers.begin(), result->fusedProducers.end());
      for (Operation *op : llvm::reverse(dead))
        if (op->use_empty())
          rewriter.eraseOp(op);
    }
    // The slices the fused ops read from the originals, and with them the
    // originals, are dead; a fused padding's guard for empty slices is
    // statically false.
    RewritePatternSet cleanup(ctx);
    scf::IfOp::getCanonicalizationPatterns(cleanup, ctx);
    if (tiled && failed(applyPatternsGreedily(func, std::move(cleanup))))
      return signalPassFailure();
    dlc::recordPassStat(getArgument(), "tiled", tiled);
    dlc::recordPassStat(getArgument(), "fused", fused);
    dlc::recordPassStat(getArgument(), "fused-pads", fusedPads);
    dlc::recordPassStat(getArgument(), "padded-bands", paddedBands);
  }

  /// Gives `anchor` its own copy of an initial value (a fill or broadcast)
  /// that CSE merged with another op's, so that it can be fused.
  static void unshareInit(RewriterBase &rewriter, linalg::LinalgOp anchor) {
    OpOperand *init = anchor.getDpsInitOperand(0);
    auto producer = init->get().getDefiningOp<linalg::LinalgOp>();
    if (!producer || init->get().hasOneUse() || producer.getNumReductionLoops() != 0 ||
        producer->getNumResults() != 1)
      return;
    rewriter.setInsertionPoint(anchor);
    Operation *copy = rewriter.clone(*producer);
    rewriter.modifyOpInPlace(anchor, [&] { init->set(copy->getResult(0)); });
  }
};
} // namespace
