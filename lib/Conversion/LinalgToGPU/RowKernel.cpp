//===- RowKernel.cpp - a chain of row-wise ops as one kernel, a warp per row ===//
#include "RowKernel.h"
#include "KernelCalls.h"
#include "ProductFusion.h"
#include "TiledContraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using dlc::kGPUWarpSize;

/// The most warps (rows) a row kernel's block holds; fewer where the rows
/// are few, so that they spread over the GPU's multiprocessors.
static constexpr int64_t kMostRowWarps = 8;
/// The rows per warp of a block below which the block holds fewer warps.
static constexpr int64_t kRowsPerBlockWarp = 128;

namespace {
/// A buffer an op reads or writes, and the indexing map it does so by.
struct Access {
  Value buffer;
  AffineMap map;
  bool write;
};

/// An op as the analysis sees it: its loops' trip counts, whether the last
/// one reduces, the buffers it accesses.
struct Loops {
  SmallVector<int64_t> ranges;
  bool reduces = false;
  SmallVector<Access> accesses;
  /// The buffers its body reads (a gather's table).
  SmallVector<Value> loaded;
};
} // namespace

/// The op by which `op` (a reduction with one output) combines its
/// output's element with each iteration's (dlc::warpCombiner), if a warp
/// can.
static Operation *combinerOf(linalg::LinalgOp op) {
  return dlc::warpCombiner(op.getMatchingBlockArgument(op.getDpsInitOperand(0)),
                           op.getBlock()->getTerminator()->getOperand(0));
}

/// The buffers `op` (an op of a linalg op's body, of no regions) reads,
/// appended to `read`, unless it writes or allocates memory or its
/// effects are unknown.
static LogicalResult readsOnly(Operation &op, SmallVectorImpl<Value> &read) {
  if (isPure(&op))
    return success();
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return failure();
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &instance : instances) {
    if (!isa<MemoryEffects::Read>(instance.getEffect()) || !instance.getValue())
      return failure();
    read.push_back(instance.getValue());
  }
  return success();
}

/// `op`'s loops and accesses, if it is an op a row kernel runs: a copy or
/// a linalg op on buffers of one or more static loops, all parallel but
/// the last, which may reduce (combinerOf) over at least a warp's
/// elements, whose body has no regions and writes no memory.
static std::optional<Loops> loopsOf(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    auto type = cast<MemRefType>(copy.getSource().getType());
    if (!type.hasStaticShape() || type.getRank() == 0)
      return std::nullopt;
    AffineMap identity = AffineMap::getMultiDimIdentityMap(type.getRank(), op->getContext());
    return Loops{llvm::to_vector(type.getShape()),
                 false,
                 {{copy.getSource(), identity, false}, {copy.getTarget(), identity, true}},
                 {}};
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics())
    return std::nullopt;
  Loops loops;
  loops.ranges = linalgOp.getStaticLoopRanges();
  if (loops.ranges.empty() || llvm::is_contained(loops.ranges, ShapedType::kDynamic))
    return std::nullopt;
  for (Operation &inner : linalgOp.getBlock()->without_terminator())
    if (inner.getNumRegions() || failed(readsOnly(inner, loops.loaded)))
      return std::nullopt;
  unsigned reductions = linalgOp.getNumReductionLoops();
  loops.reduces = reductions > 0;
  if (reductions > 1 ||
      (reductions == 1 &&
       (linalgOp.getIteratorTypesArray().back() != utils::IteratorType::reduction ||
        linalgOp.getNumDpsInits() != 1 || !combinerOf(linalgOp) ||
        loops.ranges.back() < kGPUWarpSize)))
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands())
    if (isa<MemRefType>(operand.get().getType()))
      loops.accesses.push_back({operand.get(), linalgOp.getMatchingIndexingMap(&operand),
                                linalgOp.isDpsInit(&operand)});
  return loops;
}

/// The product of the first `n` of `ranges`.
static int64_t productOf(ArrayRef<int64_t> ranges, size_t n) {
  int64_t product = 1;
  for (int64_t r : ranges.take_front(n))
    product *= r;
  return product;
}

/// How many of the loops of `loops` run over `rows` rows: all but the last
/// (which runs along a row), or all (the op computes an element per row).
static std::optional<unsigned> leadingLoops(const Loops &loops, int64_t rows) {
  size_t n = loops.ranges.size();
  if (n > 0 && productOf(loops.ranges, n - 1) == rows)
    return n - 1;
  if (!loops.reduces && productOf(loops.ranges, n) == rows)
    return n;
  return std::nullopt;
}

