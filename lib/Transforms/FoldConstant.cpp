//===- FoldConstant.cpp - evaluate ops on constants ------------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_FOLDCONSTANTPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {

struct FoldConstantOp : RewritePattern {
  FoldConstantOp(MLIRContext *ctx, int64_t sizeLimit, int64_t *skippedLarge, bool foldQnn)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        sizeLimit(sizeLimit), skippedLarge(skippedLarge), foldQnn(foldQnn) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<GraphDialect>(op->getDialect()) || isa<ConstantOp>(op) ||
        op->getNumRegions() || op->getNumOperands() == 0)
      return failure();
    if (op->getParentOfType<FusedOp>() || op->getParentOfType<CompositeOp>())
      return rewriter.notifyMatchFailure(op, "inside a fused region");
    if (!foldQnn && isa<QuantizeOp, DequantizeOp>(op))
      return rewriter.notifyMatchFailure(op, "quantization is kept (fold-qnn)");
    if (!llvm::all_of(op->getOperands(), [](Value v) {
          return v.getDefiningOp<ConstantOp>();
        }))
      return rewriter.notifyMatchFailure(op, "an operand is not constant");
    int64_t elements = 0;
    for (Type t : op->getResultTypes())
      elements += cast<RankedTensorType>(t).getNumElements();
    bool operandsDie = llvm::all_of(op->getOperands(), [&](Value v) {
      return llvm::all_of(v.getUsers(), [&](Operation *u) { return u == op; });
    });
    if (elements > kMaxConstantElements)
      return rewriter.notifyMatchFailure(op, "result too large to compute now");
    if (elements > sizeLimit && !operandsDie) {
      if (skippedLarge)
        ++*skippedLarge;
      return rewriter.notifyMatchFailure(
          op, "large result while its constant operands live on");
    }
    std::vector<Tensor> operands;
    for (Value v : op->getOperands()) {
      std::optional<Tensor> t = constantValue(v);
      if (!t)
        return rewriter.notifyMatchFailure(op, "unreadable constant operand");
      operands.push_back(std::move(*t));
    }
    // An op that fails at run time (e.g. an index out of range) stays, for
    // the run to report; folding says nothing.
    ScopedDiagnosticHandler quiet(op->getContext(),
                                  [](Diagnostic &) { return success(); });
    FailureOr<std::vector<Tensor>> results = evaluateOp(op, operands);
    if (failed(results))
      return rewriter.notifyMatchFailure(op, "evaluation failed");
    std::string name = "folded";
    if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
      name = loc.getName().str();
    SmallVector<Value> replacements;
    for (const Tensor &t : *results)
      replacements.push_back(createConstant(rewriter, op->getLoc(), t, name));
    rewriter.replaceOp(op, replacements);
    return success();
  }

  int64_t sizeLimit;
  int64_t *skippedLarge;
  bool foldQnn;
};

struct FoldConstantPass : dlc::impl::FoldConstantPassBase<FoldConstantPass> {
  using FoldConstantPassBase::FoldConstantPassBase;
  void runOnOperation() override {
    int64_t skipped = 0;
    RewritePatternSet patterns(&getContext());
    populateFoldConstantPatterns(patterns, sizeLimit, &skipped, foldQnn);
    FailureOr<int64_t> n = applyCountedPatterns(getOperation(), std::move(patterns));
    if (failed(n))
      return signalPassFailure();
    recordPassStat(getArgument(), "folded", *n);
    recordPassStat(getArgument(), "skipped-large", skipped);
    // Constants nobody uses any more (the folded ops' operands).
    getOperation().walk([](ConstantOp c) {
      if (c->use_empty())
        c->erase();
    });
  }
};

} // namespace

void dlc::populateFoldConstantPatterns(RewritePatternSet &patterns,
                                       int64_t sizeLimit,
                                       int64_t *skippedLarge, bool foldQnn) {
  patterns.add<FoldConstantOp>(patterns.getContext(), sizeLimit, skippedLarge, foldQnn);
}
