// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-canonicalize-ops))" | FileCheck %s

// CHECK-LABEL: func @bias_add_nchw
// CHECK: %[[B:.*]] = graph.expand_dims %arg1 {axes = array<i64: 1, 2>} : (tensor<4xf32>) -> tensor<4x1x1xf32>
// CHECK: graph.add %arg0, %[[B]] : (tensor<1x4x2x2xf32>, tensor<4x1x1xf32>) -> tensor<1x4x2x2xf32>
// CHECK-NOT: graph.bias_add
func.func @bias_add_nchw(%x: tensor<1x4x2x2xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %0 = graph.bias_add %x, %b : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// On the last axis the bias broadcasts as it is.
// CHECK-LABEL: func @bias_add_last_axis
// CHECK-NEXT: graph.add %arg0, %arg1 : (tensor<2x4xf32>, tensor<4xf32>)
func.func @bias_add_last_axis(%x: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = graph.bias_add %x, %b {axis = -1 : i64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Only bias_add is rewritten.
// CHECK-LABEL: func @negative_other_ops
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.batch_norm
func.func @negative_other_ops(%x: tensor<1x4x2x2xf32>, %b: tensor<4x1x1xf32>, %p: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %0 = graph.add %x, %b : (tensor<1x4x2x2xf32>, tensor<4x1x1xf32>) -> tensor<1x4x2x2xf32>
  %1 = graph.batch_norm %0, %p, %p, %p, %p : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %1 : tensor<1x4x2x2xf32>
}
