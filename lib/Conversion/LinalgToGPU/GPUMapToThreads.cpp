//===- GPUMapToThreads.cpp - loop nests as one-thread-per-iteration kernels ===//
#include "KernelCalls.h"
#include "RowKernel.h"
#include "TiledContraction.h"
#include "WindowKernel.h"
#include "dlc/Conversion/GPUPipeline.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_GPUMAPTOTHREADSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

using dlc::kGPUBlockThreads, dlc::kGPUWarpSize;
/// Reductions of at most this many outputs get a warp each: fewer than the
/// GPU has threads for one each. So do larger ones whose inputs are only
/// contiguous along the reduction (readsAlongLoopOnly).
static constexpr int64_t kMaxWarpReductions = 16384;

/// The constant trip count of each dimension of `parallel`, if all have one.
static std::optional<SmallVector<int64_t>> tripCounts(scf::ParallelOp parallel) {
  SmallVector<int64_t> counts;
  for (auto [lb, ub, step] : llvm::zip(parallel.getLowerBound(), parallel.getUpperBound(),
                                       parallel.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb), u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return std::nullopt;
    counts.push_back(std::max<int64_t>(0, llvm::divideCeil(*u - *l, *s)));
  }
  return counts;
}

/// Keeps in a register what `loop` accumulates in memory: a load and a
/// store of one element at loop-invariant indices, the loop's only write and
/// its only accesses to that buffer (after bufferization a reduction's
/// output buffer is not one of its inputs), become an iteration argument
/// loaded before the loop and stored after it. Without this, every
/// iteration of a product or a reduction stores to global memory.
static void promoteAccumulator(IRRewriter &rewriter, scf::ForOp loop) {
  memref::StoreOp store;
  SmallVector<memref::LoadOp> loads;
  bool unknown = false;
  loop.getBody()->walk([&](Operation *op) {
    if (auto s = dyn_cast<memref::StoreOp>(op)) {
      unknown |= store || s->getBlock() != loop.getBody();
      store = s;
    } else if (auto l = dyn_cast<memref::LoadOp>(op)) {
      loads.push_back(l);
    } else if (!isPure(op) && !isa<scf::ForOp, scf::IfOp>(op) &&
               !op->hasTrait<OpTrait::IsTerminator>()) {
      unknown = true;
    }
  });
  if (unknown || !store || !loop.isDefinedOutsideOfLoop(store.getMemRef()) ||
      !llvm::all_of(store.getIndices(), [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
    return;
  memref::LoadOp accumulator;
  for (memref::LoadOp load : loads) {
    // A view made in the loop may alias the accumulator's buffer.
    if (!loop.isDefinedOutsideOfLoop(load.getMemRef()))
      return;
    if (load.getMemRef() != store.getMemRef())
      continue;
    if (accumulator || load->getBlock() != loop.getBody() ||
        load.getIndices() != store.getIndices() || !load->isBeforeInBlock(store))
      return;
    accumulator = load;
  }
  rewriter.setInsertionPoint(loop);
  Value init = memref::LoadOp::create(rewriter, loop.getLoc(), store.getMemRef(),
                                      store.getIndices());
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
        return SmallVector<Value>{store.getValueToStore()};
      });
  if (failed(replaced))
    return;
  auto promoted = cast<scf::ForOp>(replaced->getOperation());
  if (accumulator)
    rewriter.replaceOp(accumulator, promoted.getRegionIterArgs().back());
  rewriter.setInsertionPointAfter(promoted);
  memref::StoreOp::create(rewriter, store.getLoc(), promoted.getResults().back(),
                          store.getMemRef(), store.getIndices());
  rewriter.eraseOp(store);
}

/// A reduction a warp computes: the one loop of a parallel loop's body, its
/// one iteration argument combined with each iteration's contribution by
/// `combiner` (dlc::warpCombiner).
struct WarpReduction {
  scf::ForOp loop;
  Operation *combiner;
};

/// Whether the loads of `loop` that index along it read consecutive
/// elements along it (its induction variable the last index: a dense
/// layer's x[m, k] and W[n, k]) and none along `parallel`'s last dimension.
/// A thread per output would read such inputs a row apart across a warp;
/// a warp per output reads them in order.
static bool readsAlongLoopOnly(scf::ParallelOp parallel, scf::ForOp loop) {
  Value k = loop.getInductionVar(), n = parallel.getInductionVars().back();
  bool alongLoop = false;
  for (auto load : loop.getBody()->getOps<memref::LoadOp>()) {
    ValueRange indices = load.getIndices();
    if (indices.empty())
      continue;
    if (indices.back() == n)
      return false;
    if (llvm::is_contained(indices, k)) {
      if (indices.back() != k)
        return false;
      alongLoop = true;
    }
  }
  return alongLoop;
}

/// The warp reduction of `parallel`'s `total` iterations, if it is one: few
/// outputs (at most `maxOutputs`) or inputs read along the reduction only,
/// a loop of at least a warp's iterations around a 32-bit combination, only
/// pure ops and loads before the loop and only pure ops, loads and stores
/// after it (a fused epilogue's, which the warp's first lane runs).
static std::optional<WarpReduction>
matchWarpReduction(scf::ParallelOp parallel, int64_t total,
                   int64_t maxOutputs = kMaxWarpReductions) {
  Block *body = parallel.getBody();
  SmallVector<scf::ForOp> loops(body->getOps<scf::ForOp>());
  if (loops.size() != 1 || loops.front().getNumRegionIterArgs() != 1)
    return std::nullopt;
  scf::ForOp loop = loops.front();
  if (total > maxOutputs && !readsAlongLoopOnly(parallel, loop))
    return std::nullopt;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                         ub = getConstantIntValue(loop.getUpperBound()),
                         step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0 || llvm::divideCeil(*ub - *lb, *step) < kGPUWarpSize)
    return std::nullopt;
  Operation *combiner = dlc::warpCombiner(loop.getRegionIterArgs()[0], loop.getYieldedValues()[0]);
  if (!combiner)
    return std::nullopt;
  bool after = false;
  for (Operation &op : body->without_terminator()) {
    if (&op == loop.getOperation()) {
      after = true;
      continue;
    }
    bool allowed = isPure(&op) || isa<memref::LoadOp>(op) || (after && isa<memref::StoreOp>(op));
    if (op.getNumRegions() || !allowed)
      return std::nullopt;
  }
  return WarpReduction{loop, combiner};
}

