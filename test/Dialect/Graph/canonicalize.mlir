// RUN: dlc-opt %s -split-input-file --canonicalize | FileCheck %s

// The graph dialect's identities are folders and canonicalization patterns,
// so MLIR's canonicalize applies them (SimplifyExpr applies and counts them).

// CHECK-LABEL: func @identities
// CHECK-NOT: graph.add
// CHECK-NOT: graph.sub
// CHECK-NOT: graph.mul
// CHECK-NOT: graph.div
// CHECK: return %arg0
func.func @identities(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %zero = graph.constant dense<0.0> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<4xf32>
  %0 = graph.add %x, %zero : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %1 = graph.add %zero, %0 : (tensor<f32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = graph.sub %1, %zero : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %3 = graph.mul %one, %2 : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %4 = graph.div %3, %one : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %4 : tensor<2x4xf32>
}

// -----

// 0 - x and 1 / x are not identities; x + 0 that broadcasts x is not either.
// CHECK-LABEL: func @negative_identities
// CHECK: graph.sub
// CHECK: graph.div
// CHECK: graph.add
func.func @negative_identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>) {
  %zero = graph.constant dense<0.0> : tensor<4xf32>
  %one = graph.constant dense<1.0> : tensor<4xf32>
  %zeros = graph.constant dense<0.0> : tensor<2x4xf32>
  %0 = graph.sub %zero, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.div %one, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.add %x, %zeros : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func @reshapes
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0 : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT: return %[[R]], %arg1
func.func @reshapes(%x: tensor<2x3xf32>, %y: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %0 = graph.expand_dims %x {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %1 = graph.reshape %0 : (tensor<1x2x3xf32>) -> tensor<3x2xf32>
  %2 = graph.reshape %1 : (tensor<3x2xf32>) -> tensor<6xf32>
  %3 = graph.reshape %y : (tensor<6xf32>) -> tensor<6xf32>
  return %2, %3 : tensor<6xf32>, tensor<6xf32>
}

// -----

// CHECK-LABEL: func @transposes
// CHECK-NEXT: %[[T:.*]] = graph.transpose %arg0 {perm = array<i64: 2, 0, 1>}
// CHECK-NEXT: return %[[T]], %arg0, %arg0
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %0 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = graph.transpose %0 {perm = array<i64: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %2 = graph.transpose %0 {perm = array<i64: 1, 0, -1>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %3 = graph.transpose %x {perm = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %1, %2, %3 : tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func @casts
// CHECK-NEXT: %[[C:.*]] = graph.cast %arg0 : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT: return %[[C]]
func.func @casts(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.cast %0 : (tensor<4xf32>) -> tensor<4xf16>
  return %1 : tensor<4xf16>
}
