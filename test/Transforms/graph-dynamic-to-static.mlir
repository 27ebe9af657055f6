// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-dynamic-to-static))" | FileCheck %s

// CHECK-LABEL: func @constant_shape
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @constant_shape(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %s = graph.constant dense<[6, 4]> : tensor<2xi64>
  %0 = graph.dynamic_reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// The shape is computed from constants (folded first), with 0 and -1.
// CHECK-LABEL: func @folded_shape
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK-NEXT: return %[[R]]
func.func @folded_shape(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %a = graph.constant dense<[0]> : tensor<1xi64>
  %b = graph.constant dense<[-1]> : tensor<1xi64>
  %s = graph.concat %a, %b {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %0 = graph.dynamic_reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  return %0 : tensor<2x12xf32>
}

// -----

// CHECK-LABEL: func @negative_shape_is_input
// CHECK: graph.dynamic_reshape
func.func @negative_shape_is_input(%x: tensor<2x3x4xf32>, %s: tensor<2xi64>) -> tensor<6x4xf32> {
  %0 = graph.dynamic_reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// A constant shape that disagrees with the result type is left for the run
// to report.
// CHECK-LABEL: func @negative_wrong_constant_shape
// CHECK: graph.dynamic_reshape
func.func @negative_wrong_constant_shape(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %s = graph.constant dense<[4, 6]> : tensor<2xi64>
  %0 = graph.dynamic_reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}
