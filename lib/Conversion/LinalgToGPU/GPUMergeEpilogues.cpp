//===- GPUMergeEpilogues.cpp - a product's function with its consumer's ---===//
#include "KernelCalls.h"
#include "ProductFusion.h"
#include "TiledContraction.h"
#include "WindowKernel.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SetVector.h"

namespace dlc {
#define GEN_PASS_DEF_GPUMERGEEPILOGUESPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The buffers of the caller that only `first` and `second` use (through
/// views; deallocations aside), allocated there with a static shape, and
/// that both are passed: what the first writes for the second, if the
/// merge is made (fusesConsumer).
static SmallVector<Value> passedBetween(func::CallOp first, func::CallOp second) {
  llvm::SetVector<Value> roots;
  for (Value v : first.getOperands())
    if (isa<MemRefType>(v.getType()))
      roots.insert(dlc::rootOf(v));
  SmallVector<Value> between;
  for (Value v : second.getOperands()) {
    Value root = isa<MemRefType>(v.getType()) ? dlc::rootOf(v) : Value();
    auto alloc = root ? root.getDefiningOp<memref::AllocOp>() : nullptr;
    if (!alloc || alloc->getNumOperands() || !roots.contains(root) ||
        llvm::is_contained(between, root))
      continue;
    bool onlyTheirs = true;
    dlc::forEachAccess(root, [&](Operation *user) {
      onlyTheirs &= user == first || user == second || isa<memref::DeallocOp>(user);
    });
    if (onlyTheirs)
      between.push_back(root);
  }
  return between;
}

/// Whether a product or window reduction of `merged` among its first
/// `firstOps` linalg ops (its first call's) has the last linalg op (its
/// second call's) as its last epilogue (findProductFusion), so that one
/// kernel computes the product, the second call's ops and every op between
/// them, and no op after it but views, allocations, constants and
/// deallocations. Tile limits as dlc-gpu-map-to-threads' defaults (with
/// others, a product may be lowered otherwise and compute no epilogue:
/// the merged function then launches the kernels the two calls did).
static bool fusesConsumer(func::FuncOp merged, size_t firstOps) {
  SmallVector<linalg::LinalgOp> ops = llvm::to_vector(merged.getBody().getOps<linalg::LinalgOp>());
  if (ops.size() <= firstOps) // the second call's ops folded away
    return false;
  linalg::LinalgOp consumer = ops.back();
  for (Operation *op = consumer->getNextNode(); !op->hasTrait<OpTrait::IsTerminator>();
       op = op->getNextNode())
    if (!dlc::isBetweenCalls(*op) && !isa<memref::DeallocOp>(op))
      return false; // a copy left: a kernel of its own
  llvm::SmallPtrSet<Operation *, 1> taken;
  return llvm::any_of(ArrayRef(ops).take_front(firstOps), [&](linalg::LinalgOp op) {
    if (!dlc::isTiledContraction(op, dlc::TileLimits{}) && !dlc::isWindowReduction(op))
      return false;
    dlc::ProductFusion fusion = dlc::findProductFusion(op, taken);
    return !fusion.epilogues.empty() && fusion.epilogues.back().op == consumer;
  });
}

namespace {
struct GPUMergeEpiloguesPass : dlc::impl::GPUMergeEpiloguesPassBase<GPUMergeEpiloguesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());
    int64_t mergedCalls = 0;
    llvm::SetVector<func::FuncOp> callees, made;
    // The call of the function `call` and the kernel call after it become
    // one, if the second's ops become epilogues of a product of the
    // first's (fusesConsumer): the new call, else null.
    auto merge = [&](func::CallOp call) -> func::CallOp {
      Operation *next = call->getNextNode();
      while (next && dlc::isBetweenCalls(*next))
        next = next->getNextNode();
      auto second = dyn_cast_or_null<func::CallOp>(next);
      func::FuncOp first = dlc::kernelCallee(call, symbols);
      func::FuncOp consumer = second ? dlc::kernelCallee(second, symbols) : nullptr;
      if (!first || !consumer || consumer.getBody().getOps<linalg::LinalgOp>().empty())
        return nullptr;
      SmallVector<Value> between = passedBetween(call, second);
      if (between.empty())
        return nullptr;
      SmallVector<Value> passed;
      StringRef suffix = made.contains(first) ? "" : "_epilogue";
      auto kind = first->getAttrOfType<StringAttr>("dlc.kernel");
      func::FuncOp merged = dlc::mergeCalls(rewriter, symbols, {call, second}, suffix,
                                            kind ? kind.getValue() : "", between, passed);
      if (!merged)
        return nullptr;
      // The bodies write their results into the buffers their callers
      // passed, now the function's own for those between them (as
      // dlc-gpu-map-to-threads forwards them before it looks for fusions).
      if (failed(dlc::forwardCopies(rewriter, merged)) ||
          !fusesConsumer(merged, llvm::range_size(first.getBody().getOps<linalg::LinalgOp>()))) {
        symbols.erase(merged);
        return nullptr;
      }
      rewriter.setInsertionPoint(second);
      auto mergedCall = func::CallOp::create(rewriter, second.getLoc(), merged, passed);
      mergedCalls += made.contains(first) ? 1 : 2;
      made.insert(merged);
      for (func::CallOp old : {call, second}) {
        callees.insert(dlc::kernelCallee(old, symbols));
        rewriter.eraseOp(old);
      }
      for (Value buffer : between)
        dlc::eraseIfUnused(rewriter, buffer);
      return mergedCall;
    };
    SmallVector<func::FuncOp> callers;
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && func.getBody().hasOneBlock())
        callers.push_back(func);
    for (func::FuncOp caller : callers) {
      // A merged call may take the next consumer too (a conversion, then a
      // transpose).
      for (Operation *op = &caller.getBody().front().front(); op;) {
        auto call = dyn_cast<func::CallOp>(op);
        func::CallOp merged = call ? merge(call) : nullptr;
        op = merged ? merged.getOperation() : op->getNextNode();
      }
    }
    for (func::FuncOp callee : callees)
      if (SymbolTable::symbolKnownUseEmpty(callee, module)) {
        made.remove(callee);
        symbols.erase(callee);
      }
    dlc::recordPassStat(getArgument(), "merged-calls", mergedCalls);
    dlc::recordPassStat(getArgument(), "epilogue-functions", made.size());
  }
};
} // namespace
