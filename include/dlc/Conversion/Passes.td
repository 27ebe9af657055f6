//===- Passes.td - dlc conversion passes -------------------*- tablegen -*-===//
#ifndef DLC_CONVERSION_PASSES_TD
#define DLC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGraphToLinalgPass
    : Pass<"convert-graph-to-linalg", "mlir::func::FuncOp"> {
  let summary = "Lower graph ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Every graph op becomes named linalg ops where they exist (convolutions in
    NCHW/OIHW and NHWC/HWIO, depthwise and grouped; pooling; transpose) and
    `linalg.generic` elsewhere (elementwise math with numpy broadcasting,
    contractions for dense/matmul/batch_matmul, reductions, normalizations,
    gathers), with `tensor` ops for shape changes. `graph.fused` and
    `graph.composite` bodies are inlined first. An op that has no lowering
    (e.g. `graph.nms`, or a `graph.dynamic_reshape` whose shape is not a
    constant) is reported and the pass fails.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect", "mlir::tensor::TensorDialect",
  ];
}

#endif // DLC_CONVERSION_PASSES_TD
