// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-forward-fold-scale-axis))" | FileCheck %s

// CHECK-LABEL: func @scale_then_conv
// CHECK: %[[S:.*]] = graph.constant dense<{{\[\[\[}}2.000000e+00]], {{\[\[}}3.000000e+00]]]> : tensor<2x1x1xf32>
// CHECK: %[[W:.*]] = graph.mul %arg1, %[[S]] : (tensor<4x2x3x3xf32>, tensor<2x1x1xf32>)
// CHECK: graph.conv2d %arg0, %[[W]]
// CHECK-NOT: graph.mul %arg0
func.func @scale_then_conv(%x: tensor<1x2x4x4xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32> {
  %s = graph.constant dense<[[[2.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %0 = graph.mul %x, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.conv2d %0, %w : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32>
  return %1 : tensor<1x4x2x2xf32>
}

// -----

// Through relu (positive scale) and an add of a constant (which becomes c / s).
// CHECK-LABEL: func @through_relu_and_add
// CHECK: %[[K:.*]] = graph.div %{{.*}}, %{{.*}} : (tensor<2x1x1xf32>, tensor<2x1x1xf32>)
// CHECK: %[[A:.*]] = graph.add %arg0, %[[K]]
// CHECK: %[[R:.*]] = graph.relu %[[A]]
// CHECK: graph.conv2d %[[R]]
func.func @through_relu_and_add(%x: tensor<1x2x4x4xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32> {
  %s = graph.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %0 = graph.mul %x, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %k = graph.constant dense<[[[1.0]], [[1.0]]]> : tensor<2x1x1xf32>
  %1 = graph.add %0, %k : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %2 = graph.relu %1 : tensor<1x2x4x4xf32>
  %3 = graph.conv2d %2, %w : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32>
  return %3 : tensor<1x4x2x2xf32>
}

// -----

// dense: the scale on the input features moves to the weight's columns.
// CHECK-LABEL: func @scale_then_dense
// CHECK: graph.mul %arg1, %{{.*}} : (tensor<5x3xf32>, tensor<3xf32>)
// CHECK: graph.dense %arg0
func.func @scale_then_dense(%x: tensor<4x3xf32>, %w: tensor<5x3xf32>) -> tensor<4x5xf32> {
  %s = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = graph.mul %x, %s : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %1 = graph.dense %0, %w : (tensor<4x3xf32>, tensor<5x3xf32>) -> tensor<4x5xf32>
  return %1 : tensor<4x5xf32>
}

// -----

// CHECK-LABEL: func @negative_zero_scale_through_add
// CHECK: graph.mul %arg0
func.func @negative_zero_scale_through_add(%x: tensor<1x2x4x4xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32> {
  %s = graph.constant dense<[[[2.0]], [[0.0]]]> : tensor<2x1x1xf32>
  %0 = graph.mul %x, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %k = graph.constant dense<1.0> : tensor<f32>
  %1 = graph.add %0, %k : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %2 = graph.conv2d %1, %w : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// -----

// CHECK-LABEL: func @negative_negative_scale_through_relu
// CHECK: graph.mul %arg0
func.func @negative_negative_scale_through_relu(%x: tensor<1x2x4x4xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32> {
  %s = graph.constant dense<[[[2.0]], [[-3.0]]]> : tensor<2x1x1xf32>
  %0 = graph.mul %x, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.relu %0 : tensor<1x2x4x4xf32>
  %2 = graph.conv2d %1, %w : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// -----

// CHECK-LABEL: func @negative_grouped_conv
// CHECK: graph.mul %arg0
func.func @negative_grouped_conv(%x: tensor<1x4x4x4xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32> {
  %s = graph.constant dense<[[[2.0]], [[3.0]], [[4.0]], [[5.0]]]> : tensor<4x1x1xf32>
  %0 = graph.mul %x, %s : (tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %1 = graph.conv2d %0, %w {groups = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32>
  return %1 : tensor<1x4x2x2xf32>
}

// -----

// The scaled value has another use.
// CHECK-LABEL: func @negative_multiple_uses
// CHECK: %[[M:.*]] = graph.mul %arg0
// CHECK: graph.conv2d %[[M]]
func.func @negative_multiple_uses(%x: tensor<1x2x4x4xf32>, %w: tensor<4x2x3x3xf32>) -> (tensor<1x4x2x2xf32>, tensor<1x2x4x4xf32>) {
  %s = graph.constant dense<[[[2.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %0 = graph.mul %x, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.conv2d %0, %w : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32>
  return %1, %0 : tensor<1x4x2x2xf32>, tensor<1x2x4x4xf32>
}

// -----

// A scale along H is not per input channel.
// CHECK-LABEL: func @negative_not_per_channel
// CHECK: graph.mul %arg0
func.func @negative_not_per_channel(%x: tensor<1x2x4x4xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32> {
  %s = graph.constant dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32>
  %0 = graph.mul %x, %s : (tensor<1x2x4x4xf32>, tensor<4x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.conv2d %0, %w : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32>
  return %1 : tensor<1x4x2x2xf32>
}
