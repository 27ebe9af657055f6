//===- TiledContraction.cpp - matrix products tiled in shared memory ------===//
#include "TiledContraction.h"
#include "dlc/Conversion/GPUPipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {
/// A block's share of the outputs, bm rows by bn columns, and each of its
/// threads': tm by tn outputs, kThreadGrid rows and columns apart (a warp's
/// lanes store consecutive columns); on tensor cores, each warp's: `wm`
/// rows (a multiple of 16, the fragments' rows) by as many columns as the
/// block's warps leave.
struct TileShape {
  int64_t bm, bn, tm, tn, wm;
};

/// Threads per block, a 16 x 16 grid; warps per block.
constexpr int64_t kThreads = dlc::kGPUBlockThreads, kThreadGrid = 16,
                  kWarps = kThreads / dlc::kGPUWarpSize;
/// The fewest rows and columns a tiled product has.
constexpr int64_t kMinExtent = 16;
/// From the most outputs per thread to the fewest: the first no larger than
/// the largest allowed that gives the GPU enough blocks is chosen, else the
/// last.
///
/// A warp's tensor-core tile is the squarest the block's 8 warps allow:
/// per 16 reduction steps it loads 4 words of A per 16 rows and 2 of B per 8
/// columns for one mma.sync per 16 x 8 outputs, so 32 x 64 (24 loads for 16
/// mma.sync) rather than 16 x 128 (36); 16 x 32 and 32 x 16 load alike.
constexpr TileShape kTileShapes[] = {
    {128, 128, 8, 8, 32}, {64, 64, 4, 4, 16}, {32, 64, 2, 4, 16}, {32, 32, 2, 2, 16}};
/// The largest tile of a product whose reduction is split: it has few
/// tiles, and larger ones would need more slices, each a partial result
/// written and summed again.
constexpr int64_t kMaxSplitTile = 64;
/// Blocks to occupy a large GPU (an H100 has 132 multiprocessors): the
/// tiles are the largest that give as many.
constexpr int64_t kEnoughBlocks = 128;
/// The blocks a product on tensor cores splits its reduction towards (see
/// splitBlocksFor); products on the threads' own FMAs split towards
/// kEnoughBlocks.
constexpr int64_t kTensorCoreSplitBlocks = 512;
/// The most blocks a grid's y and z dimensions take.
constexpr int64_t kMaxGridYZ = 65535;
/// Reductions at least this long split among the largest tiles of at most
/// kMaxSplitTile rows.
constexpr int64_t kLongReduction = 1024;
/// The fewest reduction steps a block takes when the reduction is split.
constexpr int64_t kMinStepsPerSplit = 8;
/// The bytes a cp.async copies (its most).
constexpr int64_t kCopyBytes = 16;

/// The loops of a product by role (linalg::inferContractionDims) and their
/// trip counts.
struct ContractionShape {
  SmallVector<unsigned, 2> batch, m, n;
  unsigned k;
  SmallVector<int64_t> ranges;

  int64_t count(ArrayRef<unsigned> dims) const {
    int64_t c = 1;
    for (unsigned d : dims)
      c *= ranges[d];
    return c;
  }
  SmallVector<int64_t> counts(ArrayRef<unsigned> dims) const {
    return llvm::map_to_vector(dims, [&](unsigned d) { return ranges[d]; });
  }
};

/// How the product is cut: output tiles, staged `stepK` reduction
/// elements at a time, and, when they are too few to occupy the GPU,
/// slices of the reduction (split-K) of `chunk` elements each, summed in
/// order by a second kernel or by the last block to finish the tile.
struct TilePlan {
  TileShape tile;
  int64_t stepK, splits = 1, chunk = 0;
};
} // namespace

static std::optional<ContractionShape> contractionShape(linalg::LinalgOp op) {
  // `out += a * b` (on f32, linalg's contraction body is a mulf and an addf)
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.getElementType().isF32() || !type.hasStaticShape())
      return std::nullopt;
  }
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return std::nullopt;
  // Every loop a batch, row, column or the reduction one (inferContractionDims
  // leaves a loop that only one operand uses without a role).
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  if (failed(dims) || dims->k.size() != 1 || dims->m.empty() || dims->n.empty() ||
      dims->batch.size() + dims->m.size() + dims->n.size() + 1 != op.getNumLoops())
    return std::nullopt;
  ContractionShape shape{dims->batch, dims->m, dims->n, dims->k.front(),
                         op.getStaticLoopRanges()};
  if (llvm::is_contained(shape.ranges, ShapedType::kDynamic))
    return std::nullopt;
  return shape;
}

/// The plan for `shape` with tiles of at most `maxTile` rows and columns
/// and steps of `stepK`, its reduction split towards `splitBlocks` blocks,
/// if it is large enough to tile.
static std::optional<TilePlan> plan(const ContractionShape &shape, int64_t maxTile,
                                    int64_t stepK, int64_t splitBlocks) {
  int64_t rows = shape.count(shape.m), cols = shape.count(shape.n),
          batch = shape.count(shape.batch), depth = shape.ranges[shape.k];
  if (rows < kMinExtent || cols < kMinExtent)
    return std::nullopt;
  auto blocks = [&](const TileShape &tile) {
    return llvm::divideCeil(rows, tile.bm) * llvm::divideCeil(cols, tile.bn) * batch;
  };
  // Tiles larger than the split ones only where the product fills them
  // (128 x 128 over 64 columns would compute half its outputs for nothing).
  auto allowed = [&](int64_t largest) {
    return llvm::make_filter_range(kTileShapes, [=](const TileShape &tile) {
      return tile.bm <= largest && tile.bn <= largest &&
             (tile.bm <= kMaxSplitTile || (rows >= tile.bm && cols >= tile.bn));
    });
  };
  // Too few tiles of every shape: a long reduction is split among the
  // largest tiles a split takes (the most multiply-adds per staged
  // element), a short one among the smallest.
  TilePlan plan{depth >= kLongReduction
                    ? *allowed(std::min(maxTile, kMaxSplitTile)).begin()
                    : std::end(kTileShapes)[-1],
                stepK, 1, depth};
  for (const TileShape &tile : allowed(maxTile))
    if (blocks(tile) >= kEnoughBlocks) {
      plan.tile = tile;
      break;
    }
  // Fewer blocks than `splitBlocks`: the reduction is split towards as
  // many, in slices of kMinStepsPerSplit steps or more; tiles larger than
  // kMaxSplitTile have blocks enough.
  int64_t splits = std::min<int64_t>(llvm::divideCeil(splitBlocks, blocks(plan.tile)),
                                     depth / (stepK * kMinStepsPerSplit));
  if (splits > 1 && plan.tile.bm <= kMaxSplitTile) {
    plan.chunk = llvm::alignTo(llvm::divideCeil(depth, splits), stepK);
    plan.splits = llvm::divideCeil(depth, plan.chunk);
  }
  if (llvm::divideCeil(rows, plan.tile.bm) > kMaxGridYZ || batch * plan.splits > kMaxGridYZ)
    return std::nullopt;
  return plan;
}

/// Steps of 32 reduction elements for products of narrow values, 16 for
/// others, unless `limits` says: an A/B on an H100 (bench/gpu/h100-windows)
/// measured 32 faster in f16 (BERT-base 0.91x the time at batch 1, 0.84x
/// at 32; ResNet-50 0.86x at batch 1, level at 32; MobileNetV2 and SSD
/// within 5%) and in TF32 faster at batch 1 (ResNet-50 0.84x) but slower at
/// batch 32 (BERT-base 1.17x, ResNet-50 and SSD 1.06x).
static int64_t stepFor(const dlc::TileLimits &limits, bool narrow) {
  return limits.depth ? limits.depth : narrow ? 32 : 16;
}

/// Products on tensor cores split their reductions towards 512 blocks,
/// others towards 128, unless `limits` says: an A/B on an H200
/// (bench/gpu/h200-split-blocks) measured 512 faster on tensor cores at
/// batch 1 with a CUDA graph (TF32: ResNet-50 0.76x the time, BERT-base
/// 0.74x, SSD 0.83x; f16: BERT-base 0.90x; MobileNetV2, whose products are
/// large enough, and ResNet-50 in f16 level) and level at batch 32 (0.96x
/// to 1.00x). A tensor core's step is short, so a block of few steps
/// spends most of its time waiting for the tiles' loads: four times the
/// blocks hide that wait. Products on the threads' own FMAs were not
/// measured so.
static int64_t splitBlocksFor(const dlc::TileLimits &limits, bool tensorCores) {
  return limits.splitBlocks ? limits.splitBlocks
         : tensorCores      ? kTensorCoreSplitBlocks
                            : kEnoughBlocks;
}