/// Whether `access`, by an op of `loops` whose first `leading` loops run
/// over `rows` rows, reaches its row's elements only, where every other
/// such access to the buffer does: a reshape of a buffer of the identity
/// layout whose elements make rows of `width`, at the linear position
/// row * width + the loop along the row (if it is as long as a row), or +
/// 0 (the row's first element; not written by several lanes at once).
static bool byRow(const Access &access, const Loops &loops, unsigned leading, int64_t rows) {
  auto type = cast<MemRefType>(access.buffer.getType());
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !dlc::isReshapeOfRoot(access.buffer) || type.getNumElements() % rows)
    return false;
  int64_t width = type.getNumElements() / rows;
  // The linear position's coefficient of each loop (the strides of the
  // indices each is).
  SmallVector<int64_t> coefficients(loops.ranges.size(), 0);
  int64_t stride = 1, offset = 0;
  for (auto [size, e] : llvm::reverse(llvm::zip(type.getShape(), access.map.getResults()))) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      coefficients[dim.getPosition()] += stride;
    else if (auto constant = dyn_cast<AffineConstantExpr>(e))
      offset += constant.getValue() * stride;
    else
      return false;
    stride *= size;
  }
  int64_t expected = width;
  for (int64_t i = int64_t(leading) - 1; i >= 0; --i) {
    if (loops.ranges[i] != 1 && coefficients[i] != expected)
      return false;
    expected *= loops.ranges[i];
  }
  if (offset != 0 || leading == loops.ranges.size() || loops.ranges[leading] == 1)
    return offset == 0;
  int64_t along = coefficients[leading];
  if (along == 0) // a reduction writes its row's element once
    return !access.write || loops.reduces;
  return along == 1 && width == loops.ranges[leading] && !(access.write && loops.reduces);
}

std::optional<dlc::RowKernel> dlc::findRowKernel(func::FuncOp func) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return std::nullopt;
  RowKernel kernel;
  SmallVector<Loops> loops;
  for (Operation &op : func.getBody().front()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op); alloc && alloc->getNumOperands())
      return std::nullopt;
    if (isa<memref::AllocOp, memref::DeallocOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
            memref::GetGlobalOp, arith::ConstantOp, func::ReturnOp>(op))
      continue;
    std::optional<Loops> opLoops = loopsOf(&op);
    if (!opLoops)
      return std::nullopt;
    if (opLoops->reduces) {
      int64_t rows = productOf(opLoops->ranges, opLoops->ranges.size() - 1);
      if (kernel.rows && kernel.rows != rows)
        return std::nullopt;
      kernel.rows = rows;
    }
    kernel.ops.push_back({&op, 0});
    loops.push_back(std::move(*opLoops));
  }
  if (kernel.ops.empty() || !kernel.rows)
    return kernel.ops.empty() ? std::nullopt : std::optional(kernel);
  for (auto [rowOp, opLoops] : llvm::zip(kernel.ops, loops)) {
    std::optional<unsigned> leading = leadingLoops(opLoops, kernel.rows);
    if (!leading)
      return std::nullopt;
    rowOp.leading = *leading;
  }
  // The buffers written, and the arguments that may be one of them (a
  // caller may pass a buffer, or a reshape of it, for two arguments: of
  // one element type and number).
  llvm::SmallPtrSet<Value, 8> written;
  for (const Loops &opLoops : loops)
    for (const Access &access : opLoops.accesses) {
      Value root = rootOf(access.buffer);
      if (access.write && !root.getDefiningOp<memref::AllocOp>() && !isa<BlockArgument>(root))
        return std::nullopt;
      if (access.write)
        written.insert(root);
    }
  auto sameElements = [](Value a, Value b) {
    auto x = cast<MemRefType>(a.getType()), y = cast<MemRefType>(b.getType());
    return x.getElementType() == y.getElementType() &&
           x.getNumElements() == y.getNumElements();
  };
  bool distinct = func->hasAttr(kDistinctArguments);
  for (BlockArgument arg : func.getArguments())
    if (!distinct && isa<MemRefType>(arg.getType()) &&
        cast<MemRefType>(arg.getType()).hasStaticShape() &&
        llvm::any_of(written, [&](Value w) {
          return isa<BlockArgument>(w) && w != arg && sameElements(w, arg);
        }))
      written.insert(arg);
  // Those read or written by row (a reduction's inputs too: a matrix
  // product's are not), none read by a body, and an op reading a buffer
  // it writes only where it writes it (a lane must not overwrite what
  // another lane of the same op still reads).
  for (auto [rowOp, opLoops] : llvm::zip(kernel.ops, loops)) {
    for (const Access &access : opLoops.accesses) {
      Value root = rootOf(access.buffer);
      if ((written.contains(root) || opLoops.reduces) &&
          !byRow(access, opLoops, rowOp.leading, kernel.rows))
        return std::nullopt;
      if (llvm::any_of(opLoops.accesses, [&](const Access &other) {
            return other.write && rootOf(other.buffer) == root && other.map != access.map;
          }))
        return std::nullopt;
    }
    if (llvm::any_of(opLoops.loaded, [&](Value v) { return written.contains(rootOf(v)); }))
      return std::nullopt;
  }
  return kernel;
}

