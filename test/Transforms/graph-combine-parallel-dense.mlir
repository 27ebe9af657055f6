// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-combine-parallel-dense))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-combine-parallel-dense{to-batch-matmul=false}))" | FileCheck %s --check-prefix=CONCAT
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-combine-parallel-dense{min-num-branches=4}))" | FileCheck %s --check-prefix=MIN4
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-combine-parallel-dense))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: graph-combine-parallel-dense: branches 6, combined 2, followers 2

// Query, key and value projections of one hidden state: one batch_matmul
// of the input stacked [3, rows, in] and the stacked transposed weights
// [3, in, out]; the biases stacked and added; the relu followers combined;
// branches split back.
// CHECK-LABEL: func @qkv
// CHECK-SAME: %[[X:.*]]: tensor<1x4x8xf32>
// CHECK-DAG: %[[W:.*]] = graph.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<3x8x8xf32>
// CHECK-DAG: %[[L:.*]] = graph.concat %[[X]], %[[X]], %[[X]] {axis = 0 : i64} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<3x4x8xf32>
// CHECK: %[[M:.*]] = graph.batch_matmul %[[L]], %[[W]] : (tensor<3x4x8xf32>, tensor<3x8x8xf32>) -> tensor<3x4x8xf32>
// CHECK: %[[B:.*]] = graph.concat {{.*}} -> tensor<3x1x8xf32>
// CHECK: %[[A:.*]] = graph.add %[[M]], %[[B]]
// CHECK: %[[R:.*]] = graph.relu %[[A]] : tensor<3x4x8xf32>
// CHECK: %[[S:.*]]:3 = graph.split %[[R]] {axis = 0 : i64}
// CHECK-NOT: graph.dense
// CHECK: return %[[S]]#0, %[[S]]#1, %[[S]]#2
// CONCAT-LABEL: func @qkv
// CONCAT-DAG: %[[W:.*]] = graph.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<24x8xf32>
// CONCAT-DAG: %[[B:.*]] = graph.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<24xf32>
// CONCAT: %[[D:.*]] = graph.dense %arg0, %[[W]], %[[B]] : (tensor<1x4x8xf32>, tensor<24x8xf32>, tensor<24xf32>) -> tensor<1x4x24xf32>
// CONCAT: %[[R:.*]] = graph.relu %[[D]] : tensor<1x4x24xf32>
// CONCAT: graph.split %[[R]] {axis = 2 : i64} : (tensor<1x4x24xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>)
// MIN4-LABEL: func @qkv
// MIN4-COUNT-3: graph.dense
func.func @qkv(%x: tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
  %wq = graph.constant dense<0.1> : tensor<8x8xf32>
  %wk = graph.constant dense<0.2> : tensor<8x8xf32>
  %wv = graph.constant dense<0.3> : tensor<8x8xf32>
  %bq = graph.constant dense<1.0> : tensor<8xf32>
  %bk = graph.constant dense<2.0> : tensor<8xf32>
  %bv = graph.constant dense<3.0> : tensor<8xf32>
  %q = graph.dense %x, %wq, %bq : (tensor<1x4x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  %k = graph.dense %x, %wk, %bk : (tensor<1x4x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  %v = graph.dense %x, %wv, %bv : (tensor<1x4x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  %rq = graph.relu %q : tensor<1x4x8xf32>
  %rk = graph.relu %k : tensor<1x4x8xf32>
  %rv = graph.relu %v : tensor<1x4x8xf32>
  return %rq, %rk, %rv : tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
}

// -----

// Followers with per-branch operands: a per-column scale is concatenated
// (stacked in batch mode); the combination stops at the first level where
// the branches differ (exp on one, tanh on another).
// CHECK-LABEL: func @followers
// CHECK-COUNT-3: graph.transpose %{{.*}} {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK: graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<3x2x3xf32>, tensor<3x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK: %[[C:.*]] = graph.concat {{.*}} -> tensor<3x1x4xf32>
// CHECK: %[[M:.*]] = graph.mul %{{.*}}, %[[C]] : (tensor<3x2x4xf32>, tensor<3x1x4xf32>) -> tensor<3x2x4xf32>
// CHECK: graph.split %[[M]]
// CHECK-DAG: graph.exp
// CHECK-DAG: graph.tanh
// CHECK-DAG: graph.sigmoid
// CONCAT-LABEL: func @followers
// CONCAT: %[[C:.*]] = graph.concat {{.*}} {axis = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x12xf32>
// CONCAT: graph.mul %{{.*}}, %[[C]] : (tensor<2x12xf32>, tensor<1x12xf32>) -> tensor<2x12xf32>
func.func @followers(%x: tensor<2x3xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %w1 = graph.constant dense<0.1> : tensor<4x3xf32>
  %w2 = graph.constant dense<0.2> : tensor<4x3xf32>
  %w3 = graph.constant dense<0.3> : tensor<4x3xf32>
  %s1 = graph.constant dense<1.0> : tensor<4xf32>
  %s2 = graph.constant dense<2.0> : tensor<4xf32>
  %s3 = graph.constant dense<3.0> : tensor<4xf32>
  %d1 = graph.dense %x, %w1 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %d2 = graph.dense %x, %w2 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %d3 = graph.dense %x, %w3 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %m1 = graph.mul %d1, %s1 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %m2 = graph.mul %d2, %s2 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %m3 = graph.mul %d3, %s3 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %e1 = graph.exp %m1 : tensor<2x4xf32>
  %e2 = graph.tanh %m2 : tensor<2x4xf32>
  %e3 = graph.sigmoid %m3 : tensor<2x4xf32>
  return %e1, %e2, %e3 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// Two branches are fewer than min-num-branches (3); different input
// features never combine; a bias on some branches only splits the group.
// CHECK-LABEL: func @negative_two_branches
// CHECK-COUNT-2: graph.dense
// CHECK-NOT: graph.batch_matmul
func.func @negative_two_branches(%x: tensor<2x3xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %w1 = graph.constant dense<0.1> : tensor<4x3xf32>
  %w2 = graph.constant dense<0.2> : tensor<4x3xf32>
  %d1 = graph.dense %x, %w1 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %d2 = graph.dense %x, %w2 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return %d1, %d2 : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func @negative_mixed_bias
// CHECK-COUNT-3: graph.dense
// CHECK-NOT: graph.batch_matmul
func.func @negative_mixed_bias(%x: tensor<2x3xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %w = graph.constant dense<0.1> : tensor<4x3xf32>
  %b = graph.constant dense<1.0> : tensor<4xf32>
  %d1 = graph.dense %x, %w, %b : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %d2 = graph.dense %x, %w : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %d3 = graph.dense %x, %w : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return %d1, %d2, %d3 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