/// The plan for a product isTiledContraction accepts, on `narrow` values
/// (f16, bf16) or not. 128 x 128 tiles where an A/B on an H200 at batch 32
/// measured them faster than 64 x 64 (bench/gpu/h200-large-tiles): BERT-base
/// (dense layers over 4096 rows, attention per head: 0.81x the time in f32
/// and TF32, 0.88x in f16) and convolutions on f16 values (ResNet-50 0.96x,
/// SSD 0.94x); in f32 and TF32 the convolutions were slower with them
/// (ResNet-50 1.08x and 1.11x, SSD 1.10x and 1.04x). A convolution's
/// columns span several loops (image, and position or im2col window), which
/// each staged element's index is split into; BERT's span one. So f32 tiles
/// of columns over several loops stay at 64 x 64 (each thread's 64
/// accumulators leave room for one block a multiprocessor, too few,
/// presumably, to hide that index arithmetic and the gathers).
static TilePlan choosePlan(const ContractionShape &shape, const dlc::TileLimits &limits,
                           bool narrow, bool tensorCores) {
  int64_t stepK = stepFor(limits, narrow), splitBlocks = splitBlocksFor(limits, tensorCores);
  if (limits.maxTile > kMaxSplitTile && shape.n.size() > 1 && !narrow)
    if (std::optional<TilePlan> p = plan(shape, kMaxSplitTile, stepK, splitBlocks))
      return *p;
  return *plan(shape, limits.maxTile, stepK, splitBlocks);
}

/// The narrow type (f16, bf16) of both inputs' values where `cores` takes
/// products of them, else null.
static Type narrowInputs(linalg::LinalgOp op, const dlc::TensorCores &cores,
                         const dlc::ProductFusion &fusion) {
  Type lhs = dlc::narrowType(fusion, op.getDpsInputOperand(0)->get());
  if (cores.narrow && lhs && lhs == dlc::narrowType(fusion, op.getDpsInputOperand(1)->get()))
    return lhs;
  return {};
}

bool dlc::isTiledContraction(linalg::LinalgOp op, const TileLimits &limits) {
  std::optional<ContractionShape> shape = contractionShape(op);
  // (deeper steps and fewer blocks split a reduction in fewer slices: the
  // plan of the shallowest steps towards the most blocks implies the others)
  return shape && plan(*shape, limits.maxTile, stepFor(limits, /*narrow=*/false),
                       splitBlocksFor(limits, /*tensorCores=*/true));
}

/// The dimension `operand` is contiguous along (its last index's).
static unsigned innermostDim(linalg::LinalgOp op, OpOperand &operand) {
  return cast<AffineDimExpr>(op.getMatchingIndexingMap(&operand).getResults().back())
      .getPosition();
}

namespace {
/// An element a thread stages, and the conditions under which it is taken
/// (else the value given: a padding's).
struct Staged {
  Value value;
  SmallVector<dlc::Guard> guards;
};

/// The values of `staged` as a loop carries them: each value, then its
/// conditions.
static void flatten(ArrayRef<Staged> staged, SmallVectorImpl<Value> &flat) {
  for (const Staged &s : staged) {
    flat.push_back(s.value);
    for (const dlc::Guard &guard : s.guards)
      flat.push_back(guard.first);
  }
}

/// `like` with the values of `flat` (flatten's order) instead; consumes
/// them from `flat`.
static SmallVector<Staged> unflatten(ArrayRef<Staged> like, ValueRange &flat) {
  SmallVector<Staged> staged(like);
  for (Staged &s : staged) {
    s.value = flat.front();
    flat = flat.drop_front();
    for (dlc::Guard &guard : s.guards) {
      guard.first = flat.front();
      flat = flat.drop_front();
    }
  }
  return staged;
}

/// Builds the kernels of one tiled product: the tiles' kernel and, for a
/// split reduction, the kernel adding the slices (unless the tiles' kernel
/// adds them, with last-block-sums).
class TiledKernels {
public:
  TiledKernels(IRRewriter &rewriter, linalg::LinalgOp op, StringRef name,
               const dlc::TileLimits &limits,
               const dlc::TensorCores &cores, const dlc::ProductFusion &fusion)
      : rewriter(rewriter), op(op), name(name), narrow(narrowInputs(op, cores, fusion)),
        tensorCores(narrow || cores.tf32), fusion(fusion), shape(*contractionShape(op)),
        cut(choosePlan(shape, limits, narrow != nullptr, tensorCores)), tile(cut.tile),
        stepK(cut.stepK),
        loc(op.getLoc()),
        rows(shape.count(shape.m)), cols(shape.count(shape.n)), batch(shape.count(shape.batch)),
        depth(shape.ranges[shape.k]), at(shape.ranges.size()), lhs(*op.getDpsInputOperand(0)),
        rhs(*op.getDpsInputOperand(1)), out(*op.getDpsInitOperand(0)),
        lastBlockSums(limits.lastBlockSums), ldmatrix(limits.ldmatrix) {
    chooseCopies(limits.stages, limits.vectorLoads);
  }

