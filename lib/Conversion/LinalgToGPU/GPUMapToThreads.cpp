//===- GPUMapToThreads.cpp - loop nests as one-thread-per-iteration kernels ===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_GPUMAPTOTHREADSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Threads per block.
static constexpr int64_t kBlockThreads = 256;

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

/// Replaces `nest` with a gpu.launch: of one thread per iteration of
/// `parallel` (the nest itself, of `counts` iterations) if given, else of one
/// thread running the nest.
static void launch(IRRewriter &rewriter, Operation *nest, ArrayRef<int64_t> counts,
                   scf::ParallelOp parallel) {
  Location loc = nest->getLoc();
  int64_t total = 1;
  for (int64_t c : counts)
    total *= c;
  int64_t threads = std::clamp<int64_t>(total, 1, kBlockThreads);
  int64_t blocks = std::max<int64_t>(1, llvm::divideCeil(total, threads));
  rewriter.setInsertionPoint(nest);
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
  Value one = index(1);
  auto kernel = gpu::LaunchOp::create(rewriter, loc, index(blocks), one, one, index(threads), one,
                                      one);
  Block &body = kernel.getBody().front();
  rewriter.setInsertionPointToStart(&body);
  gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPointToStart(&body);
  if (!parallel) { // one thread runs the nest
    rewriter.moveOpBefore(nest, body.getTerminator());
    return;
  }
  Value linear = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, kernel.getBlockIds().x, index(threads)),
      kernel.getThreadIds().x);
  Value inRange = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, linear,
                                        index(total));
  auto guard = scf::IfOp::create(rewriter, loc, inRange, /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(guard.thenBlock());
  auto ivs = affine::AffineDelinearizeIndexOp::create(rewriter, loc, linear, counts);
  IRMapping map;
  for (auto [i, iv] : llvm::enumerate(parallel.getInductionVars())) {
    // lb + index * step, constants (tripCounts) built in the kernel
    Value scaled = arith::MulIOp::create(rewriter, loc, ivs.getResult(i),
                                         index(*getConstantIntValue(parallel.getStep()[i])));
    map.map(iv, arith::AddIOp::create(rewriter, loc,
                                      index(*getConstantIntValue(parallel.getLowerBound()[i])),
                                      scaled));
  }
  for (Operation &op : parallel.getBody()->without_terminator())
    rewriter.clone(op, map);
  rewriter.eraseOp(parallel);
}

/// Whether `func` computes scalars between its loops (loops with results,
/// loads and stores outside loops, branches): it then runs as one
/// single-thread kernel, the scalars staying inside it.
static bool computesScalarsBetweenLoops(func::FuncOp func) {
  return llvm::any_of(func.getBody().front(), [](Operation &op) {
    bool loop = isa<LoopLikeOpInterface>(op);
    return (loop && op.getNumResults()) || (!loop && op.getNumRegions()) ||
           isa<memref::LoadOp, memref::StoreOp>(op);
  });
}

/// Moves the body of `func` but its buffer allocations, deallocations and
/// return into one single-thread gpu.launch; false if an allocation has a
/// dynamic size.
static bool launchWholeBody(IRRewriter &rewriter, func::FuncOp func) {
  Block &block = func.getBody().front();
  SmallVector<Operation *> allocs, deallocs, body;
  for (Operation &op : block.without_terminator()) {
    if (isa<memref::AllocOp>(op) && op.getNumOperands())
      return false;
    (isa<memref::AllocOp>(op) ? allocs : isa<memref::DeallocOp>(op) ? deallocs : body)
        .push_back(&op);
  }
  for (Operation *alloc : llvm::reverse(allocs))
    alloc->moveBefore(&block, block.begin());
  for (Operation *dealloc : deallocs)
    dealloc->moveBefore(block.getTerminator());
  rewriter.setInsertionPoint(body.front()); // after the allocations
  Location loc = func.getLoc();
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto kernel = gpu::LaunchOp::create(rewriter, loc, one, one, one, one, one, one);
  rewriter.setInsertionPointToStart(&kernel.getBody().front());
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);
  for (Operation *op : body)
    op->moveBefore(terminator);
  return true;
}

namespace {
struct GPUMapToThreadsPass : dlc::impl::GPUMapToThreadsPassBase<GPUMapToThreadsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    IRRewriter rewriter(&getContext());
    // Copies and linalg ops as loop nests.
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(), copy.getTarget());
    }
    SmallVector<linalg::LinalgOp> linalgOps;
    func.walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<gpu::LaunchOp>())
        linalgOps.push_back(op);
    });
    for (linalg::LinalgOp op : linalgOps) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::linalgOpToParallelLoops(rewriter, op))) {
        op->emitError("cannot be lowered to loops for the GPU");
        return signalPassFailure();
      }
      rewriter.eraseOp(op);
    }
    if (computesScalarsBetweenLoops(func)) {
      if (!launchWholeBody(rewriter, func)) {
        func.emitError("cannot run on the GPU: a buffer of dynamic size");
        return signalPassFailure();
      }
      dlc::recordPassStat(getArgument(), "kernels", 1);
      dlc::recordPassStat(getArgument(), "single-thread", 1);
      return;
    }
    // The loop nests at the top of the function's blocks.
    SmallVector<Operation *> nests;
    func.walk([&](Operation *op) {
      if (isa<LoopLikeOpInterface>(op) && op->getParentOp() == func)
        nests.push_back(op);
    });
    int64_t kernels = 0, singleThread = 0;
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
      launch(rewriter, nest, counts ? *counts : SmallVector<int64_t>{}, parallel);
    }
    dlc::recordPassStat(getArgument(), "kernels", kernels);
    dlc::recordPassStat(getArgument(), "single-thread", singleThread);
  }
};
} // namespace
