//===- KernelCalls.cpp - calls of kernel functions merged into one ---------===//
#include "KernelCalls.h"
#include "ProductFusion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

func::FuncOp dlc::kernelCallee(func::CallOp call, SymbolTable &symbols) {
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  if (!callee || !callee.isPrivate() || !callee->hasAttr("dlc.kernel") ||
      !callee.getBody().hasOneBlock() || callee.getNumResults())
    return nullptr;
  return callee;
}

bool dlc::isBetweenCalls(Operation &op) {
  return isa<memref::AllocOp, memref::ExpandShapeOp, memref::CollapseShapeOp, memref::GetGlobalOp,
             arith::ConstantOp>(op);
}

func::FuncOp dlc::mergeCalls(IRRewriter &rewriter, SymbolTable &symbols,
                             ArrayRef<func::CallOp> calls, StringRef suffix, StringRef kind,
                             ArrayRef<Value> own, SmallVectorImpl<Value> &passed) {
  llvm::SetVector<Value> operands;
  for (func::CallOp call : calls)
    for (Value v : call.getOperands())
      if (Value root = isa<MemRefType>(v.getType()) ? rootOf(v) : v; !llvm::is_contained(own, root))
        operands.insert(root);
  func::FuncOp first = kernelCallee(calls.front(), symbols);
  Location loc = first.getLoc();
  auto merged = func::FuncOp::create(
      loc, (first.getName() + suffix).str(),
      rewriter.getFunctionType(ValueRange(operands.getArrayRef()).getTypes(), {}));
  merged.setPrivate();
  merged->setAttr("dlc.kernel", rewriter.getStringAttr(kind));
  // Its one call passes buffers, not views: they do not overlap.
  merged->setAttr(kDistinctArguments, rewriter.getUnitAttr());
  Block *entry = merged.addEntryBlock();
  IRMapping outer; // the caller's values, inside
  outer.map(operands.getArrayRef(), entry->getArguments());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(entry);
  for (Value buffer : own)
    rewriter.clone(*buffer.getDefiningOp(), outer);
  std::function<Value(Value)> inside = [&](Value v) -> Value {
    if (Value mapped = outer.lookupOrNull(v))
      return mapped;
    Operation *def = v.getDefiningOp();
    if (!def || !isBetweenCalls(*def) || isa<memref::AllocOp>(def))
      return nullptr;
    for (Value operand : def->getOperands())
      if (!inside(operand))
        return nullptr;
    rewriter.clone(*def, outer);
    return outer.lookup(v);
  };
  for (func::CallOp call : calls) {
    Block &body = kernelCallee(call, symbols).getBody().front();
    IRMapping map;
    for (auto [arg, operand] : llvm::zip(body.getArguments(), call.getOperands())) {
      Value value = inside(operand);
      if (!value) {
        merged.erase();
        return nullptr;
      }
      map.map(arg, value);
    }
    for (Operation &op : body.without_terminator())
      rewriter.clone(op, map);
  }
  func::ReturnOp::create(rewriter, loc);
  symbols.insert(merged, Block::iterator(first));
  llvm::append_range(passed, operands);
  return merged;
}

FailureOr<int64_t> dlc::forwardCopies(RewriterBase &rewriter, func::FuncOp func) {
  int64_t forwarded = 0;
  for (auto copy : llvm::make_early_inc_range(func.getBody().front().getOps<memref::CopyOp>())) {
    Value source = copy.getSource(), target = copy.getTarget();
    auto alloc = source.getDefiningOp<memref::AllocOp>();
    if (!alloc || source.getType() != target.getType() || alloc->getBlock() != copy->getBlock())
      continue;
    // The destination a buffer, or a reshape of one, defined before the
    // source; the buffer (through any view) not used while the source is.
    Value root = rootOf(target);
    bool dominates = isa<BlockArgument>(target)
                         ? target.getParentBlock() == copy->getBlock()
                         : isReshapeOfRoot(target) &&
                               target.getDefiningOp()->getBlock() == copy->getBlock() &&
                               target.getDefiningOp()->isBeforeInBlock(alloc) &&
                               (isa<BlockArgument>(root) || root.getDefiningOp<memref::AllocOp>());
    if (!dominates || usedBetween(root, alloc, copy, copy) ||
        usedBetween(source, copy, copy->getBlock()->getTerminator(), copy))
      continue;
    // The source's deallocations go (one through a view would free the
    // destination after the replacement: such a copy stays).
    SmallVector<Operation *> deallocs;
    bool freedThroughView = false;
    forEachAccess(source, [&](Operation *user) {
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        deallocs.push_back(user);
        freedThroughView |= dealloc.getMemref() != source;
      }
    });
    if (freedThroughView)
      continue;
    for (Operation *dealloc : deallocs)
      rewriter.eraseOp(dealloc);
    rewriter.eraseOp(copy);
    rewriter.replaceAllUsesWith(source, target);
    rewriter.eraseOp(alloc);
    ++forwarded;
  }
  if (failed(applyPatternsGreedily(func, RewritePatternSet(func.getContext()))))
    return failure();
  return forwarded;
}

bool dlc::eraseIfUnused(RewriterBase &rewriter, Value buffer) {
  SmallVector<Operation *> unused; // views, after the buffers they view
  SmallVector<Value> aliases = {buffer};
  for (size_t i = 0; i < aliases.size(); ++i)
    for (Operation *user : aliases[i].getUsers()) {
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == aliases[i])
        aliases.push_back(view->getResult(0));
      else if (!isa<memref::DeallocOp>(user))
        return false;
      unused.push_back(user);
    }
  for (Operation *op : llvm::reverse(unused))
    rewriter.eraseOp(op);
  rewriter.eraseOp(buffer.getDefiningOp());
  return true;
}
