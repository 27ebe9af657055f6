//===- GPUMapToThreads.cpp - loop nests as one-thread-per-iteration kernels ===//
#include "dlc/Conversion/Passes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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
    else if (isa<func::CallOp>(op))
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

/// A function of scalars alone (a helper such as math-to-funcs's integer
/// power) is device code that kernels call, not a kernel.
static bool isScalarHelper(func::FuncOp func) {
  auto scalar = [](Type t) { return t.isIntOrIndexOrFloat(); };
  return llvm::all_of(func.getArgumentTypes(), scalar) &&
         llvm::all_of(func.getResultTypes(), scalar);
}

namespace {
struct GPUMapToThreadsPass : dlc::impl::GPUMapToThreadsPassBase<GPUMapToThreadsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || isScalarHelper(func))
      return;
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
      FailureOr<int64_t> kernels = launchWholeBody(rewriter, func);
      if (failed(kernels))
        return signalPassFailure();
      dlc::recordPassStat(getArgument(), "kernels", *kernels);
      dlc::recordPassStat(getArgument(), "single-thread", *kernels);
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
