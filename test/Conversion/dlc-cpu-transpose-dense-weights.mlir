// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-transpose-dense-weights))" | FileCheck %s

// A dense with a constant weight [2, 3] becomes a matmul with the weight
// stored [3, 2] (element [j, i] = W[i, j]) plus the bias.
// CHECK-LABEL: func @dense
// CHECK: %[[W:.*]] = graph.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK: %[[Y:.*]] = graph.matmul %arg0, %[[W]] : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
// CHECK: %[[Z:.*]] = graph.add %[[Y]], %arg1
// CHECK: return %[[Z]]
// CHECK-NOT: graph.dense
func.func @dense(%x: tensor<4x3xf32>, %b: tensor<2xf32>) -> tensor<4x2xf32> {
  %w = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %y = graph.dense %x, %w, %b : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// A weight computed at run time stays where it is.
// CHECK-LABEL: func @negative_computed_weight
// CHECK: graph.dense %arg0, %arg1
// CHECK-NOT: graph.matmul
func.func @negative_computed_weight(%x: tensor<4x3xf32>, %w: tensor<2x3xf32>) -> tensor<4x2xf32> {
  %y = graph.dense %x, %w : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// A dense in a fused kernel whose weight is a constant operand of the
// region: the transposed constant is passed in instead of the original.
// CHECK-LABEL: func @fused_dense
// CHECK: %[[W:.*]] = graph.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK: graph.fused %arg0, %[[W]] {pattern = "out_elemwise_fusable"} : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<4x3xf32>, %[[T:.*]]: tensor<3x2xf32>):
// CHECK-NEXT: %[[Y:.*]] = graph.matmul %[[X]], %[[T]]
// CHECK-NEXT: graph.relu %[[Y]]
func.func @fused_dense(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %f = graph.fused %x, %w {pattern = "out_elemwise_fusable"} : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32> {
  ^bb0(%a: tensor<4x3xf32>, %b: tensor<2x3xf32>):
    %y = graph.dense %a, %b : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
    %r = graph.relu %y : tensor<4x2xf32>
    graph.yield %r : tensor<4x2xf32>
  }
  return %f : tensor<4x2xf32>
}