  /// Replaces the op with its kernels.
  dlc::TiledKernelCounts build();

private:
  // Index arithmetic at the insertion point.
  Value index(int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); }
  Value add(Value a, Value b) { return arith::AddIOp::create(rewriter, loc, a, b); }
  Value below(Value a, int64_t bound) {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, a, index(bound));
  }
  Value divide(Value a, int64_t b) { return arith::DivUIOp::create(rewriter, loc, a, index(b)); }
  Value remainder(Value a, int64_t b) {
    return arith::RemUIOp::create(rewriter, loc, a, index(b));
  }
  Value times(Value a, int64_t b) { return arith::MulIOp::create(rewriter, loc, a, index(b)); }

  /// Names `kernel` (name + suffix) and builds into its body.
  void startKernel(gpu::LaunchOp kernel, StringRef suffix);
  /// The extent of the tile of `input` (its rows or columns) and the loops
  /// they are.
  int64_t extentOf(OpOperand &input) { return &input == &lhs ? tile.bm : tile.bn; }
  ArrayRef<unsigned> dimsOf(OpOperand &input) { return &input == &lhs ? shape.m : shape.n; }
  /// A step's tile of `input` in shared memory.
  MemRefType tileType(OpOperand &input);
  /// The buffer the elements of `input` are copied from with cp.async, if
  /// they can be: values of a product on tensor cores (narrow ones, or
  /// f32 ones, rounded to TF32 where the fragments are loaded) contiguous
  /// along the reduction, or along the rows or columns into a tile of
  /// them, reduction-major; in chunks of kCopyBytes that no row, column or
  /// slice of the reduction cuts.
  Value copySource(OpOperand &input);
  /// The values a cp.async copies.
  int64_t copyValues() { return kCopyBytes / (narrow ? 2 : 4); }
  /// Sets which inputs are copied with cp.async, and in how many stages
  /// (at most `most`), where shared memory allows two or more; else, with
  /// `vectorLoads`, which are staged through registers in chunks.
  void chooseCopies(int64_t most, bool vectorLoads);
  /// The buffer `input` is copied from, in chunks of kCopyBytes (with
  /// cp.async, or through registers with vector loads); null if it is
  /// staged through registers an element at a time.
  Value sourceOf(OpOperand &input) { return &input == &lhs ? lhsSource : rhsSource; }
  /// Whether `input` is copied with cp.async, in a ring of `stages` tiles.
  bool copiedAsync(OpOperand &input) { return sourceOf(input) && stages > 1; }
  /// Whether `input` is staged through registers in chunks of kCopyBytes.
  bool loadsVectors(OpOperand &input) { return sourceOf(input) && stages == 1; }
  /// Whether ldmatrix loads the fragments of `input` (products on tensor
  /// cores): from a tile whose rows or columns hold their reduction steps
  /// consecutively (TF32 values, or narrow ones in pairs, of an input
  /// contiguous along the reduction), or with ldmatrix.trans from one of
  /// narrow pairs along the rows or columns (pairsAlongExtent).
  bool loadsMatrices(OpOperand &input) { return ldmatrix && tensorCores; }
  /// Whether the TF32 tile of `input` holds each row's or column's
  /// reduction steps consecutively (ldmatrix reads it, or cp.async writes
  /// it in chunks along the reduction) rather than being reduction-major.
  bool consecutiveSteps(OpOperand &input) {
    return tensorCores && !narrow &&
           (loadsMatrices(input) || (sourceOf(input) && innermostDim(op, input) == shape.k));
  }
  /// `value` rounded to TF32 (to nearest, ties away from zero), as 32 bits.
  Value roundedToTF32(Value value) {
    return NVVM::ConvertFloatToTF32Op::create(
        rewriter, loc, rewriter.getI32Type(), value,
        NVVM::FPRoundingModeAttr::get(rewriter.getContext(), NVVM::FPRoundingMode::RNA));
  }
  /// Whether the narrow tile of `input` holds pairs of consecutive rows or
  /// columns, reduction-major (an input not contiguous along the
  /// reduction, whose fragments ldmatrix.trans loads), rather than pairs
  /// of consecutive reduction steps.
  bool pairsAlongExtent(OpOperand &input) {
    return loadsMatrices(input) && narrow && innermostDim(op, input) != shape.k;
  }
  /// Where pair p of a thread's share of a step is in such a tile, the
  /// block's consecutive threads staging consecutive pairs: (reduction
  /// step, the pair's index along the rows or columns).
  std::pair<Value, Value> extentPair(OpOperand &input, int64_t p) {
    Value e = add(thread, index(p * kThreads));
    int64_t perStep = extentOf(input) / 2;
    return {divide(e, perStep), remainder(e, perStep)};
  }
  /// Whether the tile of `input` is in the block's dynamic shared memory
  /// (16-byte aligned, as cp.async writes and ldmatrix reads it) rather
  /// than shared memory of the kernel's own.
  bool inDynamicShared(OpOperand &input) { return sourceOf(input) || loadsMatrices(input); }
  /// The address of `buffer`'s element at `indices` (the identity layout,
  /// a view of a buffer of it, or a ring's stage), a pointer into `space`.
  Value address(Value buffer, ValueRange indices, unsigned space);
  /// The chunks of kCopyBytes in a step's tile of `input`.
  int64_t chunksOf(OpOperand &input) { return extentOf(input) * stepK / copyValues(); }
  /// Where chunk `chunk` of a step's tile of `input` is: its line (a row
  /// or column of the tile, or, along them, a step) and its first value
  /// along the line; the block's consecutive threads take consecutive
  /// chunks.
  std::pair<Value, Value> chunkPlace(OpOperand &input, Value chunk);
  /// The address in sourceOf(input) of the chunk at (`line`, `part`) of
  /// the step at `stepStart`, of the tile from row or column `first`, and
  /// the condition that it is there rather than zeros (a padding's; null:
  /// always).
  std::pair<Value, Value> chunkSource(OpOperand &input, Value first, Value stepStart, Value line,
                                      Value part);
  /// The address of the chunk at (`line`, `part`) in `stage` of the ring
  /// `ring` of `input`'s tiles.
  Value chunkInTile(Value ring, Value stage, Value line, Value part) {
    return address(ring, {stage, line, narrow ? divide(part, 2) : part}, /*shared*/ 3);
  }
  /// Calls `emit` for each of this thread's chunks of `input`'s tile, with
  /// its number among them and its (`line`, `part`), under a condition
  /// where the threads outnumber the chunks left.
  void forEachChunk(OpOperand &input, function_ref<void(int64_t, Value, Value)> emit);
  /// Copies `input`'s elements of the step at `stepStart` into `stage` (its
  /// tile in the ring `ring`), kCopyBytes a cp.async.
  void copyStep(OpOperand &input, Value first, Value ring, Value stage, Value stepStart);
  /// A thread's chunks of `input` for the step at `stepStart` (or, past the
  /// reduction's end, of the last step, which nothing uses), loaded with
  /// 16-byte vector loads, and stored into its one tile `ring`.
  SmallVector<Staged> loadChunks(OpOperand &input, Value first, Value stepStart);
  void storeChunks(OpOperand &input, Value ring, ArrayRef<Staged> chunks);
  /// The tile `stage` of the ring `ring`.
  Value stageOf(Value ring, Value stage);
  /// Sets the loops `dims` to their values at row or column `linear`.
  void assign(ArrayRef<unsigned> dims, Value linear);
  /// The same with `linear` clamped to the last: a tile's rows and columns
  /// past the end load valid elements, and store nothing.
  void assignClamped(ArrayRef<unsigned> dims, Value linear) {
    assign(dims, arith::MinUIOp::create(rewriter, loc, linear, index(shape.count(dims) - 1)));
  }
  /// The indices of `operand` at the loops' values (`at`).
  SmallVector<Value> indices(OpOperand &operand) {
    return llvm::map_to_vector(op.getMatchingIndexingMap(&operand).getResults(),
                               [&](AffineExpr e) { return at[cast<AffineDimExpr>(e).getPosition()]; });
  }
  /// Each thread's outputs as (row, column) in the tile.
  SmallVector<std::pair<Value, Value>> threadOutputs();
  /// A thread's elements of `input` for the step at `stepStart`: loaded
  /// (or computed by fused producers) a step ahead, so that the loads are
  /// in flight while the products of the step before are computed, and
  /// the paddings' conditions, applied when they are stored.
  SmallVector<Staged> loadStep(OpOperand &input, Value first, Value stepStart);
  /// Stores them into `buffer`, the tile in shared memory.
  void storeStep(OpOperand &input, Value buffer, ArrayRef<Staged> staged, Value stepStart);
  /// Where the element r of a thread's share of a step is in the tile:
  /// (reduction step, row or column).
  std::pair<Value, Value> stagedPosition(OpOperand &input, int64_t r);
  /// Where item p of a thread's share of a step is, of `perLine` items per
  /// row or column (elements, or a narrow tile's pairs): (its index along
  /// the reduction, row or column).
  std::pair<Value, Value> stagedItem(OpOperand &input, int64_t perLine, int64_t p);
  /// The indices in the narrow tile of `input` of the word holding pair
  /// `pair` of row or column `at`.
  SmallVector<Value, 2> wordIndices(OpOperand &input, Value at, Value pair) {
    if (innermostDim(op, input) == shape.k)
      return {at, pair};
    return {pair, at};
  }
  /// One step's products into `accumulated`, on each thread or on tensor
  /// cores.
  void multiplyOnThreads(Value lhsTile, Value rhsTile, MutableArrayRef<Value> accumulated);
  void multiplyOnTensorCores(Value lhsTile, Value rhsTile, MutableArrayRef<Value> accumulated);
  /// The kernel adding the slices' sums in `partial` to the output.
  void sumSlices(Value partial);
  /// The same in the tiles' kernel, after the block stored its slice of
  /// the tile at (`batchIndex`, `firstRow`, `firstCol`): the block that
  /// finds it the last to finish the tile, from the tile's count in
  /// `counts` (at `tileIndex`; told to its threads through `flag` in shared
  /// memory), adds the slices and sets the count back to zero.
  void sumSlicesInLastBlock(Value partial, Value counts, Value tileIndex, Value flag,
                            Value batchIndex, Value firstRow, Value firstCol);
  /// Adds the slices' sums in `partial` at the output element (`batchIndex`,
  /// `row`, `col`) to its initial value, in order, and stores the result.
  void sumAndStore(Value partial, Value batchIndex, Value row, Value col);
  /// The initial value of the output's element at the loops' values.
  Value initialValue() { return dlc::initialValue(rewriter, op, fusion, indices(out)); }
  /// Stores the product's result at the loops' values (dlc::storeResult).
  void storeResult(Value result) { dlc::storeResult(rewriter, op, fusion, indices(out), result); }

  IRRewriter &rewriter;
  linalg::LinalgOp op;
  StringRef name;
  /// The products run on tensor cores (`tensorCores`): on `narrow` values
  /// (f16, bf16: both inputs' are, exactly), else on TF32.
  Type narrow;
  bool tensorCores;
  dlc::ProductFusion fusion;
  ContractionShape shape;
  TilePlan cut;
  const TileShape &tile;
  int64_t stepK;
  Location loc;
  int64_t rows, cols, batch, depth;
  /// The buffers the inputs copied with cp.async are copied from (null: an
  /// input staged through registers), and the stages of shared memory they
  /// take (1 if none is, or if they are staged through registers in
  /// chunks).
  Value lhsSource, rhsSource;
  int64_t stages = 1;
  /// Every loop's value at the element being loaded or stored.
  SmallVector<Value> at;
  OpOperand &lhs, &rhs, &out;
  bool lastBlockSums, ldmatrix;
  // The tiles' kernel: its thread, and its position in the thread grid (own
  // products) or in its warp's tile (tensor cores).
  Value thread, zero, tx, ty, lane, group, quad, warpRow, warpCol;
};
} // namespace

void dlc::startKernel(RewriterBase &rewriter, gpu::LaunchOp kernel, StringRef name) {
  if (!name.empty())
    kernel.setFunctionAttr(FlatSymbolRefAttr::get(rewriter.getContext(), name));
  Block &body = kernel.getBody().front();
  rewriter.setInsertionPointToStart(&body);
  gpu::TerminatorOp::create(rewriter, kernel.getLoc());
  rewriter.setInsertionPointToStart(&body);
}

Operation *dlc::warpCombiner(BlockArgument acc, Value yielded) {
  Operation *combiner = yielded.getDefiningOp();
  if (!combiner || combiner->getBlock() != acc.getOwner() || combiner->getNumOperands() != 2 ||
      combiner->getNumResults() != 1 || !acc.hasOneUse() || *acc.getUsers().begin() != combiner ||
      !arith::getNeutralElement(combiner))
    return nullptr;
  return acc.getType().isF32() || acc.getType().isInteger(32) ? combiner : nullptr;
}