/// Puts the reduction dimensions of `op` innermost, the parallel ones first
/// in their order, if they are not: its loops are then a parallel nest
/// around the reductions, a thread or a warp per output, rather than a
/// reduction around parallel loops running on one thread (a softmax over
/// channels). Each output's reduction keeps its order. Returns whether it
/// reordered them.
static bool moveReductionsInnermost(IRRewriter &rewriter, linalg::LinalgOp &op) {
  SmallVector<unsigned> order;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto kind : {utils::IteratorType::parallel, utils::IteratorType::reduction})
    for (auto [i, t] : llvm::enumerate(iterators))
      if (t == kind)
        order.push_back(i);
  if (llvm::equal(order, llvm::seq<unsigned>(0, order.size())))
    return false;
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> generalized = linalg::generalizeNamedOp(rewriter, op);
    if (failed(generalized))
      return false;
    generic = *generalized;
    op = generic;
  }
  FailureOr<linalg::GenericOp> interchanged =
      linalg::interchangeGenericOp(rewriter, generic, order);
  if (failed(interchanged))
    return false;
  op = *interchanged;
  return true;
}

/// Whether `op` is a reduction whose kernel may compute the ops around it
/// (lowerFusedReduction): one output, indexed by its parallel loops and
/// constants, and loops of static trip counts.
static bool isFusableReduction(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 ||
      llvm::is_contained(op.getStaticLoopRanges(), ShapedType::kDynamic))
    return false;
  ArrayRef<AffineExpr> output = op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults();
  return llvm::all_of(output, [&](AffineExpr e) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    return isa<AffineConstantExpr>(e) ||
           (dim && op.getIteratorTypesArray()[dim.getPosition()] == utils::IteratorType::parallel);
  });
}

/// Replaces the reduction `op` (isFusableReduction, its reductions
/// innermost) and the ops of `fusion` with one loop nest: a parallel loop
/// over its outputs, in each the output's initial value (computed by the
/// op `fusion` fused writing it, else loaded), a loop per reduction
/// dimension around its body (its inputs read through the producers
/// `fusion` fused), and the result stored or handed to the epilogue.
static void lowerFusedReduction(IRRewriter &rewriter, linalg::LinalgOp op,
                                const dlc::ProductFusion &fusion) {
  Location loc = op.getLoc();
  dlc::moveEpilogueOperands(rewriter, op, fusion);
  rewriter.setInsertionPoint(op);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned parallelLoops = op.getNumParallelLoops();
  SmallVector<Value> zeros, counts, ones;
  for (int64_t count : ArrayRef(ranges).take_front(parallelLoops)) {
    zeros.push_back(index(0));
    counts.push_back(index(count));
    ones.push_back(index(1));
  }
  auto parallel = scf::ParallelOp::create(rewriter, loc, zeros, counts, ones);
  rewriter.setInsertionPointToStart(parallel.getBody());
  SmallVector<Value> loops(parallel.getInductionVars());
  OpOperand &out = *op.getDpsInitOperand(0);
  SmallVector<Value> at = dlc::applyMap(rewriter, loc, op.getMatchingIndexingMap(&out), loops);
  auto load = [&](OpBuilder &b, Value buffer, ValueRange indices) {
    return dlc::elementOf(b, loc, fusion, buffer, indices);
  };
  std::function<Value(Value)> reduce = [&](Value accumulated) -> Value {
    if (loops.size() == ranges.size())
      return dlc::emitIteration(rewriter, op, loops, {{&out, accumulated}}, load)[0];
    auto loop = scf::ForOp::create(rewriter, loc, index(0), index(ranges[loops.size()]),
                                   index(1), accumulated);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    loops.push_back(loop.getInductionVar());
    scf::YieldOp::create(rewriter, loc, reduce(loop.getRegionIterArgs()[0]));
    loops.pop_back();
    return loop.getResult(0);
  };
  Value result = reduce(dlc::initialValue(rewriter, op, fusion, at));
  dlc::storeResult(rewriter, op, fusion, at, result);
  rewriter.eraseOp(op);
  for (Operation *fused : fusion.ops())
    rewriter.eraseOp(fused);
}

