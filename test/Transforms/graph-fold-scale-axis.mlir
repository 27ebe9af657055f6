// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fold-scale-axis))" | FileCheck %s

// Batch norm after SimplifyInference and FoldConstant: the scale lands in the
// conv weights and is folded there; only the shift add remains.
// CHECK-LABEL: func @conv_bn
// CHECK-NEXT: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}-1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %arg0, %[[W]]
// CHECK-NEXT: %[[K:.*]] = graph.constant
// CHECK-NEXT: %[[Y:.*]] = graph.add %[[C]], %[[K]]
// CHECK-NEXT: return %[[Y]]
func.func @conv_bn(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[1.0]]]]> : tensor<2x1x1x1xf32>
  %c = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %s = graph.constant dense<[[[2.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %m = graph.mul %c, %s : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %k = graph.constant dense<[[[0.5]], [[0.25]]]> : tensor<2x1x1xf32>
  %y = graph.add %m, %k : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// CHECK-LABEL: func @negative_no_scale
// CHECK-NEXT: graph.conv2d
// CHECK-NEXT: graph.relu
func.func @negative_no_scale(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32> {
  %c = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %r = graph.relu %c : tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
