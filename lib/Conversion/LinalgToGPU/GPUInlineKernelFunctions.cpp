//===- GPUInlineKernelFunctions.cpp - kernel functions into their callers --===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace dlc {
#define GEN_PASS_DEF_GPUINLINEKERNELFUNCTIONSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct GPUInlineKernelFunctionsPass
    : dlc::impl::GPUInlineKernelFunctionsPassBase<GPUInlineKernelFunctionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && callee.isPrivate() && callee->hasAttr("dlc.kernel") &&
          callee.getBody().hasOneBlock())
        calls.push_back(call);
    });
    IRRewriter rewriter(&getContext());
    llvm::SetVector<func::FuncOp> callees;
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      Block &body = callee.getBody().front();
      IRMapping map;
      map.map(body.getArguments(), call.getOperands());
      rewriter.setInsertionPoint(call);
      for (Operation &op : body.without_terminator())
        rewriter.clone(op, map);
      SmallVector<Value> results;
      for (Value v : body.getTerminator()->getOperands())
        results.push_back(map.lookupOrDefault(v));
      rewriter.replaceOp(call, results);
      callees.insert(callee);
    }
    for (func::FuncOp callee : callees)
      if (SymbolTable::symbolKnownUseEmpty(callee, module))
        rewriter.eraseOp(callee);
    dlc::recordPassStat(getArgument(), "inlined", calls.size());
  }
};
} // namespace
