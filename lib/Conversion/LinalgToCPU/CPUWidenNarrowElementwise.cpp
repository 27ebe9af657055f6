//===- CPUWidenNarrowElementwise.cpp - f16/bf16 elementwise chains in f32 -===//
//
// An elementwise linalg.generic computing on f16 or bf16 values computes in
// f32 instead: inputs widened once, one rounding per yielded value, the
// roundings inside the body gone (Passes.td says why).
//
//===----------------------------------------------------------------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"

namespace dlc {
#define GEN_PASS_DEF_CPUWIDENNARROWELEMENTWISEPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

static bool isNarrow(Type t) { return t.isBF16() || t.isF16(); }

static bool touchesNarrow(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isNarrow) ||
         llvm::any_of(op->getResultTypes(), isNarrow);
}

/// Whether `op` computes the same in f32 on widened operands, its narrow
/// results rounded later: arithmetic and math functions of one type,
/// comparisons, selects and conversions (not a bitcast, which reads the
/// narrow bits).
static bool widens(Operation *op) {
  if (isa<linalg::YieldOp, linalg::IndexOp, arith::ConstantOp, arith::CmpFOp, arith::SelectOp,
          arith::ExtFOp, arith::TruncFOp, arith::FPToSIOp, arith::FPToUIOp, arith::SIToFPOp,
          arith::UIToFPOp>(op))
    return true;
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         op->hasTrait<OpTrait::SameOperandsAndResultType>();
}

/// Whether `op`'s body computes on narrow values (more than converting
/// them) with ops that all widen.
static bool worthWidening(linalg::GenericOp op) {
  if (op.getNumParallelLoops() != op.getNumLoops())
    return false;
  bool computes = false;
  for (Operation &inner : op.getBlock()->getOperations()) {
    if (!widens(&inner))
      return false;
    computes |= touchesNarrow(&inner) &&
                !isa<arith::ExtFOp, arith::TruncFOp, arith::ConstantOp, linalg::YieldOp>(inner);
  }
  return computes;
}

namespace {
struct CPUWidenNarrowElementwisePass
    : dlc::impl::CPUWidenNarrowElementwisePassBase<CPUWidenNarrowElementwisePass> {
  void runOnOperation() override {
    int64_t widened = 0, ops = 0;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!worthWidening(op))
        return;
      ops += widenBody(op);
      ++widened;
    });
    dlc::recordPassStat(getArgument(), "widened", widened);
    dlc::recordPassStat(getArgument(), "ops", ops);
  }

  /// Rewrites `op`'s body in f32; returns how many of its ops computed in
  /// f16 or bf16 (each rounding its result) and now compute in f32.
  int64_t widenBody(linalg::GenericOp op) {
    Block &body = *op.getBlock();
    OpBuilder b(op.getContext());
    Type f32 = b.getF32Type();
    IRMapping wide; // a narrow value defined before the op being rewritten -> its f32 value
    auto widen = [&](Value v) -> Value {
      if (!isNarrow(v.getType()))
        return v;
      if (Value w = wide.lookupOrNull(v))
        return w;
      Value w = arith::ExtFOp::create(b, v.getLoc(), f32, v);
      wide.map(v, w);
      return w;
    };
    int64_t ops = 0;
    for (Operation &inner : llvm::make_early_inc_range(body.without_terminator())) {
      b.setInsertionPoint(&inner);
      if (auto trunc = dyn_cast<arith::TruncFOp>(inner);
          trunc && isNarrow(trunc.getType()) && trunc.getIn().getType().isF32()) {
        trunc.replaceAllUsesWith(trunc.getIn());
        trunc.erase();
        continue;
      }
      // A widening of a narrow value, or of one already computed in f32.
      if (auto ext = dyn_cast<arith::ExtFOp>(inner);
          ext && (isNarrow(ext.getIn().getType()) || ext.getIn().getType() == ext.getType())) {
        Value w = widen(ext.getIn());
        if (ext.getType() == w.getType()) {
          ext.replaceAllUsesWith(w);
          ext.erase();
        } else {
          ext.getInMutable().assign(w);
        }
        continue;
      }
      if (!touchesNarrow(&inner))
        continue;
      if (auto constant = dyn_cast<arith::ConstantOp>(inner)) {
        if (auto value = dyn_cast<FloatAttr>(constant.getValue())) {
          // Exact: f32 holds every f16 and bf16 value.
          Value w = arith::ConstantOp::create(b, constant.getLoc(),
                                              b.getF32FloatAttr(value.getValue().convertToFloat()));
          constant.replaceAllUsesWith(w);
          constant.erase();
        }
        continue;
      }
      for (OpOperand &operand : inner.getOpOperands())
        operand.set(widen(operand.get()));
      for (OpResult result : inner.getResults())
        if (isNarrow(result.getType()))
          result.setType(f32);
      ++ops;
    }
    // Each result rounded once, to its type.
    Operation *yield = body.getTerminator();
    b.setInsertionPoint(yield);
    for (auto [operand, out] : llvm::zip_equal(yield->getOpOperands(), op.getRegionOutputArgs())) {
      Type type = out.getType();
      Value v = operand.get();
      if (isNarrow(type) && v.getType() != type)
        operand.set(arith::TruncFOp::create(b, v.getLoc(), type, widen(v)));
    }
    return ops;
  }
};
} // namespace
