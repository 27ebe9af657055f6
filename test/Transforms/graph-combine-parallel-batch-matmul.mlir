// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-combine-parallel-batch-matmul))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-combine-parallel-batch-matmul))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: graph-combine-parallel-batch-matmul: branches 3, combined 1, followers 1

// Three lhs x rhs^T products of one lhs: the right-hand sides concatenated
// along N, one product, the shared scalar multiply combined, results split
// along the last axis.
// CHECK-LABEL: func @shared_lhs
// CHECK: %[[R:.*]] = graph.concat %arg1, %arg2, %arg3 {axis = 1 : i64} : (tensor<2x3x5xf32>, tensor<2x4x5xf32>, tensor<2x3x5xf32>) -> tensor<2x10x5xf32>
// CHECK: %[[M:.*]] = graph.batch_matmul %arg0, %[[R]] {transpose_b = true} : (tensor<2x6x5xf32>, tensor<2x10x5xf32>) -> tensor<2x6x10xf32>
// CHECK: %[[S:.*]] = graph.mul %[[M]], %{{.*}} : (tensor<2x6x10xf32>, tensor<f32>) -> tensor<2x6x10xf32>
// CHECK: graph.split %[[S]] {axis = 2 : i64} : (tensor<2x6x10xf32>) -> (tensor<2x6x3xf32>, tensor<2x6x4xf32>, tensor<2x6x3xf32>)
func.func @shared_lhs(%l: tensor<2x6x5xf32>, %r1: tensor<2x3x5xf32>, %r2: tensor<2x4x5xf32>, %r3: tensor<2x3x5xf32>)
    -> (tensor<2x6x3xf32>, tensor<2x6x4xf32>, tensor<2x6x3xf32>) {
  %s = graph.constant dense<0.5> : tensor<f32>
  %m1 = graph.batch_matmul %l, %r1 {transpose_b = true} : (tensor<2x6x5xf32>, tensor<2x3x5xf32>) -> tensor<2x6x3xf32>
  %m2 = graph.batch_matmul %l, %r2 {transpose_b = true} : (tensor<2x6x5xf32>, tensor<2x4x5xf32>) -> tensor<2x6x4xf32>
  %m3 = graph.batch_matmul %l, %r3 {transpose_b = true} : (tensor<2x6x5xf32>, tensor<2x3x5xf32>) -> tensor<2x6x3xf32>
  %a1 = graph.mul %m1, %s : (tensor<2x6x3xf32>, tensor<f32>) -> tensor<2x6x3xf32>
  %a2 = graph.mul %m2, %s : (tensor<2x6x4xf32>, tensor<f32>) -> tensor<2x6x4xf32>
  %a3 = graph.mul %m3, %s : (tensor<2x6x3xf32>, tensor<f32>) -> tensor<2x6x3xf32>
  return %a1, %a2, %a3 : tensor<2x6x3xf32>, tensor<2x6x4xf32>, tensor<2x6x3xf32>
}

// -----

// Without transpose_b TVM does not combine (and neither does dlc).
// CHECK-LABEL: func @negative_not_transposed
// CHECK-COUNT-3: graph.batch_matmul
// CHECK-NOT: graph.concat
func.func @negative_not_transposed(%l: tensor<2x6x5xf32>, %r: tensor<2x5x3xf32>)
    -> (tensor<2x6x3xf32>, tensor<2x6x3xf32>, tensor<2x6x3xf32>) {
  %m1 = graph.batch_matmul %l, %r : (tensor<2x6x5xf32>, tensor<2x5x3xf32>) -> tensor<2x6x3xf32>
  %m2 = graph.batch_matmul %l, %r : (tensor<2x6x5xf32>, tensor<2x5x3xf32>) -> tensor<2x6x3xf32>
  %m3 = graph.batch_matmul %l, %r : (tensor<2x6x5xf32>, tensor<2x5x3xf32>) -> tensor<2x6x3xf32>
  return %m1, %m2, %m3 : tensor<2x6x3xf32>, tensor<2x6x3xf32>, tensor<2x6x3xf32>
}