/// The first name in `loc` (the model's layer or node: "layer1.0.conv1"),
/// as a C identifier, or "".
static std::string layerName(Location loc) {
  std::string name;
  loc->walk([&](Location l) {
    if (auto named = dyn_cast<NameLoc>(l)) {
      name = named.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  for (char &c : name)
    if (!llvm::isAlnum(c))
      c = '_';
  return name;
}

/// The body of `parallel` (of `counts` iterations) for its iteration
/// `linear`, at the insertion point: cloned, or, where `warp` says how it
/// reduces, run by the lanes of a warp (the lane of `thread` running).
static void emitIteration(IRRewriter &rewriter, scf::ParallelOp parallel, ArrayRef<int64_t> counts,
                          Value linear, Value thread, std::optional<WarpReduction> warp) {
  Location loc = parallel.getLoc();
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
  SmallVector<Value> ivs = dlc::delinearize(rewriter, loc, linear, counts);
  IRMapping map;
  for (auto [i, iv] : llvm::enumerate(parallel.getInductionVars())) {
    // lb + index * step, constants (tripCounts) built in the kernel
    Value scaled = arith::MulIOp::create(rewriter, loc, ivs[i],
                                         index(*getConstantIntValue(parallel.getStep()[i])));
    map.map(iv, arith::AddIOp::create(rewriter, loc,
                                      index(*getConstantIntValue(parallel.getLowerBound()[i])),
                                      scaled));
  }
  if (!warp) {
    for (Operation &op : parallel.getBody()->without_terminator())
      rewriter.clone(op, map);
    return;
  }
  // The lanes of a warp share the loop, lane l taking iterations l, l + 32,
  // ... (consecutive elements: coalesced loads) from the neutral element;
  // a butterfly of shuffles combines their partial results, which lane 0
  // combines with the accumulator's initial value and stores.
  scf::ForOp loop = warp->loop;
  Value lane = arith::RemUIOp::create(rewriter, loc, thread, index(kGPUWarpSize));
  Operation *op = &parallel.getBody()->front();
  for (; op != loop.getOperation(); op = op->getNextNode())
    rewriter.clone(*op, map);
  int64_t step = *getConstantIntValue(loop.getStep());
  Value start = arith::AddIOp::create(rewriter, loc, map.lookupOrDefault(loop.getLowerBound()),
                                      arith::MulIOp::create(rewriter, loc, lane, index(step)));
  Value neutral = arith::ConstantOp::create(rewriter, loc, *arith::getNeutralElement(warp->combiner));
  auto strided = scf::ForOp::create(rewriter, loc, start, map.lookupOrDefault(loop.getUpperBound()),
                                    index(step * kGPUWarpSize), ValueRange{neutral});
  rewriter.setInsertionPointToStart(strided.getBody());
  map.map(loop.getInductionVar(), strided.getInductionVar());
  map.map(loop.getRegionIterArgs()[0], strided.getRegionIterArgs()[0]);
  for (Operation &inner : loop.getBody()->without_terminator())
    rewriter.clone(inner, map);
  scf::YieldOp::create(rewriter, loc, map.lookupOrDefault(loop.getYieldedValues()[0]));
  rewriter.setInsertionPointAfter(strided);
  BlockArgument acc = loop.getRegionIterArgs()[0];
  Value warpTotal = dlc::combineLanes(rewriter, loc, warp->combiner, acc, strided.getResult(0));
  map.map(loop.getResult(0), dlc::combine(rewriter, warp->combiner, acc,
                                          map.lookupOrDefault(loop.getInitArgs()[0]), warpTotal));
  Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, lane, index(0));
  auto store = scf::IfOp::create(rewriter, loc, first, /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(store.thenBlock());
  for (op = loop->getNextNode(); op != parallel.getBody()->getTerminator(); op = op->getNextNode())
    rewriter.clone(*op, map);
}

/// Replaces `nest` with a gpu.launch: of one thread per iteration of
/// `parallel` (the nest itself, of `counts` iterations) if given, a warp per
/// iteration if `warp` says how it reduces, else of one thread running the
/// nest.
static void launch(IRRewriter &rewriter, Operation *nest, ArrayRef<int64_t> counts,
                   scf::ParallelOp parallel, std::optional<WarpReduction> warp = std::nullopt) {
  Location loc = nest->getLoc();
  int64_t total = 1;
  for (int64_t c : counts)
    total *= c;
  int64_t lanes = warp ? kGPUWarpSize : 1;
  int64_t threads = std::clamp<int64_t>(total * lanes, 1, kGPUBlockThreads);
  int64_t blocks = std::max<int64_t>(1, llvm::divideCeil(total * lanes, threads));
  rewriter.setInsertionPoint(nest);
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
  Value one = index(1);
  auto kernel = gpu::LaunchOp::create(rewriter, loc, index(blocks), one, one, index(threads), one,
                                      one);
  // The kernel named after the layer it computes.
  std::string layer = layerName(loc);
  dlc::startKernel(rewriter, kernel, layer.empty() ? "" : "k_" + layer);
  Block &body = kernel.getBody().front();
  if (!parallel) { // one thread runs the nest
    rewriter.moveOpBefore(nest, body.getTerminator());
    return;
  }
  Value thread = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, kernel.getBlockIds().x, index(threads)),
      kernel.getThreadIds().x);
  Value linear = warp ? arith::DivUIOp::create(rewriter, loc, thread, index(kGPUWarpSize)) : thread;
  Value inRange = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, linear,
                                        index(total));
  auto guard = scf::IfOp::create(rewriter, loc, inRange, /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(guard.thenBlock());
  emitIteration(rewriter, parallel, counts, linear, thread, warp);
  rewriter.eraseOp(parallel);
}

/// Threads of a block kernel (launchBlockKernel).
static constexpr int64_t kBlockKernelThreads = 128;

/// `type` in the GPU's shared memory.
static MemRefType inSharedMemory(MemRefType type) {
  return MemRefType::Builder(type).setMemorySpace(
      gpu::AddressSpaceAttr::get(type.getContext(), gpu::AddressSpace::Workgroup));
}

/// Whether a block kernel can run `op`, an op of its loop's body: views it
/// puts in shared memory with their buffers, linalg ops, scalars.
static bool inBlockKernel(Operation &op) {
  if (auto alloc = dyn_cast<memref::AllocOp>(op))
    return alloc.getType().hasStaticShape() && !alloc.getType().getMemorySpace();
  return isa<linalg::LinalgOp, memref::SubViewOp, memref::ExpandShapeOp,
             memref::CollapseShapeOp, scf::InParallelOp>(op) ||
         (isPure(&op) && !op.getNumRegions() &&
          llvm::none_of(op.getResultTypes(), llvm::IsaPred<BaseMemRefType>));
}

/// Moves `op` into a branch that only the block's thread 0 (`thread`) runs.
static void onFirstThread(IRRewriter &rewriter, Operation *op, Value thread) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, thread,
                                      arith::ConstantIndexOp::create(rewriter, loc, 0));
  auto guard = scf::IfOp::create(rewriter, loc, first, /*withElseRegion=*/false);
  rewriter.moveOpBefore(op, guard.thenBlock()->getTerminator());
}

