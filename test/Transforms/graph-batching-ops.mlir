// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-batching-ops))" | FileCheck %s
// RUN: dlc-opt %s --dlc-pipeline=list:BatchingOps --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: graph-batching-ops: runs 1
// STATS: graph-combine-parallel-batch-matmul: branches 0, combined 0, followers 0
// STATS: graph-combine-parallel-conv2d: branches 0, combined 0, followers 0
// STATS: graph-combine-parallel-dense: branches 3, combined 1, followers 0

// The three combiners with their defaults: dense into batch_matmul.
// CHECK-LABEL: func @dense_branches
// CHECK: graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<3x2x3xf32>, tensor<3x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK-NOT: graph.dense
func.func @dense_branches(%x: tensor<2x3xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %w1 = graph.constant dense<0.1> : tensor<4x3xf32>
  %w2 = graph.constant dense<0.2> : tensor<4x3xf32>
  %w3 = graph.constant dense<0.3> : tensor<4x3xf32>
  %d1 = graph.dense %x, %w1 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %d2 = graph.dense %x, %w2 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %d3 = graph.dense %x, %w3 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return %d1, %d2, %d3 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