Value dlc::combine(OpBuilder &b, Operation *combiner, Value acc, Value accumulated, Value other) {
  IRMapping operands;
  for (Value operand : combiner->getOperands())
    operands.map(operand, operand == acc ? accumulated : other);
  return b.clone(*combiner, operands)->getResult(0);
}

Value dlc::combineLanes(OpBuilder &b, Location loc, Operation *combiner, Value acc,
                        Value partial) {
  for (int32_t offset = kGPUWarpSize / 2; offset > 0; offset /= 2) {
    auto shuffle =
        gpu::ShuffleOp::create(b, loc, partial, offset, kGPUWarpSize, gpu::ShuffleMode::XOR);
    partial = combine(b, combiner, acc, partial, shuffle.getShuffleResult());
  }
  return partial;
}

void TiledKernels::startKernel(gpu::LaunchOp kernel, StringRef suffix) {
  dlc::startKernel(rewriter, kernel, name.empty() ? "" : (name + suffix).str());
}

void TiledKernels::assign(ArrayRef<unsigned> dims, Value linear) {
  if (dims.size() == 1) {
    at[dims.front()] = linear;
  } else if (dims.size() > 1) {
    for (auto [d, v] : llvm::zip(dims, dlc::delinearize(rewriter, loc, linear, shape.counts(dims))))
      at[d] = v;
  }
}

/// The warps of a block along its columns, each computing wm of its rows
/// and bn / warpsAlongColumns of its columns.
static int64_t warpsAlongColumns(const TileShape &tile) { return kWarps / (tile.bm / tile.wm); }

// Its own products: a 16 x 16 grid of threads, outputs 16 rows and columns
// apart. Tensor cores (mma.sync m16n8k8 or m16n8k16: the same
// accumulators): warp w of 8 computes wm rows by bn / warpsAlongColumns
// columns, in tiles of 16 rows by 8 columns, row tile i's before row tile
// i + 1's; lane l holds rows l / 4 and l / 4 + 8, columns 2 (l % 4) and
// 2 (l % 4) + 1 of each (PTX's fragment layout).
SmallVector<std::pair<Value, Value>> TiledKernels::threadOutputs() {
  SmallVector<std::pair<Value, Value>> mine;
  if (tensorCores) {
    int64_t warpsN = warpsAlongColumns(tile), warpCols = tile.bn / warpsN;
    Value warp = divide(thread, dlc::kGPUWarpSize);
    lane = remainder(thread, dlc::kGPUWarpSize);
    group = divide(lane, 4);
    quad = remainder(lane, 4);
    warpRow = times(divide(warp, warpsN), tile.wm);
    warpCol = times(remainder(warp, warpsN), warpCols);
    for (int64_t i = 0; i < tile.wm / 16; ++i)
      for (int64_t j = 0; j < warpCols / 8; ++j)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t c = 0; c < 2; ++c)
            mine.push_back({add(warpRow, add(group, index(16 * i + 8 * h))),
                            add(warpCol, add(times(quad, 2), index(8 * j + c)))});
  } else {
    tx = remainder(thread, kThreadGrid);
    ty = divide(thread, kThreadGrid);
    for (int64_t i = 0; i < tile.tm; ++i)
      for (int64_t j = 0; j < tile.tn; ++j)
        mine.push_back({add(ty, index(i * kThreadGrid)), add(tx, index(j * kThreadGrid))});
  }
  return mine;
}

// Each thread stages extent * stepK / kThreads elements of an input, the
// block's consecutive threads reading consecutive elements of it. Narrow
// tiles hold pairs of consecutive reduction steps (a 32-bit word, as the
// tensor cores take them): element r is half r % 2 of pair r / 2, the
// block's consecutive threads staging consecutive pairs.
std::pair<Value, Value> TiledKernels::stagedPosition(OpOperand &input, int64_t r) {
  if (pairsAlongExtent(input)) {
    auto [kk, pair] = extentPair(input, r / 2);
    return {kk, add(times(pair, 2), index(r % 2))};
  }
  if (narrow) {
    auto [pair, at] = stagedItem(input, stepK / 2, r / 2);
    return {add(times(pair, 2), index(r % 2)), at};
  }
  return stagedItem(input, stepK, r);
}

std::pair<Value, Value> TiledKernels::stagedItem(OpOperand &input, int64_t perLine, int64_t p) {
  bool alongK = innermostDim(op, input) == shape.k;
  int64_t extent = extentOf(input);
  Value e = add(thread, index(p * kThreads));
  return {alongK ? remainder(e, perLine) : divide(e, extent),
          alongK ? divide(e, perLine) : remainder(e, extent)};
}

// Past the reduction's end (the step after the last), it loads the last
// element, which is not used.
SmallVector<Staged> TiledKernels::loadStep(OpOperand &input, Value first, Value stepStart) {
  if (loadsVectors(input))
    return loadChunks(input, first, stepStart);
  SmallVector<Staged> staged;
  for (int64_t r = 0; r < extentOf(input) * stepK / kThreads; ++r) {
    auto [kk, rr] = stagedPosition(input, r);
    assignClamped(dimsOf(input), add(first, rr));
    at[shape.k] = arith::MinUIOp::create(rewriter, loc, add(stepStart, kk), index(depth - 1));
    Staged &s = staged.emplace_back();
    s.value = dlc::elementOf(rewriter, loc, fusion, input.get(), indices(input), &s.guards);
    if (narrow) // exact: a value of the narrow type, widened; carried narrow
      s.value = arith::TruncFOp::create(rewriter, loc, narrow, s.value);
  }
  return staged;
}

// Past the reduction's end it stores zeros, which add nothing.
void TiledKernels::storeStep(OpOperand &input, Value buffer, ArrayRef<Staged> staged,
                             Value stepStart) {
  if (loadsVectors(input))
    return storeChunks(input, buffer, staged);
  bool ragged = depth % stepK != 0;
  SmallVector<Value> values;
  // (narrow: the paddings' values are the narrow type's too)
  auto typed = [&](Value v) -> Value {
    return narrow ? arith::TruncFOp::create(rewriter, loc, narrow, v) : v;
  };
  for (auto [r, s] : llvm::enumerate(staged)) {
    auto [kk, rr] = stagedPosition(input, r);
    Value v = s.value;
    for (auto [condition, otherwise] : s.guards)
      v = arith::SelectOp::create(rewriter, loc, condition, v, typed(otherwise));
    if (ragged)
      v = arith::SelectOp::create(rewriter, loc, below(add(stepStart, kk), depth), v,
                                  typed(zero));
    if (narrow) {
      values.push_back(v);
      continue;
    }
    if (tensorCores) // rounded to TF32 once, kept as f32 bits
      v = arith::BitcastOp::create(rewriter, loc, rewriter.getF32Type(), roundedToTF32(v));
    memref::StoreOp::create(rewriter, loc, v, buffer,
                            consecutiveSteps(input) ? ValueRange{rr, kk} : ValueRange{kk, rr});
  }
  // Narrow elements in pairs, the first in the low half of a word: of
  // consecutive reduction steps, or rows or columns.
  assert(values.size() % 2 == 0 && "a thread stages whole pairs");
  Type i32 = rewriter.getI32Type(), i16 = rewriter.getI16Type();
  auto bits = [&](Value half) -> Value {
    return arith::ExtUIOp::create(rewriter, loc, i32,
                                  arith::BitcastOp::create(rewriter, loc, i16, half));
  };
  for (int64_t p = 0; p < int64_t(values.size()) / 2; ++p) {
    SmallVector<Value, 2> at;
    if (pairsAlongExtent(input)) {
      auto [kk, pair] = extentPair(input, p);
      at = {kk, pair};
    } else {
      auto [pair, rr] = stagedItem(input, stepK / 2, p);
      at = wordIndices(input, rr, pair);
    }
    Value high = arith::ShLIOp::create(rewriter, loc, bits(values[2 * p + 1]),
                                       arith::ConstantIntOp::create(rewriter, loc, i32, 16));
    Value word = arith::OrIOp::create(rewriter, loc, bits(values[2 * p]), high);
    memref::StoreOp::create(rewriter, loc, word, buffer, at);
  }
}

