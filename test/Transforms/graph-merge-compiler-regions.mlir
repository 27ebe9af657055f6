// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-merge-compiler-regions))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-merge-compiler-regions))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: graph-merge-compiler-regions: cycles-avoided 1, merged 6, regions 4

// A chain of one target is one region; the softmax between is not in it.
// The last add reads both the second convolution and the first region:
// merging it into the first region would make that region feed the
// softmax and read its result (a cycle), so it joins the second only.
// CHECK-LABEL: func @cycle
// CHECK: graph.conv2d %arg0, %{{.*}} {graph.region = 0 : i64, graph.target = "ext"}
// CHECK: graph.add %{{.*}} {graph.region = 0 : i64, graph.target = "ext"}
// CHECK: graph.relu %{{.*}} {graph.region = 0 : i64, graph.target = "ext"}
// CHECK: graph.softmax
// CHECK-NOT: graph.region
// CHECK: graph.conv2d %{{.*}} {graph.region = 1 : i64, graph.target = "ext"}
// CHECK: graph.add %{{.*}} {graph.region = 1 : i64, graph.target = "ext"}
func.func @cycle(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<0.1> : tensor<2x2x1x1xf32>
  %b = graph.constant dense<0.5> : tensor<2x1x1xf32>
  %c = graph.conv2d %x, %w {graph.target = "ext"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = graph.add %c, %b {graph.target = "ext"} : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = graph.relu %a {graph.target = "ext"} : tensor<1x2x4x4xf32>
  %s = graph.softmax %r {axis = 1 : i64} : tensor<1x2x4x4xf32>
  %c2 = graph.conv2d %s, %w {graph.target = "ext"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %o = graph.add %c2, %r {graph.target = "ext"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %o : tensor<1x2x4x4xf32>
}

// -----

// Two branches of one target that meet in an add: one region (no op
// outside it lies between them). Ops of another target never merge.
// Regions are numbered per function.
// CHECK-LABEL: func @diamond
// CHECK: graph.relu %arg0 {graph.region = 0 : i64, graph.target = "ext"}
// CHECK: graph.exp %arg0 {graph.region = 1 : i64, graph.target = "other"}
// CHECK: graph.sigmoid %arg0 {graph.region = 0 : i64, graph.target = "ext"}
// CHECK: graph.add %{{.*}} {graph.region = 0 : i64, graph.target = "ext"}
// CHECK: graph.mul %{{.*}} {graph.region = 1 : i64, graph.target = "other"}
func.func @diamond(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x {graph.target = "ext"} : tensor<4xf32>
  %e = graph.exp %x {graph.target = "other"} : tensor<4xf32>
  %s = graph.sigmoid %x {graph.target = "ext"} : tensor<4xf32>
  %a = graph.add %r, %s {graph.target = "ext"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %m = graph.mul %a, %e {graph.target = "other"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

// Without annotations there is nothing to merge.
// CHECK-LABEL: func @negative_unannotated
// CHECK-NOT: graph.region
func.func @negative_unannotated(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x : tensor<4xf32>
  %e = graph.exp %r : tensor<4xf32>
  return %e : tensor<4xf32>
}