/// Runs `nest`, the loops of a linalg op in a block kernel of `threads`
/// threads numbered `thread`, on the block's threads: a thread per output,
/// or a warp per output of a reduction of fewer outputs than the block has
/// threads, each taking outputs a block's width apart; loops without
/// parallel ones on the first thread.
static void distributeOverBlock(IRRewriter &rewriter, Operation *nest, Value thread,
                                int64_t threads) {
  Location loc = nest->getLoc();
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
  // Accumulators in registers, innermost loops first, before matching a
  // warp's reduction (of one iteration argument); a nest of reductions only
  // keeps its own loop (promoting it would replace the nest).
  SmallVector<scf::ForOp> loops;
  nest->walk([&](scf::ForOp loop) {
    if (loop != nest)
      loops.push_back(loop);
  });
  for (scf::ForOp loop : loops)
    promoteAccumulator(rewriter, loop);
  auto parallel = dyn_cast<scf::ParallelOp>(nest);
  std::optional<SmallVector<int64_t>> counts;
  if (parallel)
    counts = tripCounts(parallel);
  if (!counts) { // no parallel loops: the first thread runs them
    onFirstThread(rewriter, nest, thread);
    return;
  }
  rewriter.setInsertionPoint(nest);
  int64_t total = 1;
  for (int64_t c : *counts)
    total *= c;
  std::optional<WarpReduction> warp = matchWarpReduction(parallel, total, threads - 1);
  int64_t workers = warp ? threads / kGPUWarpSize : threads;
  Value worker = warp ? arith::DivUIOp::create(rewriter, loc, thread, index(kGPUWarpSize)) : thread;
  auto outputs = scf::ForOp::create(rewriter, loc, worker, index(total), index(workers));
  rewriter.setInsertionPointToStart(outputs.getBody());
  emitIteration(rewriter, parallel, *counts, outputs.getInductionVar(), thread, warp);
  rewriter.eraseOp(parallel);
}

/// The bytes of `type`'s buffer in shared memory, rounded up to 16 (each
/// buffer aligned for vector accesses).
static int64_t sharedBytes(MemRefType type) { return llvm::alignTo(dlc::bytesOf(type), 16); }

/// The shared memory the buffers `loop`'s body allocates take.
static int64_t blockBuffersBytes(scf::ForallOp loop) {
  int64_t bytes = 0;
  for (memref::AllocOp alloc : loop.getBody()->getOps<memref::AllocOp>())
    bytes += sharedBytes(alloc.getType());
  return bytes;
}

/// Whether `loop` (dlc-tile-attention's loop over heads and blocks of
/// query rows, bufferized) can run as a block kernel: static bounds, at
/// most three dimensions, a body of views, static buffers that fit in
/// kGPUMostSharedBytes, linalg ops and scalar arithmetic.
static bool canLaunchBlockKernel(scf::ForallOp loop) {
  std::optional<SmallVector<int64_t>> lbs = getConstantIntValues(loop.getMixedLowerBound()),
                                      ubs = getConstantIntValues(loop.getMixedUpperBound()),
                                      steps = getConstantIntValues(loop.getMixedStep());
  if (!lbs || !ubs || !steps || lbs->size() > 3 || loop.getNumResults() ||
      !llvm::all_of(*steps, [](int64_t s) { return s > 0; }))
    return false;
  return llvm::all_of(loop.getBody()->getOperations(), inBlockKernel) &&
         blockBuffersBytes(loop) <= dlc::kGPUMostSharedBytes;
}