// Each step's stepK outer products of tm x tn elements, unrolled, as fused
// multiply-adds (the op's `out + a * b`, rounded once).
void TiledKernels::multiplyOnThreads(Value lhsTile, Value rhsTile,
                                     MutableArrayRef<Value> accumulated) {
  for (int64_t kk = 0; kk < stepK; ++kk) {
    SmallVector<Value> lhsValues, rhsValues;
    for (int64_t i = 0; i < tile.tm; ++i)
      lhsValues.push_back(memref::LoadOp::create(
          rewriter, loc, lhsTile, ValueRange{index(kk), add(ty, index(i * kThreadGrid))}));
    for (int64_t j = 0; j < tile.tn; ++j)
      rhsValues.push_back(memref::LoadOp::create(
          rewriter, loc, rhsTile, ValueRange{index(kk), add(tx, index(j * kThreadGrid))}));
    for (int64_t i = 0; i < tile.tm; ++i)
      for (int64_t j = 0; j < tile.tn; ++j) {
        Value &acc = accumulated[i * tile.tn + j];
        acc = math::FmaOp::create(rewriter, loc, lhsValues[i], rhsValues[j], acc);
      }
  }
}

// On TF32, each k8 slice of the step: a warp's A fragments (16 x 8, one
// per 16 rows) and, per 8-column tile, its B fragment (8 x 8) and an
// mma.sync m16n8k8 with each A fragment. On narrow values, each k16 slice:
// the A fragments (16 x 16) and per 8-column tile the B fragment (16 x 8)
// and mma.sync m16n8k16, lane l holding pairs l % 4 and l % 4 + 4 of the
// slice's, of rows l / 4 and l / 4 + 8 of A, of column l / 4 of B.
// ldmatrix gives each lane the same words: of each 8 x 8 matrix (8 rows
// or columns of 4 words, the rows' addresses from lanes 8m to 8m + 7 for
// matrix m), lane l receives word l % 4 of row l / 4; of a tile of pairs
// along the rows or columns (8 reduction steps of 4 words),
// ldmatrix.trans gives it steps 2 (l % 4) and 2 (l % 4) + 1 of row or
// column l / 4, the same pair. So an A fragment is four matrices (rows 0-7
// and 8-15, steps 0-7 and 8-15), and two column tiles' B fragments are four
// (steps 0-7 and 8-15 of each). A TF32 value is such a word: an 8 x 8
// matrix is 8 rows or columns of 4 steps, and the k8 fragments the same
// matrices of half the steps.
void TiledKernels::multiplyOnTensorCores(Value lhsTile, Value rhsTile,
                                         MutableArrayRef<Value> accumulated) {
  MLIRContext *ctx = rewriter.getContext();
  Type f32 = rewriter.getF32Type(), i32 = rewriter.getI32Type();
  auto result = LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
  int64_t rowTiles = tile.wm / 16, colTiles = tile.bn / warpsAlongColumns(tile) / 8;
  // A fragment's word as mma.sync takes it.
  auto operand = [&](Value word) -> Value {
    return narrow && narrow.isF16()
               ? LLVM::BitcastOp::create(rewriter, loc, VectorType::get({2}, narrow), word)
               : word; // bf16 pairs and TF32 values go as 32-bit words
  };
  // A TF32 fragment's word (i32) from its tile's element or word: copied
  // in chunks (cp.async or vector loads), the input's f32 value, rounded
  // here (else rounded where it was staged).
  auto tf32Word = [&](OpOperand &input, Value word) -> Value {
    if (!sourceOf(input))
      return word.getType() == f32 ? arith::BitcastOp::create(rewriter, loc, i32, word) : word;
    if (word.getType() != f32)
      word = arith::BitcastOp::create(rewriter, loc, f32, word);
    return roundedToTF32(word);
  };
  // A fragment's element (TF32: at step k of the tile) or word (narrow: at
  // pair k) of row or column `at`.
  auto fragment = [&](Value buffer, Value k, Value at) -> Value {
    OpOperand &input = buffer == lhsTile ? lhs : rhs;
    if (!narrow) {
      Value value = memref::LoadOp::create(
          rewriter, loc, buffer, consecutiveSteps(input) ? ValueRange{at, k} : ValueRange{k, at});
      return tf32Word(input, value);
    }
    return operand(memref::LoadOp::create(rewriter, loc, buffer, wordIndices(input, at, k)));
  };
  // `count` matrices of `buffer` loaded with ldmatrix (`transposed`:
  // ldmatrix.trans), this lane giving the address of the tile's row `row`,
  // word `word`; their words in order.
  Value matrix = divide(lane, 8), matrixRow = remainder(lane, 8);
  auto matrices = [&](Value buffer, int64_t count, Value row, Value word, bool transposed) {
    Type type = count == 1 ? i32
                           : LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(count, i32));
    auto load = NVVM::LdMatrixOp::create(rewriter, loc, type,
                                         address(buffer, {row, word}, /*shared*/ 3), count,
                                         transposed ? NVVM::MMALayout::col : NVVM::MMALayout::row,
                                         NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
                                         NVVM::LdStMatrixEltType::B16);
    SmallVector<Value, 4> words;
    for (int64_t q = 0; q < count; ++q) {
      Value word = count == 1 ? load.getRes()
                              : LLVM::ExtractValueOp::create(rewriter, loc, load.getRes(), q);
      words.push_back(narrow ? operand(word) : tf32Word(buffer == lhsTile ? lhs : rhs, word));
    }
    return words;
  };
  NVVM::MMATypes type = !narrow         ? NVVM::MMATypes::tf32
                        : narrow.isF16() ? NVVM::MMATypes::f16
                                         : NVVM::MMATypes::bf16;
  int64_t sliceK = narrow ? 16 : 8, perWord = narrow ? 2 : 1;
  for (int64_t slice = 0; slice < stepK; slice += sliceK) {
    // the fragments' second index along the reduction: 4 steps on (TF32)
    // or 4 pairs (narrow)
    Value k = add(quad, index(slice / perWord)), k4 = add(quad, index(slice / perWord + 4));
    SmallVector<SmallVector<Value, 4>> a;
    for (int64_t i = 0; i < rowTiles; ++i) {
      // rows 0-7 and 8-15, reduction steps 0-7 and 8-15 (pairs 0-3 and 4-7)
      if (pairsAlongExtent(lhs)) { // the tile's rows are steps of 4 row pairs
        Value step = add(matrixRow, add(times(divide(matrix, 2), 8), index(slice)));
        Value pair = add(divide(warpRow, 2), add(times(remainder(matrix, 2), 4), index(8 * i)));
        a.push_back(matrices(lhsTile, 4, step, pair, /*transposed=*/true));
        continue;
      }
      if (loadsMatrices(lhs)) {
        Value row = add(warpRow, add(matrixRow, add(times(remainder(matrix, 2), 8),
                                                    index(16 * i))));
        a.push_back(matrices(lhsTile, 4, row,
                             add(times(divide(matrix, 2), 4), index(slice / perWord)),
                             /*transposed=*/false));
        continue;
      }
      Value row = add(warpRow, add(group, index(16 * i))), row8 = add(row, index(8));
      a.push_back({fragment(lhsTile, k, row), fragment(lhsTile, k, row8),
                   fragment(lhsTile, k4, row), fragment(lhsTile, k4, row8)});
    }
    // Each column tile's B fragment; with ldmatrix, two tiles' at a time
    // (one for the last of an odd number, lanes 16 to 31 repeating 0 to 15).
    SmallVector<SmallVector<Value, 2>> bs;
    for (int64_t j = 0; j < colTiles;) {
      if (!loadsMatrices(rhs)) {
        Value col = add(warpCol, add(group, index(8 * j)));
        bs.push_back({fragment(rhsTile, k, col), fragment(rhsTile, k4, col)});
        ++j;
        continue;
      }
      // steps 0-7 and 8-15 of column tile j, then of j + 1
      int64_t tiles = std::min<int64_t>(2, colTiles - j);
      Value second = tiles == 2 ? divide(matrix, 2) : index(0);
      SmallVector<Value, 4> words;
      if (pairsAlongExtent(rhs)) { // the tile's rows are steps of 4 column pairs
        Value step = add(matrixRow, add(times(remainder(matrix, 2), 8), index(slice)));
        Value pair = add(divide(warpCol, 2), add(times(second, 4), index(4 * j)));
        words = matrices(rhsTile, 2 * tiles, step, pair, /*transposed=*/true);
      } else {
        Value col = add(warpCol, add(matrixRow, add(times(second, 8), index(8 * j))));
        words = matrices(rhsTile, 2 * tiles, col,
                         add(times(remainder(matrix, 2), 4), index(slice / perWord)),
                         /*transposed=*/false);
      }
      for (int64_t t = 0; t < tiles; ++t)
        bs.push_back({words[2 * t], words[2 * t + 1]});
      j += tiles;
    }
    for (int64_t j = 0; j < colTiles; ++j) {
      ArrayRef<Value> b = bs[j];
      for (int64_t i = 0; i < rowTiles; ++i) {
        MutableArrayRef<Value> c = accumulated.slice(4 * (i * colTiles + j), 4);
        auto mma = NVVM::MmaOp::create(
            rewriter, loc, result, a[i], b, c, ArrayRef<int64_t>{16, 8, sliceK},
            /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
            std::array<NVVM::MMATypes, 2>{type, type},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
        for (int64_t q = 0; q < 4; ++q)
          c[q] = LLVM::ExtractValueOp::create(rewriter, loc, mma.getRes(), q);
      }
    }
  }
}

