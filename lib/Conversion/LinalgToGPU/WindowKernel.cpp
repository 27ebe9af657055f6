//===- WindowKernel.cpp - window reductions, a thread per output ----------===//
#include "WindowKernel.h"
#include "TiledContraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

/// The most outputs a window kernel computes: its threads are numbered,
/// and their indices split, in 32-bit arithmetic.
static constexpr int64_t kMaxOutputs = std::numeric_limits<int32_t>::max();

bool dlc::isWindowReduction(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0)
    return false;
  for (Value operand : op->getOperands())
    if (auto type = dyn_cast<MemRefType>(operand.getType()); type && !type.hasStaticShape())
      return false;
  // The body copied into the kernel (emitIteration).
  if (!llvm::all_of(op.getBlock()->without_terminator(),
                    [](Operation &inner) { return inner.getNumRegions() == 0; }))
    return false;
  // The output indexed by the parallel loops, each once: a thread per
  // element computes each output once.
  OpOperand *out = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(out);
  if (!outMap.isProjectedPermutation() || outMap.getNumResults() != op.getNumParallelLoops())
    return false;
  SmallVector<unsigned> parallel;
  op.getParallelDims(parallel);
  if (!llvm::all_of(parallel, [&](unsigned d) { return outMap.isFunctionOfDim(d); }))
    return false;
  int64_t outputs = cast<MemRefType>(out->get().getType()).getNumElements();
  if (outputs == 0 || outputs > kMaxOutputs)
    return false;
  // An input read in windows, none on the output's buffer.
  bool windows = false;
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (rootOf(in->get()) == rootOf(out->get()))
      return false;
    for (AffineExpr e : op.getMatchingIndexingMap(in).getResults())
      windows |= e.getKind() == AffineExprKind::Add;
  }
  return windows;
}

// Thread t computes the output's element t (the last index fastest: a
// warp's loads of a window position and its stores are consecutive), its
// initial value, the window's loops over the inputs (their elements read
// through fused paddings and conversions), and the epilogue's element.
void dlc::launchWindowReduction(IRRewriter &rewriter, linalg::LinalgOp op, StringRef name,
                                const ProductFusion &fusion) {
  Location loc = op.getLoc();
  OpOperand &out = *op.getDpsInitOperand(0);
  auto outType = cast<MemRefType>(out.get().getType());
  int64_t outputs = outType.getNumElements(),
          threads = std::min<int64_t>(outputs, kGPUBlockThreads);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  moveEpilogueOperands(rewriter, op, fusion);
  rewriter.setInsertionPoint(op);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value one = index(1);
  auto kernel = gpu::LaunchOp::create(rewriter, loc, index(llvm::divideCeil(outputs, threads)),
                                      one, one, index(threads), one, one);
  startKernel(rewriter, kernel, name);
  Value linear = arith::AddIOp::create(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, kernel.getBlockIds().x, index(threads)),
      kernel.getThreadIds().x);
  Value inRange =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, linear, index(outputs));
  auto guard = scf::IfOp::create(rewriter, loc, inRange, /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(guard.thenBlock());
  SmallVector<Value> indices = delinearize(rewriter, loc, linear, outType.getShape());
  // The parallel loops' values; the window's loops run in the thread.
  SmallVector<Value> loops = loopsAt(op, out, indices);
  SmallVector<unsigned> window;
  op.getReductionDims(window);
  SmallVector<Value> lbs(window.size(), index(0)), steps(window.size(), one);
  SmallVector<Value> ubs = llvm::map_to_vector(window, [&](unsigned d) { return index(ranges[d]); });
  auto load = [&](OpBuilder &b, Value buffer, ValueRange at) {
    return elementOf(b, loc, fusion, buffer, at);
  };
  scf::LoopNest nest = scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps, initialValue(rewriter, op, fusion, indices),
      [&](OpBuilder &b, Location, ValueRange ivs, ValueRange accumulated) {
        for (auto [d, iv] : llvm::zip(window, ivs))
          loops[d] = iv;
        return scf::ValueVector(emitIteration(b, op, loops, {{&out, accumulated[0]}}, load));
      });
  rewriter.setInsertionPointAfter(nest.loops.front());
  storeResult(rewriter, op, fusion, indices, nest.results[0]);
  rewriter.eraseOp(op);
  for (Operation *fused : fusion.ops())
    rewriter.eraseOp(fused);
}
