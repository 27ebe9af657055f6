//===- CPUPrefetch.cpp - fetching a product's next tile of B ---------------===//
//
// A product whose packed B is more than 512 KiB (readsLargeB), too large
// to stay in L2 beside A's and C's tiles, reads each cache tile's B from
// memory once, for its first row of register tiles, and then from the
// cache for every other row. Unhelped, that first row waits on memory while
// the others compute from the cache. Instead every row of register tiles
// fetches its share of the next cache tile's B, spread over its reduction
// steps, so that memory is read while the whole tile computes.
//
// Only f32 panels fetch. Products of bf16 pairs go panel by panel, and their
// panels follow each other in memory; fetching the next panel so measured
// no faster on BERT-base in bf16 (2026-12-07, Zen 5: its one fetching
// kernel took 1-3% more `perf` samples).
//
//===----------------------------------------------------------------------===//
#include "CPUSchedules.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {
/// A tile of B in the B that all of a product's cache tiles read, [panels]
/// [rows][width]: that buffer and the tile's first panel and row.
struct TileOfB {
  Value base, panel, row;
};

/// Where the cache tile's B `tileB`, of `panels` panels by `rows` rows,
/// lies: the source of the chain of subviews taken inside scf.for loops
/// (the cache tiles', and on one thread tile-and-fuse's; it stops at a
/// thread's part of B, taken in scf.forall), and their offsets summed
/// (built at the insertion point). Nothing, and nothing built, where
/// `tileB` is no such subview of a static buffer of panels, or where its
/// tiles do not divide that buffer (the next tile would not fit in it).
std::optional<TileOfB> tileOfB(OpBuilder &b, Location loc, Value tileB, int64_t panels,
                               int64_t rows) {
  SmallVector<memref::SubViewOp> views;
  Value base = tileB;
  while (auto view = base.getDefiningOp<memref::SubViewOp>()) {
    if (!isa<scf::ForOp>(view->getParentOp()) || !view.hasUnitStride() ||
        view.getSourceType().getRank() != 3 || view.getType().getRank() != 3)
      break;
    views.push_back(view);
    base = view.getSource();
  }
  auto type = dyn_cast<MemRefType>(base.getType());
  if (views.empty() || !type || !type.hasStaticShape() || type.getDimSize(0) % panels != 0 ||
      type.getDimSize(1) % rows != 0)
    return std::nullopt;
  Value panel = arith::ConstantIndexOp::create(b, loc, 0), row = panel;
  for (memref::SubViewOp view : views) {
    SmallVector<OpFoldResult> offsets = view.getMixedOffsets();
    panel =
        arith::AddIOp::create(b, loc, panel, getValueOrCreateConstantIndexOp(b, loc, offsets[0]));
    row = arith::AddIOp::create(b, loc, row, getValueOrCreateConstantIndexOp(b, loc, offsets[1]));
  }
  return TileOfB{base, panel, row};
}

/// The tile read after `tile`, of `panels` panels by `rows` rows: the next
/// rows of the same panels, else the first rows of the next panels; after
/// the last tile, the first.
TileOfB nextTile(OpBuilder &b, Location loc, const TileOfB &tile, int64_t panels, int64_t rows) {
  ArrayRef<int64_t> shape = cast<MemRefType>(tile.base.getType()).getShape();
  auto constant = [&](int64_t c) { return arith::ConstantIndexOp::create(b, loc, c); };
  auto atLeast = [&](Value v, int64_t bound) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v, constant(bound));
  };
  Value zero = constant(0);
  Value row = arith::AddIOp::create(b, loc, tile.row, constant(rows));
  Value wrapRow = atLeast(row, shape[1]);
  row = arith::SelectOp::create(b, loc, wrapRow, zero, row);
  Value panel = arith::SelectOp::create(
      b, loc, wrapRow, arith::AddIOp::create(b, loc, tile.panel, constant(panels)), tile.panel);
  panel = arith::SelectOp::create(b, loc, atLeast(panel, shape[0]), zero, panel);
  return {tile.base, panel, row};
}
} // namespace

bool dlc::cpu::prefetchNextB(RewriterBase &rewriter, Value tileB, RegisterTile reg, scf::ForOp rows,
                             scf::ForOp cols, scf::ForOp red) {
  auto type = dyn_cast<MemRefType>(tileB.getType());
  if (!rows || !cols || !red || !type || type.getRank() != 3 || !type.hasStaticShape())
    return false;
  std::optional<int64_t> mc = getConstantIntValue(rows.getUpperBound());
  if (!mc || *mc <= reg.mr)
    return false;
  int64_t tilePanels = type.getDimSize(0), tileRows = type.getDimSize(1),
          width = type.getDimSize(2);
  Location loc = tileB.getLoc();
  rewriter.setInsertionPoint(rows);
  std::optional<TileOfB> tile = tileOfB(rewriter, loc, tileB, tilePanels, tileRows);
  if (!tile)
    return false;
  TileOfB next = nextTile(rewriter, loc, *tile, tilePanels, tileRows);
  // In each reduction step, the register tile of rows g * mr to (g + 1) * mr
  // and columns n to n + nr fetches row min(g * share + step * share /
  // tileRows, tileRows - 1) of the next tile's panel n / width, from lane
  // n mod width: the G rows of register tiles take a share of the rows each.
  rewriter.setInsertionPointToStart(red.getBody());
  MLIRContext *ctx = rewriter.getContext();
  int64_t groups = llvm::divideCeil(*mc, reg.mr), share = llvm::divideCeil(tileRows, groups);
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  AffineMap shareMap =
      AffineMap::get(2, 0,
                     {d0.floorDiv(reg.mr) * share + (d1 * share).floorDiv(tileRows),
                      getAffineConstantExpr(tileRows - 1, ctx)},
                     ctx);
  Value row = affine::AffineMinOp::create(
      rewriter, loc, shareMap, ValueRange{rows.getInductionVar(), red.getInductionVar()});
  row = arith::AddIOp::create(rewriter, loc, next.row, row);
  Value col = cols.getInductionVar();
  Value panel =
      arith::AddIOp::create(rewriter, loc, next.panel,
                            affine::AffineApplyOp::create(
                                rewriter, loc, AffineMap::get(1, 0, d0.floorDiv(width), ctx), col));
  // One fetch per 64-byte line, asked of L2 and beyond (locality 2,
  // `prefetcht1`): the next tile is not needed in L1 yet. (On the Zen 5
  // where this was measured, the four localities ran alike.)
  constexpr int64_t kLineFloats = 64 / 4;
  for (int64_t line = 0; line < reg.nr; line += kLineFloats) {
    Value lane = affine::AffineApplyOp::create(rewriter, loc,
                                               AffineMap::get(1, 0, d0 % width + line, ctx), col);
    memref::PrefetchOp::create(rewriter, loc, next.base, ValueRange{panel, row, lane},
                               /*isWrite=*/false, /*localityHint=*/2, /*isDataCache=*/true);
  }
  return true;
}
