//===- GPUMergeRowKernels.cpp - runs of row-wise kernel functions as one ---===//
#include "ProductFusion.h"
#include "RowKernel.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace dlc {
#define GEN_PASS_DEF_GPUMERGEROWKERNELSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The kernel function `call` calls, if it calls one that may be merged:
/// private, `dlc.kernel`, of one block and no results.
static func::FuncOp kernelCallee(func::CallOp call, SymbolTable &symbols) {
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  if (!callee || !callee.isPrivate() || !callee->hasAttr("dlc.kernel") ||
      !callee.getBody().hasOneBlock() || callee.getNumResults())
    return nullptr;
  return callee;
}

/// Whether `op`, between two calls of a run, touches no buffer's contents.
static bool isBetweenCalls(Operation &op) {
  return isa<memref::AllocOp, memref::ExpandShapeOp, memref::CollapseShapeOp, memref::GetGlobalOp,
             arith::ConstantOp>(op);
}

/// A new function, next to the first callee, running the bodies of the
/// callees of `calls` in turn: its arguments the buffers the calls pass
/// (the roots of their views, each once; the views made again inside),
/// appended to `passed`, and the calls' other operands. Null, nothing
/// made, if a view uses a value of the caller that is not passed.
static func::FuncOp outline(IRRewriter &rewriter, SymbolTable &symbols,
                            ArrayRef<func::CallOp> calls, SmallVectorImpl<Value> &passed) {
  llvm::SetVector<Value> operands;
  for (func::CallOp call : calls)
    for (Value v : call.getOperands())
      operands.insert(isa<MemRefType>(v.getType()) ? dlc::rootOf(v) : v);
  func::FuncOp first = kernelCallee(calls.front(), symbols);
  Location loc = first.getLoc();
  auto merged = func::FuncOp::create(
      loc, (first.getName() + "_rows").str(),
      rewriter.getFunctionType(ValueRange(operands.getArrayRef()).getTypes(), {}));
  merged.setPrivate();
  merged->setAttr("dlc.kernel", rewriter.getStringAttr("rows"));
  // Its one call passes buffers, not views: they do not overlap.
  merged->setAttr(dlc::kDistinctArguments, rewriter.getUnitAttr());
  Block *entry = merged.addEntryBlock();
  IRMapping outer; // the caller's values, inside
  outer.map(operands.getArrayRef(), entry->getArguments());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(entry);
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

namespace {
/// A run of calls being merged, and the function it would become.
struct Run {
  SmallVector<func::CallOp> calls;
  SmallVector<Value> passed;
  func::FuncOp merged;
  int64_t rows = 0;
};

struct GPUMergeRowKernelsPass
    : dlc::impl::GPUMergeRowKernelsPassBase<GPUMergeRowKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());
    int64_t mergedCalls = 0, functions = 0;
    llvm::SetVector<func::FuncOp> callees;
    // `calls` as a run, if their callees' bodies form a row kernel.
    auto tryRun = [&](ArrayRef<func::CallOp> calls) -> std::optional<Run> {
      Run run{llvm::to_vector(calls), {}, nullptr, 0};
      run.merged = outline(rewriter, symbols, calls, run.passed);
      if (!run.merged)
        return std::nullopt;
      std::optional<dlc::RowKernel> kernel = dlc::findRowKernel(run.merged);
      if (!kernel) {
        symbols.erase(run.merged);
        return std::nullopt;
      }
      run.rows = kernel->rows;
      return run;
    };
    // A run of two calls or more with a reduction becomes a call of its
    // function, where its last call was; another's function goes.
    auto finish = [&](std::optional<Run> &run) {
      if (!run)
        return;
      if (run->calls.size() < 2 || !run->rows) {
        symbols.erase(run->merged);
        run.reset();
        return;
      }
      rewriter.setInsertionPoint(run->calls.back());
      func::CallOp::create(rewriter, run->calls.back().getLoc(), run->merged, run->passed);
      for (func::CallOp call : run->calls) {
        callees.insert(kernelCallee(call, symbols));
        rewriter.eraseOp(call);
      }
      mergedCalls += run->calls.size();
      ++functions;
      run.reset();
    };
    SmallVector<func::FuncOp> callers;
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && func.getBody().hasOneBlock())
        callers.push_back(func);
    for (func::FuncOp caller : callers) {
      std::optional<Run> run;
      for (Operation &op : llvm::make_early_inc_range(caller.getBody().front())) {
        auto call = dyn_cast<func::CallOp>(op);
        if (!call || !kernelCallee(call, symbols)) {
          if (!isBetweenCalls(op))
            finish(run);
          continue;
        }
        SmallVector<func::CallOp> longer = run ? run->calls : SmallVector<func::CallOp>{};
        longer.push_back(call);
        if (std::optional<Run> grown = tryRun(longer)) {
          if (run)
            symbols.erase(run->merged);
          run = std::move(grown);
          continue;
        }
        if (!run) // the call alone is no row kernel
          continue;
        finish(run);
        run = tryRun({call});
      }
      finish(run);
    }
    for (func::FuncOp callee : callees)
      if (SymbolTable::symbolKnownUseEmpty(callee, module))
        symbols.erase(callee);
    dlc::recordPassStat(getArgument(), "merged-calls", mergedCalls);
    dlc::recordPassStat(getArgument(), "row-functions", functions);
  }
};
} // namespace
