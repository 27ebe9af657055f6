//===- CPUSchedules.h - shapes of the CPU kernels (internal) ---------------===//
//
// What the tile-and-fuse and vectorization passes agree on: which ops are
// matrix products, the register tile for the vector width, and cache tiles
// that divide the loops so that every tile has a static shape.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_CONVERSION_LINALGTOCPU_CPUSCHEDULES_H
#define DLC_LIB_CONVERSION_LINALGTOCPU_CPUSCHEDULES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include <limits>
#include <optional>

namespace mlir::scf {
class ForOp;
} // namespace mlir::scf

namespace dlc::cpu {

/// The roles of a matrix product's loops: C[.., m, n] += A[.., m, k] * B[.., k, n].
struct ProductDims {
  unsigned m, n, k;
};

/// The panel width `w` if `bMap`, the indexing map of a product's B, reads
/// B packed into panels (dlc-cpu-pack-weights): its results end with
/// (n floordiv w, k, n mod w) for two loop dims n and k.
std::optional<int64_t> panelWidth(mlir::AffineMap bMap);
/// The map through which a product of `numLoops` loops with roles `d` reads
/// B packed into panels of `width` columns: (n floordiv width, k, n mod width),
/// after `batch`, the results that index a batch of such B (a Winograd
/// product's points).
mlir::AffineMap panelMap(unsigned numLoops, ProductDims d, int64_t width, mlir::MLIRContext *ctx,
                         llvm::ArrayRef<mlir::AffineExpr> batch = {});

/// The panel width `w` if `bMap` reads B packed into panels of bf16 pairs
/// (dlc-cpu-pack-weights with bf16 dot products): its results end with
/// (n floordiv w, k floordiv 2, n mod w, k mod 2) for two loop dims n and k.
std::optional<int64_t> pairPanelWidth(mlir::AffineMap bMap);
/// The map through which a product reads B packed into panels of bf16
/// pairs: (n floordiv width, k floordiv 2, n mod width, k mod 2).
mlir::AffineMap pairPanelMap(unsigned numLoops, ProductDims d, int64_t width,
                             mlir::MLIRContext *ctx);
/// The width of B's panels, of either form, if `bMap` reads packed panels.
inline std::optional<int64_t> packedWidth(mlir::AffineMap bMap) {
  if (std::optional<int64_t> w = panelWidth(bMap))
    return w;
  return pairPanelWidth(bMap);
}

/// Whether `op` is an f32 contraction of two inputs over one reduction loop
/// with static loop ranges, on tensors or on buffers with contiguous rows.
bool isF32Contraction(mlir::linalg::LinalgOp op);

/// Whether `op` is a product of bf16 values accumulated in f32 whose B is
/// packed into panels of pairs (pairPanelWidth): inputs widened in the
/// body, multiplied and added to the f32 output, static loop ranges, on
/// tensors or on buffers with contiguous rows.
bool isPairProduct(mlir::linalg::LinalgOp op);

/// The loop roles if `op` is an f32 matrix product, or a pair product
/// (isPairProduct), with static loop ranges (on tensors, or on buffers
/// whose rows are contiguous along n): C's last two results m and n, A's
/// m and k, B's k and n (or B's panels of them), m not indexing B and n not
/// A; other parallel loops (a batch's) may index any of them. Nothing
/// otherwise.
std::optional<ProductDims> matchProduct(mlir::linalg::LinalgOp op);

/// The loop roles if the indexing maps (A, B, C) and iterators are those of
/// a matrix product, whatever the operands' types; B may be packed
/// (panelWidth).
std::optional<ProductDims> productDims(llvm::ArrayRef<mlir::AffineMap> maps,
                                       llvm::ArrayRef<mlir::utils::IteratorType> iterators);

/// A register tile of `mr` rows by `nr` columns: rows of two vectors, the
/// accumulator taking half the vector registers (16 of 32 with AVX-512,
/// 12 of 16 with AVX2), the rest holding B's row and a broadcast A element.
/// A product of fewer columns than two vectors (an NHWC convolution of 16
/// or 24 output channels with AVX-512) takes rows of one vector, twice as
/// many: the same accumulators, none of them idle; one of fewer columns
/// than a vector (an NCHW convolution of a 2 x 2 map) too, masked.
struct RegisterTile {
  int64_t mr, nr;
};
inline RegisterTile registerTile(int64_t vectorBits,
                                 int64_t n = std::numeric_limits<int64_t>::max()) {
  int64_t lanes = vectorBits / 32, rows = vectorBits >= 512 ? 8 : 6;
  if (n < 2 * lanes)
    return {2 * rows, lanes};
  return {rows, 2 * lanes};
}
/// The register tile of the product `op` with loop roles `d`: the one its
/// packed B's panels were written for, else registerTile for its columns.
RegisterTile productTile(mlir::linalg::LinalgOp op, ProductDims d, int64_t vectorBits);

/// Whether `op`, an f32 or a pair product (isPairProduct) with loop roles
/// `d`, reads a B of more than 512 KiB: too large to stay in a core's L2
/// cache beside A's and C's tiles, so that each cache tile of rows reads
/// its part of B again from L3 or memory (BERT-base's products, whose
/// weights come from memory at every inference). Such a product takes up to
/// twice the rows per cache tile (cacheTileM), and the threads split its
/// columns before its rows (dlc-cpu-tile-and-fuse): each tile of B read
/// serves more rows. `op` is what the caller tiles: the whole product for
/// the threads' tiles, a thread's tile (its part of B) for the cache tiles.
bool readsLargeB(mlir::linalg::LinalgOp op, ProductDims d);

/// The cache tile of a product's m loop for this register tile: up to 8
/// register tiles of rows, 16 where B is large (readsLargeB) and such a
/// tile divides m.
int64_t cacheTileM(int64_t m, RegisterTile reg, bool largeB);
/// The cache tile of a product's n and k loops.
int64_t cacheTileN(int64_t n, RegisterTile reg);
int64_t cacheTileK(int64_t k);
/// A tile of a product's m loop that need not be a multiple of the
/// register tile's rows (the product kernel peels the partial last one).
int64_t anyRowTile(int64_t m, RegisterTile reg);
/// The cache block of a product's n loop inside a thread's tile: the tile
/// of cacheTileN where one divides the loop, else blocks of 256 columns
/// (a multiple of every register tile's width) whose last, partial block
/// the caller peels off, so that a block of B stays in the L2 cache.
int64_t cacheBlockN(int64_t n, RegisterTile reg);
/// Whether cacheBlockN leaves a partial last block: no column tile divides n.
inline bool blockedColumns(int64_t n, RegisterTile reg) { return n % cacheBlockN(n, reg) != 0; }

/// Lowers the cache tile `tile` of a pair product (isPairProduct) on
/// buffers with static shapes to register tiles of AVX512-BF16 dot
/// products (CPUPairProducts.cpp) and erases it; fails, changing nothing,
/// where its shapes do not allow that.
mlir::LogicalResult lowerPairProduct(mlir::RewriterBase &rewriter, mlir::linalg::GenericOp tile,
                                     ProductDims d, RegisterTile reg);

/// Makes the register tiles of a cache tile of a product whose B is packed
/// in f32 panels and large (readsLargeB) fetch the next cache tile's B
/// while they compute (CPUPrefetch.cpp). `tileB` is the cache tile's B, a
/// subview [panels, k, width]; the cache tiles go through B's k before its
/// panels (the caller checks their loop order, and that whole column
/// blocks, not blocked columns, divide B). `rows`, `cols` and `red` are the
/// register tiles' loops of rows, columns and reduction. False, nothing
/// changed, where a loop is missing, where the tile has a single row of
/// register tiles (it reads B once: nothing to overlap), or where B is not
/// a static subview of panels that its tiles divide.
bool prefetchNextB(mlir::RewriterBase &rewriter, mlir::Value tileB, RegisterTile reg,
                   mlir::scf::ForOp rows, mlir::scf::ForOp cols, mlir::scf::ForOp red);

/// The largest multiple of `step` that divides `range` and is at most
/// `limit`, but not below limit / 4; the whole range if there is none.
int64_t cacheTile(int64_t range, int64_t step, int64_t limit);

} // namespace dlc::cpu

#endif
