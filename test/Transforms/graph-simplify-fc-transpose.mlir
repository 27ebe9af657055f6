// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-simplify-fc-transpose))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-simplify-fc-transpose))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: graph-simplify-fc-transpose: rewrites 1

// The weight [3, 2] transposed at compile time to [2, 3].
// CHECK-LABEL: func @transposed_weight
// CHECK: %[[W:.*]] = graph.constant dense<{{\[}}[1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-NOT: graph.transpose
// CHECK: graph.dense %arg0, %[[W]] : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
func.func @transposed_weight(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = graph.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %y = graph.dense %x, %t : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// A transpose of a computed weight stays.
// CHECK-LABEL: func @negative_computed
// CHECK: graph.transpose %arg1
func.func @negative_computed(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %y = graph.dense %x, %t : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
