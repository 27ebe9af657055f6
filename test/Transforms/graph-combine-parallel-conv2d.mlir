// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-combine-parallel-conv2d))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-combine-parallel-conv2d{min-num-branches=2}))" | FileCheck %s --check-prefix=MIN2
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-combine-parallel-conv2d))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: graph-combine-parallel-conv2d: branches 3, combined 1, followers 2

// An inception-like block: three 1x1 convolutions of one input with
// different output channels become one; the bias adds (per-channel
// constants, concatenated) and the relus follow combined; the results are
// split along the channels.
// CHECK-LABEL: func @inception
// CHECK: %[[W:.*]] = graph.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<2x4x1x1xf32>, tensor<3x4x1x1xf32>, tensor<1x4x1x1xf32>) -> tensor<6x4x1x1xf32>
// CHECK: %[[C:.*]] = graph.conv2d %arg0, %[[W]] : (tensor<1x4x5x5xf32>, tensor<6x4x1x1xf32>) -> tensor<1x6x5x5xf32>
// CHECK: %[[B:.*]] = graph.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<1x2x1x1xf32>, tensor<1x3x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x6x1x1xf32>
// CHECK: %[[A:.*]] = graph.add %[[C]], %[[B]]
// CHECK: %[[R:.*]] = graph.relu %[[A]] : tensor<1x6x5x5xf32>
// CHECK: %[[S:.*]]:3 = graph.split %[[R]] {axis = 1 : i64} : (tensor<1x6x5x5xf32>) -> (tensor<1x2x5x5xf32>, tensor<1x3x5x5xf32>, tensor<1x1x5x5xf32>)
// CHECK: return %[[S]]#0, %[[S]]#1, %[[S]]#2
func.func @inception(%x: tensor<1x4x5x5xf32>) -> (tensor<1x2x5x5xf32>, tensor<1x3x5x5xf32>, tensor<1x1x5x5xf32>) {
  %w1 = graph.constant dense<0.1> : tensor<2x4x1x1xf32>
  %w2 = graph.constant dense<0.2> : tensor<3x4x1x1xf32>
  %w3 = graph.constant dense<0.3> : tensor<1x4x1x1xf32>
  %b1 = graph.constant dense<1.0> : tensor<2x1x1xf32>
  %b2 = graph.constant dense<2.0> : tensor<3x1x1xf32>
  %b3 = graph.constant dense<3.0> : tensor<1x1x1xf32>
  %c1 = graph.conv2d %x, %w1 : (tensor<1x4x5x5xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x5x5xf32>
  %c2 = graph.conv2d %x, %w2 : (tensor<1x4x5x5xf32>, tensor<3x4x1x1xf32>) -> tensor<1x3x5x5xf32>
  %c3 = graph.conv2d %x, %w3 : (tensor<1x4x5x5xf32>, tensor<1x4x1x1xf32>) -> tensor<1x1x5x5xf32>
  %a1 = graph.add %c1, %b1 : (tensor<1x2x5x5xf32>, tensor<2x1x1xf32>) -> tensor<1x2x5x5xf32>
  %a2 = graph.add %c2, %b2 : (tensor<1x3x5x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32>
  %a3 = graph.add %c3, %b3 : (tensor<1x1x5x5xf32>, tensor<1x1x1xf32>) -> tensor<1x1x5x5xf32>
  %r1 = graph.relu %a1 : tensor<1x2x5x5xf32>
  %r2 = graph.relu %a2 : tensor<1x3x5x5xf32>
  %r3 = graph.relu %a3 : tensor<1x1x5x5xf32>
  return %r1, %r2, %r3 : tensor<1x2x5x5xf32>, tensor<1x3x5x5xf32>, tensor<1x1x5x5xf32>
}

// -----

// Kernel sizes or strides differ, a convolution is grouped: nothing to
// combine (even with two branches allowed, the 3x3 and the strided one
// differ from the rest).
// CHECK-LABEL: func @negative_mismatch
// CHECK-COUNT-4: graph.conv2d
// CHECK-NOT: graph.concat
// MIN2-LABEL: func @negative_mismatch
// MIN2-COUNT-4: graph.conv2d
// MIN2-NOT: graph.split
func.func @negative_mismatch(%x: tensor<1x4x6x6xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x4x4xf32>, tensor<1x4x3x3xf32>, tensor<1x4x6x6xf32>) {
  %w1 = graph.constant dense<0.1> : tensor<4x4x1x1xf32>
  %w3 = graph.constant dense<0.1> : tensor<4x4x3x3xf32>
  %wg = graph.constant dense<0.1> : tensor<4x2x1x1xf32>
  %c1 = graph.conv2d %x, %w1 : (tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %c2 = graph.conv2d %x, %w3 : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  %c3 = graph.conv2d %x, %w1 {strides = array<i64: 2, 2>} : (tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x3x3xf32>
  %c4 = graph.conv2d %x, %wg {groups = 2 : i64} : (tensor<1x4x6x6xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x6x6xf32>
  return %c1, %c2, %c3, %c4 : tensor<1x4x6x6xf32>, tensor<1x4x4x4xf32>, tensor<1x4x3x3xf32>, tensor<1x4x6x6xf32>
}