/// Runs `loop`, which canLaunchBlockKernel, as one kernel: a thread block
/// per iteration, the buffers its body allocates in shared memory (its
/// dynamic shared memory where they take more than 48 KiB), each
/// linalg op of the body run by the block's threads (distributeOverBlock),
/// a barrier between them; a loop of no iterations goes. Returns the
/// kernels launched; fails, saying why, where an op cannot be lowered to
/// loops.
static FailureOr<int64_t> launchBlockKernel(IRRewriter &rewriter, scf::ForallOp loop) {
  SmallVector<int64_t> lbs = *getConstantIntValues(loop.getMixedLowerBound()),
                       ubs = *getConstantIntValues(loop.getMixedUpperBound()),
                       steps = *getConstantIntValues(loop.getMixedStep());
  SmallVector<memref::AllocOp> allocs(loop.getBody()->getOps<memref::AllocOp>());
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
  SmallVector<int64_t, 3> counts;
  for (auto [lb, ub, step] : llvm::zip(lbs, ubs, steps))
    counts.push_back(std::max<int64_t>(0, llvm::divideCeil(ub - lb, step)));
  if (llvm::is_contained(counts, 0)) { // no iterations
    rewriter.eraseOp(loop);
    return 0;
  }
  counts.resize(3, 1);
  SmallVector<Value, 3> grid;
  for (int64_t c : counts)
    grid.push_back(index(c));
  Value one = index(1);
  // Buffers of at most 48 KiB in all are the kernel's own; more, views of
  // its dynamic shared memory.
  int64_t bytes = blockBuffersBytes(loop);
  bool dynamic = bytes > dlc::kGPUStaticSharedBytes;
  SmallVector<Type> shared;
  if (!dynamic)
    shared = llvm::map_to_vector(
        allocs, [](memref::AllocOp alloc) -> Type { return inSharedMemory(alloc.getType()); });
  auto kernel = gpu::LaunchOp::create(
      rewriter, loc, grid[0], grid[1], grid[2], index(kBlockKernelThreads), one, one,
      dynamic ? arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), bytes)
              : Value(),
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/ValueRange{}, shared);
  std::string layer = layerName(loc);
  dlc::startKernel(rewriter, kernel, layer.empty() ? "" : "k_" + layer);
  IRMapping map;
  if (dynamic) {
    Value memory = gpu::DynamicSharedMemoryOp::create(
        rewriter, loc, inSharedMemory(MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type())));
    int64_t offset = 0;
    for (memref::AllocOp alloc : allocs) {
      map.map(alloc.getResult(),
              memref::ViewOp::create(rewriter, loc, inSharedMemory(alloc.getType()), memory,
                                     index(offset), ValueRange{}));
      offset += sharedBytes(alloc.getType());
    }
  } else {
    for (auto [alloc, buffer] : llvm::zip(allocs, kernel.getWorkgroupAttributions()))
      map.map(alloc.getResult(), buffer);
  }
  gpu::KernelDim3 blockIds = kernel.getBlockIds();
  Value ids[3] = {blockIds.x, blockIds.y, blockIds.z};
  for (auto [i, iv] : llvm::enumerate(loop.getInductionVars()))
    map.map(iv, arith::AddIOp::create(
                    rewriter, loc, index(lbs[i]),
                    arith::MulIOp::create(rewriter, loc, ids[i], index(steps[i]))));
  Value thread = kernel.getThreadIds().x;
  SmallVector<linalg::LinalgOp> ops;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (isa<memref::AllocOp>(op))
      continue;
    Operation *clone = rewriter.clone(op, map);
    // A view of a buffer in shared memory is in shared memory too.
    if (isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(op)) {
      auto source = cast<MemRefType>(clone->getOperand(0).getType());
      auto view = cast<MemRefType>(clone->getResult(0).getType());
      if (source.getMemorySpace() != view.getMemorySpace())
        clone->getResult(0).setType(
            MemRefType::Builder(view).setMemorySpace(source.getMemorySpace()));
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(clone)) {
      // What the op before wrote, every thread's part, is there to read.
      if (!ops.empty()) {
        rewriter.setInsertionPoint(clone);
        gpu::BarrierOp::create(rewriter, loc);
        rewriter.setInsertionPointAfter(clone);
      }
      ops.push_back(linalgOp);
    }
  }
  // Each op as loops, their identity affine.applys folded (a load and a
  // store of the same element at the same values), run by the threads.
  SmallVector<Operation *> nests;
  for (linalg::LinalgOp op : ops) {
    if (op.getNumLoops() == 0) // a load and a store: the first thread's
      onFirstThread(rewriter, op, thread);
    rewriter.setInsertionPoint(op);
    moveReductionsInnermost(rewriter, op);
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::LinalgLoops> loops = linalg::linalgOpToParallelLoops(rewriter, op);
    if (failed(loops))
      return op->emitError("cannot be lowered to loops for the GPU");
    rewriter.eraseOp(op);
    if (!loops->empty())
      nests.push_back(loops->front());
  }
  RewritePatternSet folds(rewriter.getContext());
  affine::AffineApplyOp::getCanonicalizationPatterns(folds, rewriter.getContext());
  if (failed(applyPatternsGreedily(kernel.getBody(), std::move(folds))))
    return kernel.emitError("cannot fold the block kernel's index computations");
  for (Operation *nest : nests)
    distributeOverBlock(rewriter, nest, thread, kBlockKernelThreads);
  rewriter.eraseOp(loop);
  return 1;
}

