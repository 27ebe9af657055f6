// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fuse-ops))" | FileCheck %s
// Fusion level 0: one region per op, as TVM's opt_level 0.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fuse-ops{fuse-opt-level=0}))" | FileCheck %s --check-prefix=LEVEL0
// max-depth bounds a group.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fuse-ops{max-depth=2}))" | FileCheck %s --check-prefix=DEPTH
// FuseOps after DefuseOps makes the same groups, and FuseOps is idempotent.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fuse-ops))" -o %t.once.mlir
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fuse-ops,graph-defuse-ops,graph-fuse-ops))" -o %t.again.mlir
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fuse-ops,graph-fuse-ops))" -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.again.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fuse-ops))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: not dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fuse-ops{max-depth=0}))" 2>&1 | FileCheck %s --check-prefix=BAD

// STATS: graph-fuse-ops: fused-ops {{[1-9][0-9]*}}, groups {{[1-9][0-9]*}}
// BAD: graph-fuse-ops: max-depth must be >= 1, got 0

// conv2d + bias + relu: the conv2d (out_elemwise_fusable) joins its
// elementwise post-dominator; the scalar-free bias is an operand.
// CHECK-LABEL: func @conv_bias_relu
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>
// CHECK-DAG: %[[W:.*]] = graph.constant dense<1.000000e+00> : tensor<3x2x1x1xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<5.000000e-01> : tensor<3x1x1xf32>
// CHECK: %[[F:.*]] = graph.fused %[[X]], %[[W]], %[[B]] {pattern = "out_elemwise_fusable"}
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<1x2x4x4xf32>, %[[A1:.*]]: tensor<3x2x1x1xf32>, %[[A2:.*]]: tensor<3x1x1xf32>):
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[A0]], %[[A1]]
// CHECK-NEXT: %[[S:.*]] = graph.add %[[C]], %[[A2]]
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[S]]
// CHECK-NEXT: graph.yield %[[R]]
// CHECK: return %[[F]]
// LEVEL0-LABEL: func @conv_bias_relu
// LEVEL0-COUNT-3: graph.fused
// LEVEL0-NOT: graph.fused
// LEVEL0: return
// DEPTH-LABEL: func @conv_bias_relu
// DEPTH: graph.fused {{.*}}pattern = "out_elemwise_fusable"
// DEPTH-NEXT: ^bb0
// DEPTH-NEXT: graph.conv2d
// DEPTH-NEXT: graph.add
// DEPTH-NEXT: graph.yield
// DEPTH: graph.fused {{.*}}pattern = "elemwise"
// DEPTH-NEXT: ^bb0
// DEPTH-NEXT: graph.relu
func.func @conv_bias_relu(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %w = graph.constant dense<1.0> : tensor<3x2x1x1xf32>
  %b = graph.constant dense<0.5> : tensor<3x1x1xf32>
  %c = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %s = graph.add %c, %b : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = graph.relu %s : tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

// -----

// A residual block: conv2d + residual add + relu is one group; the block's
// input (used by the conv2d and the add) stays outside it. Scalar constants
// are copied into the region.
// CHECK-LABEL: func @residual
// CHECK: %[[F1:.*]] = graph.fused %arg0, %{{.*}} {pattern = "out_elemwise_fusable"}
// CHECK: graph.conv2d
// CHECK-NEXT: graph.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: graph.mul
// CHECK-NEXT: graph.yield
// CHECK: %[[F2:.*]] = graph.fused %[[F1]], %{{.*}}, %arg0 {pattern = "out_elemwise_fusable"}
// CHECK: graph.conv2d
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.yield
// CHECK: return %[[F2]]
func.func @residual(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %two = graph.constant dense<2.0> : tensor<f32>
  %c1 = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %m = graph.mul %c1, %two : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %c2 = graph.conv2d %m, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = graph.add %c2, %x : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %r = graph.relu %a : tensor<1x2x4x4xf32>
  return %r : tensor<1x2x4x4xf32>
}

// -----

// Elementwise ops fuse into a reduction that post-dominates them (the group
// is a reduction); the reduction's consumer is a group of its own (a
// reduction never starts a fusion).
// CHECK-LABEL: func @into_reduction
// CHECK: %[[F:.*]] = graph.fused %arg0 {pattern = "comm_reduce"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.exp
// CHECK-NEXT: graph.reduce_sum
// CHECK-NEXT: graph.yield
// CHECK: graph.fused %[[F]] {pattern = "elemwise"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.log
func.func @into_reduction(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = graph.exp %x : tensor<4x8xf32>
  %s = graph.reduce_sum %e {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %l = graph.log %s : tensor<4xf32>
  return %l : tensor<4xf32>
}

// -----

// Injective chains fuse in phase 1.
// CHECK-LABEL: func @injective_chain
// CHECK: graph.fused %arg0 {pattern = "injective"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.reshape
// CHECK-NEXT: graph.transpose
// CHECK-NEXT: graph.reshape
// CHECK-NEXT: graph.yield
func.func @injective_chain(%x: tensor<2x12xf32>) -> tensor<24xf32> {
  %r = graph.reshape %x : (tensor<2x12xf32>) -> tensor<2x3x4xf32>
  %t = graph.transpose %r {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %f = graph.reshape %t : (tensor<2x4x3xf32>) -> tensor<24xf32>
  return %f : tensor<24xf32>
}

// -----

// Two out_elemwise_fusable ops never share a group: dense -> dense.
// CHECK-LABEL: func @negative_two_anchors
// CHECK: %[[F1:.*]] = graph.fused %arg0, %{{.*}} {pattern = "out_elemwise_fusable"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.dense
// CHECK-NEXT: graph.yield
// CHECK: graph.fused %[[F1]], %{{.*}} {pattern = "out_elemwise_fusable"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.dense
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.yield
func.func @negative_two_anchors(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %w = graph.constant dense<0.25> : tensor<4x4xf32>
  %d1 = graph.dense %x, %w : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %d2 = graph.dense %d1, %w : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %r = graph.relu %d2 : tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}

// -----

// An opaque op (dropout, as in TVM) is a group of its own and nothing fuses
// across it.
// CHECK-LABEL: func @negative_opaque
// CHECK: graph.fused %arg0 {pattern = "elemwise"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.yield
// CHECK: graph.fused %{{.*}} {pattern = "opaque"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.dropout
// CHECK-NEXT: graph.yield
// CHECK: graph.fused %{{.*}} {pattern = "elemwise"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.exp
func.func @negative_opaque(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = graph.relu %x : tensor<8xf32>
  %d = graph.dropout %r {rate = 0.1 : f64} : tensor<8xf32>
  %e = graph.exp %d : tensor<8xf32>
  return %e : tensor<8xf32>
}

// -----

// A conv2d whose result is also returned has no post-dominator: it is not
// fused into its consumer.
// CHECK-LABEL: func @negative_returned
// CHECK: %[[C:.*]] = graph.fused %arg0, %{{.*}} {pattern = "out_elemwise_fusable"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.conv2d
// CHECK-NEXT: graph.yield
// CHECK: %[[R:.*]] = graph.fused %[[C]] {pattern = "elemwise"}
// CHECK: return %[[C]], %[[R]]
func.func @negative_returned(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %c = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = graph.relu %c : tensor<1x2x4x4xf32>
  return %c, %r : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// An existing region (here a composite, which DefuseOps keeps) is opaque:
// left alone, nothing fused into it.
// CHECK-LABEL: func @negative_existing_region
// CHECK: %[[F:.*]] = graph.composite "custom_exp" %arg0
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.exp
// CHECK-NEXT: graph.yield
// CHECK: graph.fused %[[F]] {pattern = "elemwise"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.relu
func.func @negative_existing_region(%x: tensor<8xf32>) -> tensor<8xf32> {
  %f = graph.composite "custom_exp" %x : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>):
    %e = graph.exp %a : tensor<8xf32>
    graph.yield %e : tensor<8xf32>
  }
  %r = graph.relu %f : tensor<8xf32>
  return %r : tensor<8xf32>
}
