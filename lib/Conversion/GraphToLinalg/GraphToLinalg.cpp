//===- GraphToLinalg.cpp - graph ops to linalg on tensors ------------------===//
//
// Each graph op becomes linalg/tensor/arith/math ops with the reference
// interpreter's semantics. The patterns live by op family (Lowerings.h);
// this file holds the pass, constants, and the widening of f16/bf16
// products and reductions to f32.
//
//===----------------------------------------------------------------------===//
#include "Lowerings.h"
#include "dlc/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace dlc {
#define GEN_PASS_DEF_CONVERTGRAPHTOLINALGPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

using namespace dlc::lowering;

namespace {

struct ConstantLowering : GraphPattern<ConstantOp> {
  using GraphPattern::GraphPattern;
  LogicalResult matchAndRewrite(ConstantOp op, Adaptor, ConversionPatternRewriter &r) const override {
    // LLVM materializes a constant element by element: a large splat is
    // filled at run time instead.
    auto splat = dyn_cast<DenseElementsAttr>(op.getValue());
    if (splat && splat.isSplat() && op.getType().getNumElements() >= kFillElements) {
      Value scalar = arith::ConstantOp::create(
          r, op.getLoc(), cast<TypedAttr>(splat.getSplatValue<Attribute>()));
      Value empty = tensor::EmptyOp::create(r, op.getLoc(), op.getType().getShape(),
                                            op.getType().getElementType());
      r.replaceOpWithNewOp<linalg::FillOp>(op, scalar, empty);
      return success();
    }
    // LLVM has no constant arrays of i1: booleans are stored as bytes and
    // truncated.
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (dense && op.getType().getElementType().isInteger(1)) {
      SmallVector<int8_t> bytes;
      for (bool v : dense.getValues<bool>())
        bytes.push_back(v);
      auto byteType = RankedTensorType::get(op.getType().getShape(), r.getI8Type());
      Value asBytes = arith::ConstantOp::create(
          r, op.getLoc(), DenseElementsAttr::get(byteType, ArrayRef<int8_t>(bytes)));
      r.replaceOp(op, elementwise(r, op.getLoc(), op.getType(), asBytes,
                                  [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                                    return arith::TruncIOp::create(b, l, r.getI1Type(), v[0]);
                                  }));
      return success();
    }
    r.replaceOpWithNewOp<arith::ConstantOp>(op, cast<TypedAttr>(op.getValue()));
    return success();
  }
  static constexpr int64_t kFillElements = int64_t(1) << 20;
};

struct ConvertGraphToLinalgPass
    : dlc::impl::ConvertGraphToLinalgPassBase<ConvertGraphToLinalgPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Region ops lower as their bodies: inline them first.
    SmallVector<Operation *> regionOps;
    func.walk([&](Operation *op) {
      if (isa<FusedOp, CompositeOp>(op))
        regionOps.push_back(op);
    });
    for (Operation *op : llvm::reverse(regionOps))
      inlineRegionOp(op);
    ConversionTarget target(getContext());
    target.addIllegalDialect<GraphDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect, math::MathDialect,
                           tensor::TensorDialect, func::FuncDialect, scf::SCFDialect,
                           memref::MemRefDialect, bufferization::BufferizationDialect>();
    RewritePatternSet patterns(&getContext());
    populateGraphToLinalgConversionPatterns(patterns);
    if (failed(applyFullConversion(func, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

/// Products, convolutions and reductions of f16/bf16 accumulate in f32, as
/// the reference does to within its one final rounding: the operands are
/// widened, the op computed in f32 (by its f32 kernels) and its result
/// rounded once, instead of rounding every partial sum.
template <typename OpTy>
struct WidenLowPrecision : GraphPattern<OpTy> {
  WidenLowPrecision(MLIRContext *ctx) : GraphPattern<OpTy>(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (op->getNumResults() != 1 || !isNarrowFloat(type.getElementType()))
      return r.notifyMatchFailure(op, "not an f16/bf16 result");
    if (auto conv = dyn_cast<Conv2DOp>(op.getOperation()); conv && lowersNarrowItself(conv))
      return r.notifyMatchFailure(op, "lowered in its own type");
    Location loc = op.getLoc();
    Type f32 = r.getF32Type();
    SmallVector<Value> wide;
    for (Value v : a.getOperands()) {
      auto t = cast<RankedTensorType>(v.getType());
      wide.push_back(isNarrowFloat(t.getElementType())
                         ? Value(CastOp::create(r, loc, t.clone(f32), v))
                         : v);
    }
    OperationState state(loc, op->getName());
    state.addOperands(wide);
    state.addAttributes(op->getAttrDictionary().getValue());
    state.addTypes(type.clone(f32));
    Operation *wideOp = r.create(state);
    r.replaceOpWithNewOp<CastOp>(op, type, wideOp->getResult(0));
    return success();
  }
};

void dlc::populateGraphToLinalgConversionPatterns(RewritePatternSet &p) {
  p.add<WidenLowPrecision<Conv2DOp>, WidenLowPrecision<DenseOp>, WidenLowPrecision<MatmulOp>,
        WidenLowPrecision<BatchMatmulOp>, WidenLowPrecision<AvgPool2DOp>,
        WidenLowPrecision<GlobalAvgPool2DOp>, WidenLowPrecision<ReduceSumOp>,
        WidenLowPrecision<ReduceMeanOp>, WidenLowPrecision<SoftmaxOp>,
        WidenLowPrecision<LayerNormOp>>(p.getContext());
  p.add<ConstantLowering>(p.getContext());
  populateElementwiseLoweringPatterns(p);
  populateLinearLoweringPatterns(p);
  populatePoolingLoweringPatterns(p);
  populateNormalizationLoweringPatterns(p);
  populateReductionsLoweringPatterns(p);
  populateShapeLoweringPatterns(p);
  populateQuantizationLoweringPatterns(p);
  populateDetectionLoweringPatterns(p);
}