/// Whether `func` computes scalars between its loops and linalg ops (loops
/// with results, loads and stores outside loops, branches, linalg ops of no
/// loops, which become a load and a store): it then runs as one
/// single-thread kernel, the scalars staying inside it.
static bool computesScalarsBetweenLoops(func::FuncOp func) {
  return llvm::any_of(func.getBody().front(), [](Operation &op) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    bool loop = isa<LoopLikeOpInterface>(op) || (linalgOp && linalgOp.getNumLoops() > 0);
    return (loop && op.getNumResults()) || (!loop && op.getNumRegions()) ||
           isa<memref::LoadOp, memref::StoreOp>(op);
  });
}

/// A function of scalars alone (a helper such as math-to-funcs's integer
/// power) is device code that kernels call, not a kernel.
static bool isScalarHelper(func::FuncOp func) {
  auto scalar = [](Type t) { return t.isIntOrIndexOrFloat(); };
  return func.getNumArguments() + func.getNumResults() > 0 &&
         llvm::all_of(func.getArgumentTypes(), scalar) &&
         llvm::all_of(func.getResultTypes(), scalar);
}

/// Whether `op` calls a kernel function (which launches kernels of its own),
/// not a scalar helper.
static bool callsKernelFunction(Operation &op) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return false;
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(call, call.getCalleeAttr());
  return !callee || !isScalarHelper(callee);
}

/// Moves the body of `func` but its buffer allocations, deallocations,
/// calls (of kernel functions, which launch kernels of their own) and return
/// into single-thread gpu.launches, one between each two calls. Fails, saying
/// why, where an allocation has a dynamic size or a scalar computed between
/// two calls is used after the second.
static FailureOr<int64_t> launchWholeBody(IRRewriter &rewriter, func::FuncOp func) {
  Block &block = func.getBody().front();
  SmallVector<Operation *> allocs, deallocs;
  SmallVector<SmallVector<Operation *>> segments(1);
  for (Operation &op : block.without_terminator()) {
    if (isa<memref::AllocOp>(op) && op.getNumOperands())
      return func.emitError("cannot run on the GPU: a buffer of dynamic size");
    if (isa<memref::AllocOp>(op))
      allocs.push_back(&op);
    else if (isa<memref::DeallocOp>(op))
      deallocs.push_back(&op);
    else if (callsKernelFunction(op))
      segments.emplace_back();
    else
      segments.back().push_back(&op);
  }
  for (Operation *alloc : llvm::reverse(allocs))
    alloc->moveBefore(&block, block.begin());
  for (Operation *dealloc : deallocs)
    dealloc->moveBefore(block.getTerminator());
  int64_t kernels = 0;
  for (ArrayRef<Operation *> segment : segments) {
    if (segment.empty())
      continue;
    ++kernels;
    rewriter.setInsertionPoint(segment.front());
    Location loc = segment.front()->getLoc();
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto kernel = gpu::LaunchOp::create(rewriter, loc, one, one, one, one, one, one);
    rewriter.setInsertionPointToStart(&kernel.getBody().front());
    auto terminator = gpu::TerminatorOp::create(rewriter, loc);
    // Pure ops of host values (views of buffers, constants) stay on the
    // host, before the kernel: later calls may use them.
    llvm::SmallPtrSet<Operation *, 16> inside;
    for (Operation *op : segment) {
      bool onHost = isPure(op) && op->getNumRegions() == 0 &&
                    llvm::none_of(op->getOperands(), [&](Value v) {
                      return inside.contains(v.getDefiningOp());
                    });
      if (onHost) {
        op->moveBefore(kernel);
        continue;
      }
      op->moveBefore(terminator);
      inside.insert(op);
    }
    for (Operation *op : inside)
      for (Operation *user : op->getUsers())
        if (user->getParentOp() != kernel && !kernel->isProperAncestor(user))
          return op->emitError("cannot run on the GPU: a value computed between kernel calls "
                               "is used after the next one");
  }
  return kernels;
}