// Tiles reduction-major, padded: by a column for the threads' own products
// (the threads staging an input contiguous along the reduction store a
// column each, in different banks), by 8 for tensor cores (a warp's
// fragment loads, 4 rows by 8 columns, fall in 32 banks). Narrow tiles hold
// stepK / 2 words (pairs of reduction steps) per row or column: an input
// contiguous along the reduction row-major, rows padded by 4 (its fragment
// loads, 8 rows of 4 words, fall in 32 banks; a warp's stores, 4 rows of 8
// words or 2 of 16, in 28; its rows of 16-byte multiples, as cp.async
// writes them); another pair-major, padded by 8 like TF32's (its stores
// are consecutive words), or, with ldmatrix, of pairs of rows or columns,
// reduction-major, padded by 4 (ldmatrix.trans's rows, 8 steps of 4
// words, fall in 32 banks; 16-byte multiples). With ldmatrix, and for
// inputs copied with cp.async, TF32 tiles are row- or column-major along
// the reduction, padded by 4 the same way (a warp's fragment loads, 8 rows
// of 4 words, fall in 32 banks).
MemRefType TiledKernels::tileType(OpOperand &input) {
  auto workgroup = gpu::AddressSpaceAttr::get(rewriter.getContext(), gpu::AddressSpace::Workgroup);
  int64_t extent = extentOf(input);
  if (!narrow) {
    SmallVector<int64_t, 2> sizes = {stepK, extent + (tensorCores ? 8 : 1)};
    if (consecutiveSteps(input))
      sizes = {extent, stepK + 4};
    return MemRefType::get(sizes, rewriter.getF32Type(), MemRefLayoutAttrInterface(), workgroup);
  }
  SmallVector<int64_t, 2> sizes = {extent, stepK / 2 + 4};
  if (pairsAlongExtent(input))
    sizes = {stepK, extent / 2 + 4};
  else if (innermostDim(op, input) != shape.k)
    sizes = {stepK / 2, extent + 8};
  return MemRefType::get(sizes, rewriter.getI32Type(), MemRefLayoutAttrInterface(), workgroup);
}

Value TiledKernels::copySource(OpOperand &input) {
  // (chunks along the reduction start at multiples of copyValues(), which
  // stepK is, and the reduction is a whole number of steps: no chunk
  // crosses a row's end, and no step needs the zeros a staged one stores
  // past the reduction's end)
  if (!tensorCores || depth % stepK != 0)
    return {};
  // Along the rows or columns: the innermost of the loops they span, a
  // whole number of chunks long (so a chunk at a multiple of copyValues()
  // is consecutive in the buffer), into a tile whose rows (the reduction
  // steps) hold the rows or columns consecutively: TF32 ones, or narrow
  // pairs along them (ldmatrix.trans reads them)
  unsigned inner = innermostDim(op, input);
  if (inner != shape.k &&
      (inner != dimsOf(input).back() || shape.ranges[inner] % copyValues() != 0 ||
       (narrow ? !pairsAlongExtent(input) : loadsMatrices(input))))
    return {};
  Value source = dlc::contiguousSource(fusion, input.get(), copyValues());
  Type values = narrow ? narrow : rewriter.getF32Type();
  if (!source || cast<MemRefType>(source.getType()).getElementType() != values)
    return {};
  return source;
}

void TiledKernels::chooseCopies(int64_t most, bool vectorLoads) {
  if (most == 0 && !vectorLoads)
    return;
  // (the tiles' shapes are those of the inputs copied)
  lhsSource = copySource(lhs);
  rhsSource = copySource(rhs);
  auto bytes = [&](OpOperand &input) { return dlc::bytesOf(tileType(input)); };
  int64_t copied = (lhsSource ? bytes(lhs) : 0) + (rhsSource ? bytes(rhs) : 0);
  int64_t staged = (lhsSource ? 0 : bytes(lhs)) + (rhsSource ? 0 : bytes(rhs));
  int64_t fit = copied ? std::min(most, (dlc::kGPUMostSharedBytes - staged) / copied) : 0;
  if (fit >= dlc::kGPUFewestCopyStages)
    stages = fit;
  else if (!vectorLoads) // (one tile each, through registers: as much shared memory as before)
    lhsSource = rhsSource = Value();
}

Value TiledKernels::address(Value buffer, ValueRange indices, unsigned space) {
  // A ring's stage (stageOf): the ring's element at (stage, indices).
  if (auto stage = buffer.getDefiningOp<memref::SubViewOp>()) {
    SmallVector<Value> inRing = {
        getValueOrCreateConstantIndexOp(rewriter, loc, stage.getMixedOffsets().front())};
    llvm::append_range(inRing, indices);
    return address(stage.getSource(), inRing, space);
  }
  auto type = cast<MemRefType>(buffer.getType());
  Value offset = index(0);
  int64_t stride = type.getElementTypeBitWidth() / 8;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    offset = add(offset, times(indices[d], stride));
    stride *= type.getDimSize(d);
  }
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, buffer);
  Value bits = arith::IndexCastUIOp::create(rewriter, loc, rewriter.getI64Type(), add(base, offset));
  return LLVM::IntToPtrOp::create(rewriter, loc,
                                  LLVM::LLVMPointerType::get(rewriter.getContext(), space), bits);
}

// Lines of the tile: its rows or columns, or (chunks along them) its steps.
std::pair<Value, Value> TiledKernels::chunkPlace(OpOperand &input, Value chunk) {
  bool alongK = innermostDim(op, input) == shape.k;
  int64_t perLine = (alongK ? stepK : extentOf(input)) / copyValues();
  return {divide(chunk, perLine), times(remainder(chunk, perLine), copyValues())};
}

std::pair<Value, Value> TiledKernels::chunkSource(OpOperand &input, Value first,
                                                  Value stepStart, Value line, Value part) {
  if (innermostDim(op, input) == shape.k) {
    assignClamped(dimsOf(input), add(first, line));
    at[shape.k] = add(stepStart, part);
  } else { // (a chunk past the end reads the last, which nothing stores)
    int64_t last = shape.count(dimsOf(input)) - copyValues();
    assign(dimsOf(input), arith::MinUIOp::create(rewriter, loc, add(first, part), index(last)));
    at[shape.k] = add(stepStart, line);
  }
  Value inside;
  SmallVector<Value> from =
      dlc::sourceIndices(rewriter, loc, fusion, input.get(), indices(input), inside);
  return {address(sourceOf(input), from, /*global*/ 1), inside};
}

void TiledKernels::forEachChunk(OpOperand &input,
                                function_ref<void(int64_t, Value, Value)> emit) {
  int64_t chunks = chunksOf(input);
  for (int64_t p = 0; p * kThreads < chunks; ++p) {
    OpBuilder::InsertionGuard guard(rewriter);
    Value chunk = add(thread, index(p * kThreads));
    if ((p + 1) * kThreads > chunks)
      rewriter.setInsertionPointToStart(
          scf::IfOp::create(rewriter, loc, below(chunk, chunks), /*withElseRegion=*/false)
              .thenBlock());
    auto [line, part] = chunkPlace(input, chunk);
    emit(p, line, part);
  }
}

void TiledKernels::copyStep(OpOperand &input, Value first, Value ring, Value stage,
                            Value stepStart) {
  forEachChunk(input, [&](int64_t, Value line, Value part) {
    auto [from, inside] = chunkSource(input, first, stepStart, line, part);
    // (outside a padding's window, no byte read: zeros)
    Value bytes;
    if (inside)
      bytes = arith::SelectOp::create(
          rewriter, loc, inside,
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), kCopyBytes),
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), 0));
    NVVM::CpAsyncOp::create(rewriter, loc, chunkInTile(ring, stage, line, part), from,
                            kCopyBytes, NVVM::LoadCacheModifierKind::CG, bytes);
  });
}

