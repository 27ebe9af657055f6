// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-eliminate-common-subexpr))" | FileCheck %s

// CHECK-LABEL: func @same_ops
// CHECK: %[[A:.*]] = graph.relu %arg0
// CHECK-NOT: graph.relu
// CHECK: %[[B:.*]] = graph.add %[[A]], %[[A]]
// CHECK: return %[[B]], %[[B]]
func.func @same_ops(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.relu %x : tensor<4xf32>
  %1 = graph.relu %x : tensor<4xf32>
  %2 = graph.add %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.add %1, %0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %2, %3 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Equal scalar constants count as the same operand.
// CHECK-LABEL: func @equal_scalar_constants
// CHECK: %[[M:.*]] = graph.mul
// CHECK-NOT: graph.mul
// CHECK: return %[[M]], %[[M]]
func.func @equal_scalar_constants(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = graph.constant dense<2.0> : tensor<f32>
  %b = graph.constant dense<2.0> : tensor<f32>
  %0 = graph.mul %x, %a : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = graph.mul %x, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func @negative_different_attrs
// CHECK: graph.softmax %arg0 {axis = 0 : i64}
// CHECK: graph.softmax %arg0 {axis = 1 : i64}
func.func @negative_different_attrs(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = graph.softmax %x {axis = 0 : i64} : tensor<2x2xf32>
  %1 = graph.softmax %x {axis = 1 : i64} : tensor<2x2xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// Constants themselves (no operands) are not merged, nor are region ops;
// non-scalar constants with equal values are different operands.
// CHECK-LABEL: func @negative_constants_and_regions
// CHECK: graph.constant dense<[1.000000e+00, 2.000000e+00]>
// CHECK: graph.constant dense<[1.000000e+00, 2.000000e+00]>
// CHECK: graph.add
// CHECK: graph.add
// CHECK: graph.fused
// CHECK: graph.fused
func.func @negative_constants_and_regions(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = graph.add %x, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.add %x, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = graph.fused %x : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%y: tensor<2xf32>):
    %r = graph.relu %y : tensor<2xf32>
    graph.yield %r : tensor<2xf32>
  }
  %3 = graph.fused %x : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%y: tensor<2xf32>):
    %r = graph.relu %y : tensor<2xf32>
    graph.yield %r : tensor<2xf32>
  }
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
