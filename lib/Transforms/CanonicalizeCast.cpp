//===- CanonicalizeCast.cpp - one upcast per elementwise consumer ----------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_CANONICALIZECASTPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {

/// An upcast used by several elementwise ops gets one copy per use.
struct DuplicateUpcast : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op, PatternRewriter &rewriter) const override {
    Type from = op.getInput().getType().getElementType();
    Type to = op.getType().getElementType();
    if (to.getIntOrFloatBitWidth() <= from.getIntOrFloatBitWidth() ||
        isa<FloatType>(from) != isa<FloatType>(to))
      return rewriter.notifyMatchFailure(op, "not an upcast");
    if (op->hasOneUse() || op->use_empty())
      return rewriter.notifyMatchFailure(op, "one use");
    if (!llvm::all_of(op->getUsers(), [](Operation *user) {
          return graph::getOpPatternKind(user) <= graph::OpPatternKind::Broadcast;
        }))
      return rewriter.notifyMatchFailure(op, "a user is not elementwise");
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : op->getUses())
      uses.push_back(&use);
    for (OpOperand *use : llvm::drop_begin(uses)) {
      rewriter.setInsertionPoint(use->getOwner());
      auto copy = CastOp::create(rewriter, op.getLoc(), op.getType(), op.getInput());
      rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(copy); });
    }
    return success();
  }
};

struct CanonicalizeCastPass
    : dlc::impl::CanonicalizeCastPassBase<CanonicalizeCastPass> {
  void runOnOperation() override {
    int64_t before = 0, after = 0;
    getOperation().walk([&](CastOp) { ++before; });
    RewritePatternSet patterns(&getContext());
    populateCanonicalizeCastPatterns(patterns);
    if (failed(applyCountedPatterns(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation().walk([&](CastOp) { ++after; });
    recordPassStat(getArgument(), "duplicated", after - before);
  }
};

} // namespace

void dlc::populateCanonicalizeCastPatterns(RewritePatternSet &patterns) {
  patterns.add<DuplicateUpcast>(patterns.getContext());
}
