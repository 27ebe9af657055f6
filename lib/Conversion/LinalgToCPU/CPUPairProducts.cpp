//===- CPUPairProducts.cpp - bf16 products on AVX512-BF16 dot products ------===//
//
// A cache tile of a product of bf16 values accumulated in f32, whose B is
// packed into panels of pairs [n / w][k / 2][w][2] (dlc-cpu-pack-weights
// with bf16-dots), as register tiles of `vdpbf16ps`: each lane of a dot
// product multiplies a pair of bf16 values by another pair and adds both
// products to its f32 accumulator. A register tile holds `mr` rows of w
// accumulator columns (vectors of 16); a reduction step reads one panel
// row of pairs (k, k + 1) as vectors of 32 bf16 and, per row, A's pair
// (A[m, k], A[m, k + 1]) broadcast to every lane as one 32-bit value.
//
//===----------------------------------------------------------------------===//
#include "CPUSchedules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"

using namespace mlir;
using namespace dlc::cpu;

namespace {
/// f32 lanes of a 512-bit dot product's accumulator.
constexpr int64_t kLanes = 16;

/// Emits the loops of one cache tile; the operands checked by
/// lowerPairProduct.
class PairTileEmitter {
public:
  PairTileEmitter(RewriterBase &rewriter, linalg::GenericOp tile, ProductDims d, Value pairs,
                  int64_t width)
      : b(rewriter), loc(tile.getLoc()), tile(tile), d(d), pairs(pairs), width(width) {}

  /// Every register tile: panels outermost, rows of `rows` within each.
  void emit(int64_t rows) {
    SmallVector<int64_t> ranges = tile.getStaticLoopRanges();
    int64_t m = ranges[d.m], full = m / rows * rows;
    auto panels = scf::ForOp::create(b, loc, index(0), index(ranges[d.n] / width), index(1));
    b.setInsertionPointToStart(panels.getBody());
    Value panel = panels.getInductionVar();
    if (full > 0) {
      auto rowLoop = scf::ForOp::create(b, loc, index(0), index(full), index(rows));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(rowLoop.getBody());
      registerTile(rowLoop.getInductionVar(), panel, rows);
    }
    if (m > full)
      registerTile(index(full), panel, m - full);
  }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, int64_t c) {
    return c == 0 ? x : arith::AddIOp::create(b, loc, x, index(c)).getResult();
  }
  Value mul(Value x, int64_t c) { return arith::MulIOp::create(b, loc, x, index(c)); }

  /// The indices of operand `i` of the tile for loop values `at` (loop
  /// dimension to value; the loops not given have a single iteration).
  SmallVector<Value> indices(unsigned i, ArrayRef<std::pair<unsigned, Value>> at) {
    SmallVector<Value> result;
    for (AffineExpr e : tile.getIndexingMapsArray()[i].getResults()) {
      unsigned dim = cast<AffineDimExpr>(e).getPosition();
      auto given = llvm::find_if(at, [&](auto p) { return p.first == dim; });
      result.push_back(given != at.end() ? given->second : index(0));
    }
    return result;
  }

  /// `rows` rows of accumulators from row `row0` of the tile, over the
  /// columns of panel `panel`: loaded, carried through the reduction, stored.
  void registerTile(Value row0, Value panel, int64_t rows) {
    Value a = tile.getDpsInputs()[0], c = tile.getDpsInits()[0];
    int64_t vectors = width / kLanes, steps = tile.getStaticLoopRanges()[d.k] / 2;
    auto accType = VectorType::get({kLanes}, b.getF32Type());
    auto pairType = VectorType::get({2 * kLanes}, b.getBF16Type());
    Value col0 = mul(panel, width);
    SmallVector<Value> accs;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < vectors; ++j)
        accs.push_back(vector::LoadOp::create(
            b, loc, accType, c, indices(2, {{d.m, add(row0, r)}, {d.n, add(col0, j * kLanes)}})));
    auto steps2 = scf::ForOp::create(
        b, loc, index(0), index(steps), index(1), accs,
        [&](OpBuilder &nb, Location, Value step, ValueRange carried) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          SmallVector<Value> bRow;
          for (int64_t j = 0; j < vectors; ++j)
            bRow.push_back(vector::LoadOp::create(
                b, loc, pairType, pairs, ValueRange{panel, step, index(j * 2 * kLanes)}));
          Value k = mul(step, 2);
          SmallVector<Value> next;
          for (int64_t r = 0; r < rows; ++r) {
            Value pair = vector::LoadOp::create(b, loc, VectorType::get({2}, b.getBF16Type()), a,
                                                indices(0, {{d.m, add(row0, r)}, {d.k, k}}));
            Value word = vector::BitCastOp::create(
                b, loc, VectorType::get({1}, b.getI32Type()), pair);
            Value scalar = vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0});
            Value splat = vector::BroadcastOp::create(
                b, loc, VectorType::get({kLanes}, b.getI32Type()), scalar);
            Value lhs = vector::BitCastOp::create(b, loc, pairType, splat);
            for (int64_t j = 0; j < vectors; ++j)
              next.push_back(x86vector::DotBF16Op::create(b, loc, accType,
                                                          carried[r * vectors + j], lhs, bRow[j]));
          }
          scf::YieldOp::create(b, loc, next);
        });
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < vectors; ++j)
        vector::StoreOp::create(b, loc, steps2.getResult(r * vectors + j), c,
                                indices(2, {{d.m, add(row0, r)}, {d.n, add(col0, j * kLanes)}}));
  }

  RewriterBase &b;
  Location loc;
  linalg::GenericOp tile;
  ProductDims d;
  Value pairs; // B's panels, [panels][k / 2][2 width]
  int64_t width;
};
} // namespace

LogicalResult dlc::cpu::lowerPairProduct(RewriterBase &rewriter, linalg::GenericOp tile,
                                         ProductDims d, RegisterTile reg) {
  std::optional<int64_t> width = pairPanelWidth(tile.getIndexingMapsArray()[1]);
  auto bType = dyn_cast<MemRefType>(tile.getDpsInputs()[1].getType());
  if (!width || *width % kLanes != 0 || !tile.hasPureBufferSemantics() || !isPairProduct(tile) ||
      !bType || bType.getRank() != 4)
    return failure();
  SmallVector<int64_t> ranges = tile.getStaticLoopRanges();
  for (auto [i, range] : llvm::enumerate(ranges))
    if (i != d.m && i != d.n && i != d.k && range != 1)
      return failure();
  // A pair of A is two consecutive values of a row, and a row of
  // accumulators consecutive values of C.
  auto innermost = [&](unsigned i, unsigned dim) {
    AffineMap map = tile.getIndexingMapsArray()[i];
    auto type = cast<MemRefType>(tile->getOperand(i).getType());
    return map.isProjectedPermutation() && map.getNumResults() > 0 &&
           map.getResults().back() == getAffineDimExpr(dim, tile.getContext()) &&
           type.areTrailingDimsContiguous(1);
  };
  SmallVector<ReassociationIndices> lanes = {{0}, {1}, {2, 3}};
  if (ranges[d.k] % 2 != 0 || ranges[d.n] % *width != 0 || !innermost(0, d.k) ||
      !innermost(2, d.n) || !memref::CollapseShapeOp::isGuaranteedCollapsible(bType, lanes))
    return failure();
  rewriter.setInsertionPoint(tile);
  Value pairs = memref::CollapseShapeOp::create(rewriter, tile.getLoc(), tile.getDpsInputs()[1], lanes);
  PairTileEmitter(rewriter, tile, d, pairs, *width).emit(reg.mr);
  rewriter.eraseOp(tile);
  return success();
}