/// Emits the part of `op` (a linalg op of a row kernel, its first
/// `leading` loops at `loops`) that the warp's lane `lane` computes,
/// which `index` makes constants for.
static void emitRowOp(IRRewriter &rewriter, linalg::LinalgOp op, SmallVector<Value> loops,
                      Value lane, function_ref<Value(int64_t)> index) {
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  OpBuilder::InsertionGuard guard(rewriter);
  // An element per row: the first lane computes it.
  if (loops.size() == ranges.size()) {
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, lane, index(0));
    auto once = scf::IfOp::create(rewriter, loc, first, /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(once.thenBlock());
    dlc::storeIteration(rewriter, op, loops, dlc::emitIteration(rewriter, op, loops));
    return;
  }
  // Lane l takes the row's elements l, l + 32, ... (consecutive lanes on
  // consecutive elements).
  Value neutral;
  Operation *combiner = nullptr;
  OpOperand *out = op.getDpsInitOperand(0);
  if (op.getNumReductionLoops()) {
    combiner = combinerOf(op);
    neutral = arith::ConstantOp::create(rewriter, loc, *arith::getNeutralElement(combiner));
  }
  auto strided = scf::ForOp::create(rewriter, loc, lane, index(ranges.back()),
                                    index(kGPUWarpSize),
                                    neutral ? ValueRange{neutral} : ValueRange{});
  rewriter.setInsertionPointToStart(strided.getBody());
  loops.push_back(strided.getInductionVar());
  if (!combiner) {
    dlc::storeIteration(rewriter, op, loops, dlc::emitIteration(rewriter, op, loops));
    return;
  }
  // A reduction: each lane's partial result from the neutral element, a
  // butterfly of shuffles giving every lane the row's, combined with the
  // output's initial value; the first lane stores it.
  Value partial = dlc::emitIteration(rewriter, op, loops,
                                     {{out, strided.getRegionIterArgs()[0]}})[0];
  scf::YieldOp::create(rewriter, loc, partial);
  rewriter.setInsertionPointAfter(strided);
  loops.back() = index(0); // (the output does not depend on it)
  BlockArgument acc = op.getMatchingBlockArgument(out);
  Value total = dlc::combineLanes(rewriter, loc, combiner, acc, strided.getResult(0));
  SmallVector<Value> at = dlc::applyMap(rewriter, loc, op.getMatchingIndexingMap(out), loops);
  Value initial = memref::LoadOp::create(rewriter, loc, out->get(), at);
  Value result = dlc::combine(rewriter, combiner, acc, initial, total);
  Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, lane, index(0));
  auto once = scf::IfOp::create(rewriter, loc, first, /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(once.thenBlock());
  memref::StoreOp::create(rewriter, loc, result, out->get(), at);
}

// Warp w runs row w: each op in turn, its row's loop indices the warp's
// index split over the op's leading loops, the warp synchronized after each
// op (bar.warp.sync orders the lanes' memory accesses too).
void dlc::launchRowKernel(IRRewriter &rewriter, const RowKernel &kernel, StringRef name) {
  OpBuilder::InsertionGuard insertion(rewriter);
  Operation *first = kernel.ops.front().op, *last = kernel.ops.back().op;
  Location loc = first->getLoc();
  // Deallocations among the ops wait for the kernel.
  SmallVector<Operation *> deallocs;
  for (Operation *op = first; op != last; op = op->getNextNode())
    if (isa<memref::DeallocOp>(op))
      deallocs.push_back(op);
  for (Operation *dealloc : llvm::reverse(deallocs))
    dealloc->moveAfter(last);
  rewriter.setInsertionPoint(last);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  int64_t warps = std::clamp<int64_t>(
      llvm::bit_floor(uint64_t(kernel.rows / kRowsPerBlockWarp)), 1, kMostRowWarps);
  Value one = index(1);
  auto launch = gpu::LaunchOp::create(rewriter, loc, index(llvm::divideCeil(kernel.rows, warps)),
                                      one, one, index(warps * kGPUWarpSize), one, one);
  dlc::startKernel(rewriter, launch, name);
  Value thread = launch.getThreadIds().x;
  Value row = arith::AddIOp::create(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x, index(warps)),
      arith::DivUIOp::create(rewriter, loc, thread, index(kGPUWarpSize)));
  Value lane = arith::RemUIOp::create(rewriter, loc, thread, index(kGPUWarpSize));
  Value inRange =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, row, index(kernel.rows));
  auto guard = scf::IfOp::create(rewriter, loc, inRange, /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(guard.thenBlock());
  Value allLanes = arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), -1);
  for (auto [i, rowOp] : llvm::enumerate(kernel.ops)) {
    auto op = cast<linalg::LinalgOp>(rowOp.op);
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    emitRowOp(rewriter, op,
              dlc::delinearize(rewriter, loc, row, ArrayRef(ranges).take_front(rowOp.leading)),
              lane, index);
    if (i + 1 < kernel.ops.size())
      NVVM::SyncWarpOp::create(rewriter, loc, allLanes);
  }
  for (const RowOp &rowOp : llvm::reverse(kernel.ops))
    rewriter.eraseOp(rowOp.op);
}
