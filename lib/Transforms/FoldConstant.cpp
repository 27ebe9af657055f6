//===- FoldConstant.cpp - evaluate ops on constants ------------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"

#include <cstring>

namespace dlc {
#define GEN_PASS_DEF_FOLDCONSTANTPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

/// Data movement (reshape, expand_dims, squeeze, transpose, concat) on
/// constants done on their bytes: folding stacked weights (BatchingOps on
/// BERT-base) through the interpreter's doubles took most of a compile.
/// Null when `op` is not one of them or an operand has no raw payload.
static std::optional<std::vector<char>> moveBytes(Operation *op) {
  if (!isa<ReshapeOp, ExpandDimsOp, SqueezeOp, TransposeOp, ConcatOp>(op))
    return std::nullopt;
  SmallVector<ArrayRef<char>> in;
  for (Value v : op->getOperands()) {
    std::optional<ArrayRef<char>> bytes = payloadBytes(v.getDefiningOp<ConstantOp>());
    if (!bytes)
      return std::nullopt;
    in.push_back(*bytes);
  }
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t width = outType.getElementTypeBitWidth() / 8;
  std::vector<char> out(outType.getNumElements() * width);
  if (isa<ReshapeOp, ExpandDimsOp, SqueezeOp>(op)) {
    if (in[0].size() != out.size())
      return std::nullopt;
    std::memcpy(out.data(), in[0].data(), out.size());
  } else if (auto t = dyn_cast<TransposeOp>(op)) {
    ArrayRef<int64_t> perm = t.getPerm();
    Shape inShape(t.getInput().getType().getShape());
    Shape inStrides = rowMajorStrides(inShape);
    Shape outShape(outType.getShape());
    int64_t rank = outShape.size(), n = outType.getNumElements();
    SmallVector<int64_t> idx(rank, 0);
    for (int64_t linear = 0; linear < n; ++linear) {
      int64_t src = 0;
      for (int64_t d = 0; d < rank; ++d)
        src += idx[d] * inStrides[perm[d]];
      std::memcpy(out.data() + linear * width, in[0].data() + src * width, width);
      for (int64_t d = rank - 1; d >= 0 && ++idx[d] == outShape[d]; --d)
        idx[d] = 0;
    }
  } else {
    auto c = cast<ConcatOp>(op);
    int64_t axis = *normalizeAxis(c.getAxis(), outType.getRank());
    int64_t outer = 1;
    for (int64_t d = 0; d < axis; ++d)
      outer *= outType.getDimSize(d);
    char *dst = out.data();
    for (int64_t o = 0; o < outer; ++o)
      for (auto [v, bytes] : llvm::zip_equal(op->getOperands(), in)) {
        int64_t chunk = bytes.size() / std::max<int64_t>(outer, 1);
        std::memcpy(dst, bytes.data() + o * chunk, chunk);
        dst += chunk;
      }
  }
  return out;
}

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
    if (std::optional<std::vector<char>> bytes = moveBytes(op)) {
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      ElementsAttr attr;
      if (type.getNumElements() <= 16) {
        attr = DenseElementsAttr::getFromRawBuffer(type, *bytes);
      } else {
        std::string name = "folded";
        if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
          name = loc.getName().str();
        attr = DenseResourceElementsAttr::get(
            type, name, HeapAsmResourceBlob::allocateAndCopyWithAlign(*bytes, alignof(uint64_t)));
      }
      rewriter.replaceOpWithNewOp<ConstantOp>(op, attr);
      return success();
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
