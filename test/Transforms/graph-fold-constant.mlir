// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fold-constant))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fold-constant{fold-qnn=true}))" | FileCheck %s --check-prefix=QNN
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fold-constant{size-limit=2}))" | FileCheck %s --check-prefix=LIMIT

// CHECK-LABEL: func @fold_chain
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<[5.000000e+00, 1.250000e+01]> : tensor<2xf32>
// CHECK-NEXT: %[[R:.*]] = graph.add %arg0, %[[C]]
// CHECK-NEXT: return %[[R]]
func.func @fold_chain(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = graph.constant dense<[2.0, 3.5]> : tensor<2xf32>
  %0 = graph.mul %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.add %0, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = graph.add %1, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = graph.add %x, %2 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %3 : tensor<2xf32>
}

// -----

// Shape computations fold through reshape, transpose, concat and casts; a
// large result becomes a dense_resource blob, never decimal text.
// CHECK-LABEL: func @fold_shapes_and_weights
// CHECK: graph.constant dense<[1, 4]> : tensor<2xi64>
// CHECK: graph.constant dense_resource<{{.*}}> : tensor<4x8xf32>
// CHECK-NOT: graph.transpose
func.func @fold_shapes_and_weights() -> (tensor<2xi64>, tensor<4x8xf32>) {
  %a = graph.constant dense<[[1]]> : tensor<1x1xi64>
  %b = graph.constant dense<[4]> : tensor<1xi64>
  %r = graph.reshape %a : (tensor<1x1xi64>) -> tensor<1xi64>
  %s = graph.concat %r, %b {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %w = graph.constant dense_resource<weights> : tensor<8x4xf32>
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %s, %t : tensor<2xi64>, tensor<4x8xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E8410000F0410000F841"
    }
  }
#-}

// -----

// A large result whose constant operand is still used elsewhere is not
// folded (it would be materialized twice); with one use it is.
// LIMIT-LABEL: func @negative_large_live_operand
// LIMIT: graph.transpose
// LIMIT-LABEL: func @large_dead_operand
// LIMIT-NOT: graph.transpose
func.func @negative_large_live_operand(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %w = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %u = graph.add %x, %w : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %t, %u : tensor<3x2xf32>, tensor<2x3xf32>
}
func.func @large_dead_operand() -> tensor<3x2xf32> {
  %w = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}

// -----

// An op with a non-constant operand stays.
// CHECK-LABEL: func @negative_not_all_constant
// CHECK: graph.mul %arg0
func.func @negative_not_all_constant(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = graph.constant dense<2.0> : tensor<2xf32>
  %0 = graph.mul %x, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Nothing inside a fused region is folded (TVM: Primitive functions).
// CHECK-LABEL: func @negative_inside_fused
// CHECK: graph.fused
// CHECK: graph.mul
func.func @negative_inside_fused(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = graph.fused %x : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %c = graph.constant dense<2.0> : tensor<2xf32>
    %d = graph.mul %c, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %e = graph.add %a, %d : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    graph.yield %e : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

// Gather indices out of range clamp (graph.gather), folded as on every target.
// CHECK-LABEL: func @gather_clamps
// CHECK: graph.constant dense<[2.000000e+00, 1.000000e+00]>
// CHECK-NOT: graph.gather
func.func @gather_clamps() -> tensor<2xf32> {
  %t = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %i = graph.constant dense<[5, -7]> : tensor<2xi64>
  %0 = graph.gather %t, %i : (tensor<2xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// NaN propagates through max and relu (ONNX, and what the CPU computes).
// CHECK-LABEL: func @nan_propagates
// CHECK: graph.constant dense<[0x7FC00000, 1.000000e+00, 0.000000e+00]>
// CHECK: graph.constant dense<0x7FC00000> : tensor<f32>
func.func @nan_propagates() -> (tensor<3xf32>, tensor<f32>) {
  %x = graph.constant dense<[0x7FC00000, 1.0, -1.0]> : tensor<3xf32>
  %0 = graph.relu %x : tensor<3xf32>
  %1 = graph.reduce_max %x {axes = array<i64: 0>} : (tensor<3xf32>) -> tensor<f32>
  return %0, %1 : tensor<3xf32>, tensor<f32>
}

// -----

// Quantization is kept (TVM's fold_qnn=false) for FakeQuantizationToInteger,
// unless fold-qnn is set.
// CHECK-LABEL: func @negative_dequantize
// CHECK: graph.dequantize
// QNN-LABEL: func @negative_dequantize
// QNN: graph.constant dense<[5.000000e-01, -1.000000e+00]> : tensor<2xf32>
// QNN-NOT: graph.dequantize
func.func @negative_dequantize() -> tensor<2xf32> {
  %q = graph.constant dense<[5, -10]> : tensor<2xi8>
  %s = graph.constant dense<0.1> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %0 = graph.dequantize %q, %s, %z : (tensor<2xi8>, tensor<f32>, tensor<i8>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