// A thread's last chunk past the tile's (when the threads outnumber what is
// left) loads the tile's last again and stores nothing.
SmallVector<Staged> TiledKernels::loadChunks(OpOperand &input, Value first, Value stepStart) {
  int64_t chunks = chunksOf(input);
  // (the reduction is a whole number of steps: copySource)
  Value start = arith::MinUIOp::create(rewriter, loc, stepStart, index(depth - stepK));
  auto type = VectorType::get({kCopyBytes / 4}, rewriter.getI32Type());
  SmallVector<Staged> loaded;
  for (int64_t p = 0; p * kThreads < chunks; ++p) {
    Value chunk = add(thread, index(p * kThreads));
    if ((p + 1) * kThreads > chunks)
      chunk = arith::MinUIOp::create(rewriter, loc, chunk, index(chunks - 1));
    auto [line, part] = chunkPlace(input, chunk);
    auto [from, inside] = chunkSource(input, first, start, line, part);
    Value chunkValues = LLVM::LoadOp::create(rewriter, loc, type, from, kCopyBytes);
    if (inside) // (outside a padding's window: zeros)
      chunkValues = arith::SelectOp::create(
          rewriter, loc, inside, chunkValues,
          arith::ConstantOp::create(rewriter, loc, DenseElementsAttr::get(type, int32_t(0))));
    loaded.push_back({chunkValues, {}});
  }
  return loaded;
}

void TiledKernels::storeChunks(OpOperand &input, Value ring, ArrayRef<Staged> loaded) {
  forEachChunk(input, [&](int64_t p, Value line, Value part) {
    LLVM::StoreOp::create(rewriter, loc, loaded[p].value, chunkInTile(ring, index(0), line, part),
                          kCopyBytes);
  });
}

Value TiledKernels::stageOf(Value ring, Value stage) {
  auto ringType = cast<MemRefType>(ring.getType());
  ArrayRef<int64_t> tileShape = ringType.getShape().drop_front();
  SmallVector<OpFoldResult> offsets = {stage}, sizes = {rewriter.getIndexAttr(1)};
  for (int64_t size : tileShape) {
    offsets.push_back(rewriter.getIndexAttr(0));
    sizes.push_back(rewriter.getIndexAttr(size));
  }
  SmallVector<OpFoldResult> strides(ringType.getRank(), rewriter.getIndexAttr(1));
  MemRefType type =
      memref::SubViewOp::inferRankReducedResultType(tileShape, ringType, offsets, sizes, strides);
  return memref::SubViewOp::create(rewriter, loc, type, ring, offsets, sizes, strides);
}

dlc::TiledKernelCounts TiledKernels::build() {
  bool split = cut.splits > 1, inKernelSum = split && lastBlockSums;
  Type f32 = rewriter.getF32Type();
  // The epilogue's kernel is the product's: the views and constants it
  // uses, between the two, go before it.
  dlc::moveEpilogueOperands(rewriter, op, fusion);
  rewriter.setInsertionPoint(op);
  // A split product's partial sums: [slice, batch, row, column].
  Value partial;
  if (split)
    partial = memref::AllocOp::create(rewriter, loc,
                                      MemRefType::get({cut.splits, batch, rows, cols}, f32));
  // Summed in the kernel: each tile's count of finished slices, zero before
  // the kernel runs and after.
  int64_t tilesX = llvm::divideCeil(cols, tile.bn), tilesY = llvm::divideCeil(rows, tile.bm);
  Value counts;
  if (inKernelSum) {
    auto alloc = memref::AllocOp::create(
        rewriter, loc, MemRefType::get({batch * tilesY * tilesX}, rewriter.getI32Type()));
    alloc->setAttr(dlc::kGPUZeroedBufferAttr, rewriter.getUnitAttr());
    counts = alloc;
  }
  // The product's grid: x over column tiles, y over row tiles, z over the
  // batch and the reduction's slices. The tiles of the inputs staged
  // through registers in shared memory of the kernel's own; those of the
  // inputs copied with cp.async, `stages` each (a ring), and those ldmatrix
  // reads in dynamic shared memory (16-byte aligned; over 48 KB allowed).
  SmallVector<Type, 3> ownTiles;
  int64_t dynamicBytes = 0;
  for (OpOperand *input : {&lhs, &rhs}) {
    MemRefType type = tileType(*input);
    if (inDynamicShared(*input))
      dynamicBytes += (sourceOf(*input) ? stages : 1) * dlc::bytesOf(type);
    else
      ownTiles.push_back(type);
  }
  // Summed in the kernel: a word of shared memory telling the block's
  // threads whether it finished its tile last.
  if (inKernelSum)
    ownTiles.push_back(MemRefType::get(
        {1}, rewriter.getI32Type(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(rewriter.getContext(), gpu::AddressSpace::Workgroup)));
  Value one = index(1);
  auto kernel = gpu::LaunchOp::create(
      rewriter, loc, index(tilesX), index(tilesY), index(batch * cut.splits), index(kThreads), one,
      one,
      dynamicBytes
          ? arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), dynamicBytes)
          : Value(),
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/ValueRange{}, ownTiles);
  startKernel(kernel, "");
  // Each input's tile, or ring of tiles ([stage, row or column, word]).
  ValueRange own = kernel.getWorkgroupAttributions();
  Value dynamic;
  if (dynamicBytes)
    dynamic = gpu::DynamicSharedMemoryOp::create(
        rewriter, loc,
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(), MemRefLayoutAttrInterface(),
                        gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                                   gpu::AddressSpace::Workgroup)));
  int64_t dynamicOffset = 0;
  auto tileOf = [&](OpOperand &input) -> Value {
    MemRefType type = tileType(input);
    if (!inDynamicShared(input)) {
      Value mine = own.front();
      own = own.drop_front();
      return mine;
    }
    if (sourceOf(input)) {
      SmallVector<int64_t> sizes = {stages};
      llvm::append_range(sizes, type.getShape());
      type = MemRefType::get(sizes, type.getElementType(), MemRefLayoutAttrInterface(),
                             type.getMemorySpace());
    }
    Value tiles =
        memref::ViewOp::create(rewriter, loc, type, dynamic, index(dynamicOffset), ValueRange{});
    dynamicOffset += dlc::bytesOf(type);
    return tiles;
  };
  Value lhsTile = tileOf(lhs), rhsTile = tileOf(rhs);
  Value z = kernel.getBlockIds().z;
  Value slice = split ? divide(z, batch) : Value();
  Value batchIndex = split ? remainder(z, batch) : z;
  assign(shape.batch, batchIndex);
  thread = kernel.getThreadIds().x;
  Value firstRow = times(kernel.getBlockIds().y, tile.bm);
  Value firstCol = times(kernel.getBlockIds().x, tile.bn);
  SmallVector<std::pair<Value, Value>> mine = threadOutputs();
  for (auto &[row, col] : mine) {
    row = add(firstRow, row);
    col = add(firstCol, col);
  }

  // The accumulators start from the output's values, or from zero for a
  // slice of the reduction.
  zero = arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
  SmallVector<Value> initial;
  for (auto [row, col] : mine) {
    if (split) {
      initial.push_back(zero);
      continue;
    }
    assignClamped(shape.m, row);
    assignClamped(shape.n, col);
    initial.push_back(initialValue());
  }
  Value begin = index(0), end = index(depth);
  if (split) {
    begin = times(slice, cut.chunk);
    end = arith::MinUIOp::create(rewriter, loc, add(begin, index(cut.chunk)), end);
  }
  // The inputs copied with cp.async: the copies of the first stages - 1
  // steps in flight, a group a step (past the block's last step, an empty
  // group: a reduction of few steps copies each once).
  bool copying = copiedAsync(lhs) || copiedAsync(rhs),
       staging = !copiedAsync(lhs) || !copiedAsync(rhs);
  auto copySteps = [&](Value stage, Value stepStart) {
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Value inside =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, stepStart, end);
      rewriter.setInsertionPointToStart(
          scf::IfOp::create(rewriter, loc, inside, /*withElseRegion=*/false).thenBlock());
      if (copiedAsync(lhs))
        copyStep(lhs, firstRow, lhsTile, stage, stepStart);
      if (copiedAsync(rhs))
        copyStep(rhs, firstCol, rhsTile, stage, stepStart);
    }
    NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
  };
  for (int64_t s = 0; copying && s + 1 < stages; ++s)
    copySteps(index(s), add(begin, index(s * stepK)));
  // The loop carries the accumulators and the elements of the inputs
  // staged through registers loaded for its next step: each step stores
  // them into the tiles, loads the next step's, then multiplies while they
  // arrive.
  SmallVector<Staged> lhsFirst, rhsFirst;
  if (!copiedAsync(lhs))
    lhsFirst = loadStep(lhs, firstRow, begin);
  if (!copiedAsync(rhs))
    rhsFirst = loadStep(rhs, firstCol, begin);
  SmallVector<Value> carried(initial);
  flatten(lhsFirst, carried);
  flatten(rhsFirst, carried);
  auto steps = scf::ForOp::create(rewriter, loc, begin, end, index(stepK), carried);
  rewriter.setInsertionPointToStart(steps.getBody());
  Value step = steps.getInductionVar();
  ValueRange iterArgs = steps.getRegionIterArgs();
  SmallVector<Value> accumulated(iterArgs.take_front(initial.size()));
  ValueRange flat = iterArgs.drop_front(initial.size());
  if (!copiedAsync(lhs))
    storeStep(lhs, lhsTile, unflatten(lhsFirst, flat), step);
  if (!copiedAsync(rhs))
    storeStep(rhs, rhsTile, unflatten(rhsFirst, flat), step);
  // This thread's copies of this step done (of the stages - 2 after it
  // they may not be), then everyone's.
  if (copying)
    NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, stages - 2);
  gpu::BarrierOp::create(rewriter, loc);
  // (the tile of an input staged in chunks is its ring's one)
  Value lhsStep = loadsVectors(lhs) ? stageOf(lhsTile, index(0)) : lhsTile,
        rhsStep = loadsVectors(rhs) ? stageOf(rhsTile, index(0)) : rhsTile;
  if (copying) {
    // The copies of the step stages - 1 on go into the stage the step
    // before was multiplied from: everyone has, past the barrier.
    Value count = divide(arith::SubIOp::create(rewriter, loc, step, begin), stepK);
    copySteps(remainder(add(count, index(stages - 1)), stages),
              add(step, index((stages - 1) * stepK)));
    Value stage = remainder(count, stages);
    if (copiedAsync(lhs))
      lhsStep = stageOf(lhsTile, stage);
    if (copiedAsync(rhs))
      rhsStep = stageOf(rhsTile, stage);
  }
  Value next = add(step, index(stepK));
  SmallVector<Staged> lhsNext, rhsNext;
  if (!copiedAsync(lhs))
    lhsNext = loadStep(lhs, firstRow, next);
  if (!copiedAsync(rhs))
    rhsNext = loadStep(rhs, firstCol, next);
  if (tensorCores)
    multiplyOnTensorCores(lhsStep, rhsStep, accumulated);
  else
    multiplyOnThreads(lhsStep, rhsStep, accumulated);
  // Nobody stages the next step through registers before everyone has
  // used this one (a ring's next stage is another).
  if (staging)
    gpu::BarrierOp::create(rewriter, loc);
  flatten(lhsNext, accumulated);
  flatten(rhsNext, accumulated);
  scf::YieldOp::create(rewriter, loc, accumulated);

  rewriter.setInsertionPointAfter(steps);
  // No copy outlives the kernel's block.
  if (copying)
    NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, 0);
  for (auto [a, position] : llvm::enumerate(mine)) {
    auto [row, col] = position;
    Value inside = arith::AndIOp::create(rewriter, loc, below(row, rows), below(col, cols));
    auto guard = scf::IfOp::create(rewriter, loc, inside, /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(guard.thenBlock());
    Value result = steps.getResult(a);
    if (split) {
      memref::StoreOp::create(rewriter, loc, result, partial,
                              ValueRange{slice, batchIndex, row, col});
    } else {
      assign(shape.m, row);
      assign(shape.n, col);
      storeResult(result);
    }
    rewriter.setInsertionPointAfter(guard);
  }
  if (inKernelSum) {
    Value tileIndex = add(times(add(times(batchIndex, tilesY), kernel.getBlockIds().y), tilesX),
                          kernel.getBlockIds().x);
    sumSlicesInLastBlock(partial, counts, tileIndex, kernel.getWorkgroupAttributions().back(),
                         batchIndex, firstRow, firstCol);
  }
  rewriter.setInsertionPointAfter(kernel);
  if (split && !inKernelSum)
    sumSlices(partial);
  rewriter.eraseOp(op);
  for (Operation *fused : fusion.ops())
    rewriter.eraseOp(fused);
  return {split && !inKernelSum ? 2 : 1, copiedAsync(lhs) + copiedAsync(rhs), inKernelSum,
          loadsMatrices(lhs) + loadsMatrices(rhs), loadsVectors(lhs) + loadsVectors(rhs)};
}

