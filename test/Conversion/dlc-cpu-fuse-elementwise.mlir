// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(convert-graph-to-linalg,dlc-cpu-fuse-elementwise))" | FileCheck %s

// exp then relu: one loop nest.
// CHECK-LABEL: func @chain
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
func.func @chain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = graph.exp %x : tensor<8xf32>
  %1 = graph.relu %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// The erf before a matmul is not fused into it (it would be recomputed for
// every step of the reduction).
// CHECK-LABEL: func @negative_into_contraction
// CHECK: math.erf
// CHECK: linalg.yield
// CHECK: linalg.generic
// CHECK-NOT: math.erf
func.func @negative_into_contraction(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = graph.erf %x : tensor<4x8xf32>
  %1 = graph.matmul %0, %w : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
