// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-backward-fold-scale-axis))" | FileCheck %s

// CHECK-LABEL: func @conv_scale
// CHECK: %[[S:.*]] = graph.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}3.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK: %[[W:.*]] = graph.mul %arg1, %[[S]]
// CHECK: %[[SB:.*]] = graph.constant dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK: %[[B:.*]] = graph.mul %arg2, %[[SB]]
// CHECK: %[[C:.*]] = graph.conv2d %arg0, %[[W]], %[[B]]
// CHECK-NOT: graph.mul
// CHECK: return %[[C]]
func.func @conv_scale(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>, %b: tensor<2xf32>) -> tensor<1x2x2x2xf32> {
  %c = graph.conv2d %x, %w, %b : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %s = graph.constant dense<[[[2.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %0 = graph.mul %c, %s : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// Through relu (positive scale) and an add of a constant shift, as batch
// norm leaves them after SimplifyInference.
// CHECK-LABEL: func @through_relu_and_add
// CHECK: graph.conv2d
// CHECK: %[[K:.*]] = graph.mul %{{.*}}, %{{.*}} : (tensor<2x1x1xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
// CHECK: graph.add %{{.*}}, %[[K]]
// CHECK: %[[R:.*]] = graph.relu
// CHECK-NEXT: return %[[R]]
func.func @through_relu_and_add(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %c = graph.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x2x2xf32>
  %k = graph.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %a = graph.add %c, %k : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %r = graph.relu %a : tensor<1x2x2x2xf32>
  %s = graph.constant dense<[[[2.0]], [[0.5]]]> : tensor<2x1x1xf32>
  %0 = graph.mul %r, %s : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// dense: the scale runs along the output features; bias_add's bias is scaled.
// CHECK-LABEL: func @dense_bias_add
// CHECK: graph.constant dense<{{\[\[}}2.000000e+00], [3.000000e+00]]> : tensor<2x1xf32>
// CHECK: graph.dense
// CHECK: graph.bias_add
// CHECK-NOT: graph.mul %{{.*}} : (tensor<4x2xf32>
func.func @dense_bias_add(%x: tensor<4x3xf32>, %w: tensor<2x3xf32>) -> tensor<4x2xf32> {
  %b = graph.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %d = graph.dense %x, %w : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  %e = graph.bias_add %d, %b {axis = 1 : i64} : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %s = graph.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %0 = graph.mul %e, %s : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// CHECK-LABEL: func @negative_negative_scale_through_relu
// CHECK: graph.relu
// CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<1x2x2x2xf32>
func.func @negative_negative_scale_through_relu(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %c = graph.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x2x2xf32>
  %r = graph.relu %c : tensor<1x2x2x2xf32>
  %s = graph.constant dense<[[[2.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %0 = graph.mul %r, %s : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// A scale that varies along H is not per channel.
// CHECK-LABEL: func @negative_not_per_channel
// CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<1x2x2x2xf32>, tensor<2x1xf32>)
func.func @negative_not_per_channel(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %c = graph.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x2x2xf32>
  %s = graph.constant dense<[[2.0], [3.0]]> : tensor<2x1xf32>
  %0 = graph.mul %c, %s : (tensor<1x2x2x2xf32>, tensor<2x1xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// The conv result has another use: folding would change it.
// CHECK-LABEL: func @negative_multiple_uses
// CHECK: %[[C:.*]] = graph.conv2d %arg0, %arg1 :
// CHECK: graph.mul %[[C]]
func.func @negative_multiple_uses(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %c = graph.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x2x2xf32>
  %s = graph.constant dense<[[[2.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %0 = graph.mul %c, %s : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  return %0, %c : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

// Grouped convolutions that are not depthwise are left alone (as in TVM).
// CHECK-LABEL: func @negative_grouped_conv
// CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<1x4x2x2xf32>
func.func @negative_grouped_conv(%x: tensor<1x4x4x4xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32> {
  %c = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32>
  %s = graph.constant dense<[[[2.0]], [[3.0]], [[4.0]], [[5.0]]]> : tensor<4x1x1xf32>
  %0 = graph.mul %c, %s : (tensor<1x4x2x2xf32>, tensor<4x1x1xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// bias_add with a bias that is not constant cannot absorb the scale.
// CHECK-LABEL: func @negative_bias_not_constant
// CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<4x2xf32>, tensor<2xf32>)
func.func @negative_bias_not_constant(%x: tensor<4x3xf32>, %w: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<4x2xf32> {
  %d = graph.dense %x, %w : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  %e = graph.bias_add %d, %b {axis = 1 : i64} : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %s = graph.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %0 = graph.mul %e, %s : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// The scale is not a constant.
// CHECK-LABEL: func @negative_non_constant_scale
// CHECK: graph.mul %{{.*}}, %arg2
func.func @negative_non_constant_scale(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>, %s: tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32> {
  %c = graph.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x2x2xf32>
  %0 = graph.mul %c, %s : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}
