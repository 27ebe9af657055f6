//===- GPUMergeRowKernels.cpp - runs of row-wise kernel functions as one ---===//
#include "KernelCalls.h"
#include "RowKernel.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace dlc {
#define GEN_PASS_DEF_GPUMERGEROWKERNELSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

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
      run.merged =
          dlc::mergeCalls(rewriter, symbols, calls, "_rows", "rows", /*own=*/{}, run.passed);
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
        callees.insert(dlc::kernelCallee(call, symbols));
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
        if (!call || !dlc::kernelCallee(call, symbols)) {
          if (!dlc::isBetweenCalls(op))
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
