// Constants of 2^33 elements (32 GiB of f32 splats): the passes that look at
// constants must neither read them into memory nor fail; they leave them or
// fold identities from the splat value alone.
// RUN: dlc-opt %s --graph-simplify-expr | FileCheck %s --check-prefix=SIMPLIFY
// RUN: dlc-opt %s --graph-fold-constant | FileCheck %s --check-prefix=FOLD
// RUN: dlc-opt %s --graph-backward-fold-scale-axis | FileCheck %s --check-prefix=SCALE
// RUN: dlc-opt %s --graph-fold-scale-axis | FileCheck %s --check-prefix=SCALE

// SIMPLIFY-LABEL: func @mul_by_one
// SIMPLIFY-NEXT: return %arg0
// FOLD-LABEL: func @mul_by_one
// FOLD: graph.mul
// SCALE-LABEL: func @mul_by_one
// SCALE: graph.mul
func.func @mul_by_one(%x: tensor<8589934592xf32>) -> tensor<8589934592xf32> {
  %c = graph.constant dense<1.0> : tensor<8589934592xf32>
  %y = graph.mul %x, %c : (tensor<8589934592xf32>, tensor<8589934592xf32>) -> tensor<8589934592xf32>
  return %y : tensor<8589934592xf32>
}

// FOLD-LABEL: func @relu_of_constant
// FOLD: graph.relu
func.func @relu_of_constant() -> tensor<8589934592xf32> {
  %c = graph.constant dense<1.0> : tensor<8589934592xf32>
  %y = graph.relu %c : tensor<8589934592xf32>
  return %y : tensor<8589934592xf32>
}

// A result of more than 2^28 elements is not computed at compile time, even
// when its operands are splats that cost nothing (kept out of
// graph-fold-constant.mlir, whose functions the equivalence test evaluates).
// FOLD-LABEL: func @negative_too_large
// FOLD: graph.add
func.func @negative_too_large() -> tensor<16384x16385xf32> {
  %c = graph.constant dense<1.0> : tensor<16384x16385xf32>
  %0 = graph.add %c, %c : (tensor<16384x16385xf32>, tensor<16384x16385xf32>) -> tensor<16384x16385xf32>
  return %0 : tensor<16384x16385xf32>
}
