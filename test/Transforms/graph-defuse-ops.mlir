// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-defuse-ops))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-defuse-ops))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: graph-defuse-ops: defused 2

// Both regions become their bodies, operands for arguments.
// CHECK-LABEL: func @fused
// CHECK-NOT: graph.fused
// CHECK: %[[C:.*]] = graph.conv2d %arg0, %{{.*}}
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[C]]
// CHECK-NEXT: %[[E:.*]] = graph.exp %[[R]]
// CHECK-NEXT: return %[[E]]
func.func @fused(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %f = graph.fused %x, %w {pattern = "out_elemwise_fusable"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  ^bb0(%a: tensor<1x2x4x4xf32>, %b: tensor<2x2x1x1xf32>):
    %c = graph.conv2d %a, %b : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %r = graph.relu %c : tensor<1x2x4x4xf32>
    graph.yield %r : tensor<1x2x4x4xf32>
  }
  %g = graph.fused %f {pattern = "elemwise"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  ^bb0(%a: tensor<1x2x4x4xf32>):
    %e = graph.exp %a : tensor<1x2x4x4xf32>
    graph.yield %e : tensor<1x2x4x4xf32>
  }
  return %g : tensor<1x2x4x4xf32>
}

// -----

// A composite (a named match of MergeComposite) is not a fused group: kept.
// CHECK-LABEL: func @negative_composite
// CHECK: graph.composite "dense_relu"
func.func @negative_composite(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %w = graph.constant dense<0.5> : tensor<4x4xf32>
  %y = graph.composite "dense_relu" %x, %w : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%a: tensor<1x4xf32>, %b: tensor<4x4xf32>):
    %d = graph.dense %a, %b : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
    %r = graph.relu %d : tensor<1x4xf32>
    graph.yield %r : tensor<1x4xf32>
  }
  return %y : tensor<1x4xf32>
}
