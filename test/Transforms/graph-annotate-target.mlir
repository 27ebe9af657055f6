// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-annotate-target{targets=%S/Inputs/target-a.txt,%S/Inputs/target-b.txt}))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-annotate-target{targets=%S/Inputs/target-a.txt,%S/Inputs/target-b.txt}))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// The priority is the list's order: with lib_b first, it takes the convolutions too.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-annotate-target{targets=%S/Inputs/target-b.txt,%S/Inputs/target-a.txt}))" | FileCheck %s --check-prefix=BFIRST
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-annotate-target))" 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-annotate-target{targets=%S/Inputs/missing.txt}))" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-annotate-target{targets=%S/Inputs/target-empty.txt}))" 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-annotate-target{targets=%S/Inputs/target-unknown-op.txt}))" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// STATS: graph-annotate-target: annotated 5, default 2, lib_a 2, lib_b 3
// NONE: graph-annotate-target: no targets given (targets=NAME,... : builtin names or description files)
// MISSING: graph-annotate-target: cannot read target description '{{.*}}missing.txt'
// EMPTY: graph-annotate-target: target description '{{.*}}target-empty.txt' (target empty) lists no ops or composites to annotate
// UNKNOWN: graph-annotate-target: target description '{{.*}}target-unknown-op.txt': unknown graph op 'frobnicate'

// lib_a takes convolutions, lib_b convolutions, relu and add: the first in
// the list wins. Constants are not annotated; softmax stays with the default
// compilation. The function records each target's backend.
// CHECK-LABEL: func @block
// CHECK-SAME: attributes {graph.target_backends = {lib_a = "cpu", lib_b = "cpu"}}
// CHECK: graph.constant
// CHECK-NOT: graph.target
// CHECK: %[[C:.*]] = graph.conv2d %arg0, %{{.*}} {graph.target = "lib_a"}
// CHECK: %[[A:.*]] = graph.add %[[C]], %{{.*}} {graph.target = "lib_b"}
// CHECK: %[[R:.*]] = graph.relu %[[A]] {graph.target = "lib_b"}
// CHECK: %[[S:.*]] = graph.softmax %[[R]] {axis = 1 : i64} : tensor<1x2x4x4xf32>
// CHECK: graph.conv2d %[[S]], %{{.*}} {graph.target = "lib_a"}
// BFIRST-LABEL: func @block
// BFIRST-SAME: attributes {graph.target_backends = {lib_b = "cpu"}}
// BFIRST: graph.conv2d %arg0, %{{.*}} {graph.target = "lib_b"}
// BFIRST: graph.conv2d %{{.*}}, %{{.*}} {graph.target = "lib_b"}
func.func @block(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<0.1> : tensor<2x2x1x1xf32>
  %b = graph.constant dense<0.5> : tensor<2x1x1xf32>
  %c = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = graph.add %c, %b : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = graph.relu %a : tensor<1x2x4x4xf32>
  %s = graph.softmax %r {axis = 1 : i64} : tensor<1x2x4x4xf32>
  %c2 = graph.conv2d %s, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}

// -----

// A composite is taken by name (lib_b lists dense_gelu); its inner ops are
// not annotated one by one.
// CHECK-LABEL: func @composite
// CHECK: graph.composite "dense_gelu" %arg0, %{{.*}} {graph.target = "lib_b"}
// CHECK-NOT: graph.target
// CHECK: return
func.func @composite(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %w = graph.constant dense<0.1> : tensor<8x8xf32>
  %g = graph.composite "dense_gelu" %x, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%a: tensor<2x8xf32>, %k: tensor<8x8xf32>):
    %d = graph.dense %a, %k : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
    %e = graph.gelu %d : tensor<2x8xf32>
    graph.yield %e : tensor<2x8xf32>
  }
  return %g : tensor<2x8xf32>
}

// -----

// Nothing here is taken by either target, and fused regions are never
// annotated (partition before FuseOps).
// CHECK-LABEL: func @negative_unsupported
// CHECK-NOT: graph.target
// CHECK: return
func.func @negative_unsupported(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %s = graph.softmax %x {axis = 1 : i64} : tensor<2x8xf32>
  %f = graph.fused %s : (tensor<2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%a: tensor<2x8xf32>):
    %r = graph.relu %a : tensor<2x8xf32>
    graph.yield %r : tensor<2x8xf32>
  }
  return %f : tensor<2x8xf32>
}
