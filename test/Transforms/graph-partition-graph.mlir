// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(graph-partition-graph)" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(graph-partition-graph)" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// The whole flow, through a pipeline list as a user writes it (AnnotateTarget
// and MergeCompilerRegions replace the annotations written here).
// RUN: dlc-opt %s -split-input-file --dlc-pipeline="list:AnnotateTarget{targets=%dlc_src_root/examples/targets/cpu-ext.txt},MergeCompilerRegions,PartitionGraph" | FileCheck %s --check-prefix=FLOW

// STATS: graph-partition-graph: constants 3, ops 9, partitions 5
// FLOW-LABEL: func @regions
// FLOW: call @regions_cpu_ext_0(%arg0)
// FLOW: graph.softmax
// FLOW: call @regions_cpu_ext_1(

// Two regions (as MergeCompilerRegions leaves them): each becomes a private
// function for its target, with the constants it reads copied in; the
// function keeps the softmax the target did not take.
// CHECK-LABEL: func @regions
// CHECK-NOT: graph.target_backends
// CHECK: %[[P0:.*]] = call @regions_ext_0(%arg0) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[S:.*]] = graph.softmax %[[P0]]
// CHECK: %[[P1:.*]] = call @regions_ext_1(%[[S]], %[[P0]])
// CHECK: return %[[P1]]
// CHECK: func.func private @regions_ext_0(%[[X:.*]]: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> attributes {graph.backend = "cpu", graph.compiler = "ext"}
// CHECK-DAG: %[[W:.*]] = graph.constant dense<1.000000e-01> : tensor<2x2x1x1xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<5.000000e-01> : tensor<2x1x1xf32>
// CHECK: %[[C:.*]] = graph.conv2d %[[X]], %[[W]] :
// CHECK: %[[A:.*]] = graph.add %[[C]], %[[B]] :
// CHECK: %[[R:.*]] = graph.relu %[[A]] :
// CHECK: return %[[R]]
// CHECK: func.func private @regions_ext_1(%[[S1:.*]]: tensor<1x2x4x4xf32>, %[[R1:.*]]: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> attributes {graph.backend = "cpu", graph.compiler = "ext"}
// CHECK: %[[C2:.*]] = graph.conv2d %[[S1]], %{{.*}} :
// CHECK: graph.add %[[C2]], %[[R1]] :
func.func @regions(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> attributes {graph.target_backends = {ext = "cpu"}} {
  %w = graph.constant dense<0.1> : tensor<2x2x1x1xf32>
  %b = graph.constant dense<0.5> : tensor<2x1x1xf32>
  %c = graph.conv2d %x, %w {graph.region = 0 : i64, graph.target = "ext"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = graph.add %c, %b {graph.region = 0 : i64, graph.target = "ext"} : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = graph.relu %a {graph.region = 0 : i64, graph.target = "ext"} : tensor<1x2x4x4xf32>
  %s = graph.softmax %r {axis = 1 : i64} : tensor<1x2x4x4xf32>
  %c2 = graph.conv2d %s, %w {graph.region = 1 : i64, graph.target = "ext"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %o = graph.add %c2, %r {graph.region = 1 : i64, graph.target = "ext"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %o : tensor<1x2x4x4xf32>
}

// -----

// Without MergeCompilerRegions every annotated op is a partition of its
// own; without a recorded backend, the backend is the target's name.
// CHECK-LABEL: func @lone
// CHECK: %[[A:.*]] = call @lone_lib_0(%arg0)
// CHECK: call @lone_lib_1(%[[A]])
// CHECK: func.func private @lone_lib_0({{.*}} attributes {graph.backend = "lib", graph.compiler = "lib"}
// CHECK-NEXT: graph.relu
// CHECK: func.func private @lone_lib_1({{.*}} attributes {graph.backend = "lib", graph.compiler = "lib"}
// CHECK-NEXT: graph.exp
func.func @lone(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x {graph.target = "lib"} : tensor<4xf32>
  %e = graph.exp %r {graph.target = "lib"} : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// A region whose members are not adjacent: the exp between them reads the
// first member, so it moves behind the call.
// CHECK-LABEL: func @interleaved
// CHECK: %[[P:.*]]:2 = call @interleaved_ext_0(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[E:.*]] = graph.exp %[[P]]#0
// CHECK: graph.add %[[E]], %[[P]]#1
// CHECK: func.func private @interleaved_ext_0
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.sigmoid
func.func @interleaved(%x: tensor<4xf32>) -> tensor<4xf32> attributes {graph.target_backends = {ext = "cpu"}} {
  %r = graph.relu %x {graph.region = 0 : i64, graph.target = "ext"} : tensor<4xf32>
  %e = graph.exp %r : tensor<4xf32>
  %s = graph.sigmoid %x {graph.region = 0 : i64, graph.target = "ext"} : tensor<4xf32>
  %a = graph.add %e, %s : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// An annotated op whose result nobody reads is not outlined: its
// annotations go, DeadCodeElimination removes it.
// CHECK-LABEL: func @negative_dead
// CHECK-NOT: call
// CHECK: graph.relu %arg0 : tensor<4xf32>
// CHECK-NOT: func.func private
func.func @negative_dead(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x {graph.target = "ext"} : tensor<4xf32>
  %e = graph.exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @negative_unannotated
// CHECK-NOT: call
// CHECK-NOT: func.func private
func.func @negative_unannotated(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