namespace {
struct GPUMapToThreadsPass : dlc::impl::GPUMapToThreadsPassBase<GPUMapToThreadsPass> {
  using GPUMapToThreadsPassBase::GPUMapToThreadsPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || isScalarHelper(func))
      return;
    if (!llvm::is_contained(dlc::kGPUTileSides, maxTile)) {
      func.emitError() << "dlc-gpu-map-to-threads: max-tile=" << int64_t(maxTile)
                       << " is not a tile side (128, 64 or 32)";
      return signalPassFailure();
    }
    if (!llvm::is_contained(dlc::kGPUTileDepths, tileDepth)) {
      func.emitError() << "dlc-gpu-map-to-threads: tile-depth=" << int64_t(tileDepth)
                       << " is not a tile depth (16 or 32, or 0: chosen)";
      return signalPassFailure();
    }
    if (splitBlocks != 0 &&
        (splitBlocks < dlc::kGPUFewestSplitBlocks || splitBlocks > dlc::kGPUMostSplitBlocks)) {
      func.emitError() << "dlc-gpu-map-to-threads: split-blocks=" << int64_t(splitBlocks)
                       << " is not between " << dlc::kGPUFewestSplitBlocks << " and "
                       << dlc::kGPUMostSplitBlocks << " (or 0: chosen)";
      return signalPassFailure();
    }
    if (copyStages != 0 &&
        (copyStages < dlc::kGPUFewestCopyStages || copyStages > dlc::kGPUMostCopyStages)) {
      func.emitError() << "dlc-gpu-map-to-threads: copy-stages=" << int64_t(copyStages)
                       << " is not between " << dlc::kGPUFewestCopyStages << " and "
                       << dlc::kGPUMostCopyStages << " (or 0: none)";
      return signalPassFailure();
    }
    dlc::TileLimits limits{maxTile,       tileDepth, splitBlocks, copyStages,
                           lastBlockSums, ldmatrix,  vectorLoads};
    IRRewriter rewriter(&getContext());
    FailureOr<int64_t> forwarded = dlc::forwardCopies(rewriter, func);
    if (failed(forwarded))
      return signalPassFailure();
    // Copies and linalg ops as loop nests.
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(), copy.getTarget());
    }
    // Matrix products get tiled kernels of their own (TiledContraction.h)
    // and window reductions theirs (WindowKernel.h) unless the whole body
    // runs on one thread; every other linalg op becomes a loop nest.
    bool wholeBody = computesScalarsBetweenLoops(func);
    // Loops over blocks (dlc-tile-attention's) as block kernels; where one
    // cannot be, its iterations a thread each, unless it allocates buffers
    // (which a thread would allocate on the device's heap every run).
    int64_t blockKernels = 0, blockLoopsOnThreads = 0;
    SmallVector<scf::ForallOp> blockLoops(func.getBody().front().getOps<scf::ForallOp>());
    for (scf::ForallOp loop : blockLoops) {
      if (!wholeBody && canLaunchBlockKernel(loop)) {
        FailureOr<int64_t> launched = launchBlockKernel(rewriter, loop);
        if (failed(launched))
          return signalPassFailure();
        blockKernels += *launched;
        continue;
      }
      if (!loop.getBody()->getOps<memref::AllocOp>().empty()) {
        loop.emitError() << "cannot run on the GPU: a loop over blocks whose body allocates "
                            "buffers runs as one kernel, a block per iteration, only with static "
                            "bounds, at most three dimensions, buffers of static shapes that fit "
                            "in "
                         << (dlc::kGPUMostSharedBytes >> 10)
                         << " KiB of shared memory, and views, linalg ops and arithmetic";
        return signalPassFailure();
      }
      if (failed(scf::forallToParallelLoop(rewriter, loop)))
        return signalPassFailure();
      ++blockLoopsOnThreads;
    }
    // With row-kernels, a body of row-wise ops (RowKernel.h) is one kernel.
    int64_t rowKernelsLaunched = 0;
    if (rowKernels && !wholeBody)
      if (std::optional<dlc::RowKernel> rows = dlc::findRowKernel(func); rows && rows->rows) {
        std::string layer = layerName(rows->ops.front().op->getLoc());
        dlc::launchRowKernel(rewriter, *rows, layer.empty() ? "" : "k_" + layer);
        ++rowKernelsLaunched;
      }
    SmallVector<linalg::LinalgOp> linalgOps, tiled, windows;
    func.walk([&](linalg::LinalgOp op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      bool own = !wholeBody && op->getParentOp() == func;
      if (own && dlc::isTiledContraction(op, limits))
        tiled.push_back(op);
      else if (own && dlc::isWindowReduction(op))
        windows.push_back(op);
      else
        linalgOps.push_back(op);
    });
    // The elementwise ops around each product and window reduction that
    // its kernel computes too.
    SmallVector<dlc::ProductFusion> fusions;
    llvm::SmallPtrSet<Operation *, 16> fused;
    int64_t fusedInits = 0, fusedEpilogues = 0, fusedInputs = 0, copiedInputs = 0,
            summedInKernel = 0, ldmatrixInputs = 0, vectorInputs = 0;
    auto take = [&](const dlc::ProductFusion &fusion) {
      fused.insert_range(fusion.ops());
      fusedInits += fusion.init != nullptr;
      fusedEpilogues += fusion.epilogues.size();
      fusedInputs += fusion.inputs.size();
    };
    for (linalg::LinalgOp op : llvm::concat<linalg::LinalgOp>(tiled, windows))
      take(fusions.emplace_back(dlc::findProductFusion(op, fused)));
    // With fuse-reductions, so do reductions' kernels (lowerFusedReduction).
    int64_t interchanged = 0, fusedReductions = 0;
    SmallVector<std::pair<linalg::LinalgOp, dlc::ProductFusion>> reductions;
    for (linalg::LinalgOp &op : linalgOps) {
      if (!fuseReductions || wholeBody || op->getParentOp() != func || fused.contains(op) ||
          !isFusableReduction(op))
        continue;
      rewriter.setInsertionPoint(op);
      interchanged += moveReductionsInnermost(rewriter, op);
      dlc::ProductFusion fusion = dlc::findProductFusion(op, fused);
      if (!fusion.init && fusion.epilogues.empty() && fusion.inputs.empty())
        continue;
      take(fusion);
      fused.insert(op);
      reductions.emplace_back(op, std::move(fusion));
    }
    llvm::erase_if(linalgOps, [&](linalg::LinalgOp op) { return fused.contains(op); });
    for (auto &[op, fusion] : reductions) {
      lowerFusedReduction(rewriter, op, fusion);
      ++fusedReductions;
    }
    for (linalg::LinalgOp op : linalgOps) {
      rewriter.setInsertionPoint(op);
      if (!wholeBody && moveReductionsInnermost(rewriter, op)) {
        ++interchanged;
        rewriter.setInsertionPoint(op); // generalizing replaced the named op
      }
      if (failed(linalg::linalgOpToParallelLoops(rewriter, op))) {
        op->emitError("cannot be lowered to loops for the GPU");
        return signalPassFailure();
      }
      rewriter.eraseOp(op);
    }
    // Accumulators in registers, innermost loops first; a loop at the top of
    // the function keeps its accumulator in memory unless the whole body
    // runs as one kernel (the host cannot load device memory).
    // linalg's loops index through identity affine.applys: folded, so that
    // a load and a store of the same element use the same values.
    RewritePatternSet folds(&getContext());
    affine::AffineApplyOp::getCanonicalizationPatterns(folds, &getContext());
    if (failed(applyPatternsGreedily(func, std::move(folds))))
      return signalPassFailure();
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) {
      if (wholeBody || loop->getParentOp() != func)
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      promoteAccumulator(rewriter, loop);
    if (wholeBody) {
      FailureOr<int64_t> kernels = launchWholeBody(rewriter, func);
      if (failed(kernels))
        return signalPassFailure();
      dlc::recordPassStat(getArgument(), "kernels", *kernels);
      dlc::recordPassStat(getArgument(), "single-thread", *kernels);
      dlc::recordPassStat(getArgument(), "copies-forwarded", *forwarded);
      return;
    }
    // The loop nests at the top of the function's blocks.
    SmallVector<Operation *> nests;
    func.walk([&](Operation *op) {
      if (isa<LoopLikeOpInterface>(op) && op->getParentOp() == func)
        nests.push_back(op);
    });
    int64_t kernels = 0, singleThread = 0, warpReductions = 0;
    for (Operation *nest : nests) {
      auto parallel = dyn_cast<scf::ParallelOp>(nest);
      std::optional<SmallVector<int64_t>> counts;
      if (parallel && !parallel.getNumResults())
        counts = tripCounts(parallel);
      if (!counts) { // loops of dynamic bounds, or without parallel dimensions
        parallel = nullptr;
        ++singleThread;
      }
      if (counts && llvm::is_contained(*counts, 0)) { // no iterations
        rewriter.eraseOp(nest);
        continue;
      }
      ++kernels;
      std::optional<WarpReduction> warp;
      if (parallel) {
        int64_t total = 1;
        for (int64_t c : *counts)
          total *= c;
        warp = matchWarpReduction(parallel, total);
      }
      warpReductions += warp.has_value();
      launch(rewriter, nest, counts ? *counts : SmallVector<int64_t>{}, parallel, warp);
    }
    for (auto [op, fusion] : llvm::zip(tiled, fusions)) {
      std::string layer = layerName(op.getLoc());
      dlc::TiledKernelCounts built = dlc::launchTiledContraction(
          rewriter, op, layer.empty() ? "" : "k_" + layer, limits,
          dlc::TensorCores{narrowMMA, tf32}, fusion);
      kernels += built.kernels;
      copiedInputs += built.copiedInputs;
      summedInKernel += built.lastBlockSums;
      ldmatrixInputs += built.ldmatrixInputs;
      vectorInputs += built.vectorInputs;
    }
    for (auto [op, fusion] : llvm::zip(windows, ArrayRef(fusions).drop_front(tiled.size()))) {
      std::string layer = layerName(op.getLoc());
      dlc::launchWindowReduction(rewriter, op, layer.empty() ? "" : "k_" + layer, fusion);
      ++kernels;
    }
    // The buffers nothing reads or writes any more (their writers fused
    // into a product's kernel).
    for (auto alloc : llvm::make_early_inc_range(func.getBody().front().getOps<memref::AllocOp>()))
      dlc::eraseIfUnused(rewriter, alloc);
    dlc::recordPassStat(getArgument(), "kernels", kernels + rowKernelsLaunched + blockKernels);
    dlc::recordPassStat(getArgument(), "row-kernels", rowKernelsLaunched);
    dlc::recordPassStat(getArgument(), "block-kernels", blockKernels);
    dlc::recordPassStat(getArgument(), "block-loops-on-threads", blockLoopsOnThreads);
    dlc::recordPassStat(getArgument(), "last-block-sums", summedInKernel);
    dlc::recordPassStat(getArgument(), "single-thread", singleThread);
    dlc::recordPassStat(getArgument(), "warp-reductions", warpReductions);
    dlc::recordPassStat(getArgument(), "tiled-products", tiled.size());
    dlc::recordPassStat(getArgument(), "window-reductions", windows.size());
    dlc::recordPassStat(getArgument(), "fused-inits", fusedInits);
    dlc::recordPassStat(getArgument(), "fused-epilogues", fusedEpilogues);
    dlc::recordPassStat(getArgument(), "fused-inputs", fusedInputs);
    dlc::recordPassStat(getArgument(), "async-copied-inputs", copiedInputs);
    dlc::recordPassStat(getArgument(), "ldmatrix-inputs", ldmatrixInputs);
    dlc::recordPassStat(getArgument(), "vector-loaded-inputs", vectorInputs);
    dlc::recordPassStat(getArgument(), "fused-reductions", fusedReductions);
    dlc::recordPassStat(getArgument(), "copies-forwarded", *forwarded);
    dlc::recordPassStat(getArgument(), "reductions-moved-innermost", interchanged);
  }
};
} // namespace
