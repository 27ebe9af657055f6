// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(convert-graph-to-linalg,dlc-cpu-fuse-elementwise))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(convert-graph-to-linalg,dlc-cpu-fuse-elementwise))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(convert-graph-to-linalg,dlc-cpu-fuse-elementwise{recompute-shared-math=true}))" | FileCheck %s --check-prefix=RECOMPUTE

// Over the cases below: the softmax's and the returned exponentials are
// read back, not recomputed.
// STATS: dlc-cpu-fuse-elementwise: kept 2

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

// -----

// A softmax's exponentials are summed (a reduction, which fusion does not
// take), so they stay in a buffer; the division reads them there instead of
// computing exp again.
// CHECK-LABEL: func @softmax
// CHECK-COUNT-1: math.exp
// CHECK-NOT: math.exp
// RECOMPUTE-LABEL: func @softmax
// RECOMPUTE-COUNT-2: math.exp
func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = graph.softmax %x {axis = -1 : i64} : tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// So are values a function returns: the relu reads the returned exp.
// CHECK-LABEL: func @returned
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK-NOT: math.exp
// CHECK: return
func.func @returned(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = graph.exp %x : tensor<8xf32>
  %1 = graph.relu %0 : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Arithmetic is cheaper computed again than read back: the add is fused
// into the relu though the reduction keeps it too.
// CHECK-LABEL: func @arithmetic_recomputed
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: arith.maximumf
func.func @arithmetic_recomputed(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x8xf32>) {
  %0 = graph.add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.reduce_sum %0 {axes = array<i64: 1>, keepdims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %2 = graph.relu %0 : tensor<4x8xf32>
  return %1, %2 : tensor<4x1xf32>, tensor<4x8xf32>
}