// The slices' sums added to the output in order (the same result on every
// run), a thread per output, consecutive threads on consecutive columns.
void TiledKernels::sumSlices(Value partial) {
  int64_t outputs = batch * rows * cols;
  Value one = index(1);
  auto sum = gpu::LaunchOp::create(rewriter, loc, index(llvm::divideCeil(outputs, kThreads)),
                                   one, one, index(kThreads), one, one);
  startKernel(sum, "_sum");
  Value linear = add(times(sum.getBlockIds().x, kThreads), sum.getThreadIds().x);
  auto guard = scf::IfOp::create(rewriter, loc, below(linear, outputs), /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(guard.thenBlock());
  SmallVector<Value> element = dlc::delinearize(rewriter, loc, linear, {batch, rows, cols});
  sumAndStore(partial, element[0], element[1], element[2]);
}

// The order of the memory operations (the CUDA programming guide's
// threadfence reduction): each thread's stores of the slice, then a fence
// making them visible to the GPU, the block's barrier, then one thread
// counting the slice with an atomic add and a fence after it; the block
// that counts the last slice passes a barrier and a fence before it loads
// the others' sums, so it sees them all. The fences carry the ordering: the
// atomic add is relaxed as LLVM emits it. The counts are safe because the
// runtime runs a model's launches on one stream, one after another: two
// launches of one kernel at once would mix them.
void TiledKernels::sumSlicesInLastBlock(Value partial, Value counts, Value tileIndex, Value flag,
                                        Value batchIndex, Value firstRow, Value firstCol) {
  Type i32 = rewriter.getI32Type();
  auto word = [&](int64_t v) { return arith::ConstantIntOp::create(rewriter, loc, i32, v); };
  NVVM::MembarOp::create(rewriter, loc, NVVM::MemScopeKind::GPU);
  gpu::BarrierOp::create(rewriter, loc);
  Value zeroIndex = index(0);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, thread, zeroIndex);
    rewriter.setInsertionPointToStart(
        scf::IfOp::create(rewriter, loc, first, /*withElseRegion=*/false).thenBlock());
    Value before = memref::AtomicRMWOp::create(rewriter, loc, arith::AtomicRMWKind::addi, word(1),
                                               counts, tileIndex);
    NVVM::MembarOp::create(rewriter, loc, NVVM::MemScopeKind::GPU);
    Value last = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, before,
                                       word(cut.splits - 1));
    memref::StoreOp::create(rewriter, loc, arith::ExtUIOp::create(rewriter, loc, i32, last), flag,
                            zeroIndex);
    // Every slice counted: the count back to zero for the next launch.
    rewriter.setInsertionPointToStart(
        scf::IfOp::create(rewriter, loc, last, /*withElseRegion=*/false).thenBlock());
    memref::StoreOp::create(rewriter, loc, word(0), counts, tileIndex);
  }
  gpu::BarrierOp::create(rewriter, loc);
  Value mine = memref::LoadOp::create(rewriter, loc, flag, zeroIndex);
  Value last = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, mine, word(0));
  rewriter.setInsertionPointToStart(
      scf::IfOp::create(rewriter, loc, last, /*withElseRegion=*/false).thenBlock());
  NVVM::MembarOp::create(rewriter, loc, NVVM::MemScopeKind::GPU);
  // The tile's outputs, consecutive threads on consecutive columns.
  auto outputs = scf::ForOp::create(rewriter, loc, thread, index(tile.bm * tile.bn),
                                    index(kThreads));
  rewriter.setInsertionPointToStart(outputs.getBody());
  Value position = outputs.getInductionVar();
  Value row = add(firstRow, divide(position, tile.bn));
  Value col = add(firstCol, remainder(position, tile.bn));
  Value inside = arith::AndIOp::create(rewriter, loc, below(row, rows), below(col, cols));
  rewriter.setInsertionPointToStart(
      scf::IfOp::create(rewriter, loc, inside, /*withElseRegion=*/false).thenBlock());
  sumAndStore(partial, batchIndex, row, col);
}

void TiledKernels::sumAndStore(Value partial, Value batchIndex, Value row, Value col) {
  assign(shape.batch, batchIndex);
  assign(shape.m, row);
  assign(shape.n, col);
  Value total = initialValue();
  auto slices = scf::ForOp::create(rewriter, loc, index(0), index(cut.splits), index(1), total);
  rewriter.setInsertionPointToStart(slices.getBody());
  Value part = memref::LoadOp::create(
      rewriter, loc, partial, ValueRange{slices.getInductionVar(), batchIndex, row, col});
  scf::YieldOp::create(rewriter, loc,
                       arith::AddFOp::create(rewriter, loc, slices.getRegionIterArgs()[0], part)
                           .getResult());
  rewriter.setInsertionPointAfter(slices);
  storeResult(slices.getResult(0));
}

dlc::TiledKernelCounts dlc::launchTiledContraction(IRRewriter &rewriter, linalg::LinalgOp op,
                                                   StringRef name, const TileLimits &limits,
                                                   const TensorCores &cores,
                                                   const ProductFusion &fusion) {
  return TiledKernels(rewriter, op, name, limits, cores, fusion).build();
}
