// RUN: dlc-opt %s -split-input-file --dlc-outline-kernels | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-outline-kernels --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: dlc-outline-kernels: kernels 4, views 1

// A fused region becomes a private function called in its place; an op
// outside every region is a kernel of its own; small constants are copied
// into the kernel, and a view of a kernel's result stays in the caller.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK: %[[K:.*]] = call @main_kernel(%[[X]]) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[E:.*]] = call @main_kernel_0(%[[K]]) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[V:.*]] = graph.reshape %[[E]] : (tensor<1x2x4x4xf32>) -> tensor<2x16xf32>
// CHECK: return %[[V]]
// CHECK: func.func private @main_kernel_0(%[[A:.*]]: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> attributes {dlc.kernel = "graph.exp"}
// CHECK-NEXT: %[[X2:.*]] = graph.exp %[[A]]
// CHECK-NEXT: return %[[X2]]
// CHECK: func.func private @main_kernel(%[[A:.*]]: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> attributes {dlc.kernel = "out_elemwise_fusable"}
// CHECK-NEXT: %[[W:.*]] = graph.constant dense<1.000000e+00> : tensor<2x2x1x1xf32>
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[A]], %[[W]]
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[C]]
// CHECK-NEXT: return %[[R]]
func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<2x16xf32> {
  %w = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %f = graph.fused %x, %w {pattern = "out_elemwise_fusable"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  ^bb0(%a: tensor<1x2x4x4xf32>, %b: tensor<2x2x1x1xf32>):
    %c = graph.conv2d %a, %b : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %r = graph.relu %c : tensor<1x2x4x4xf32>
    graph.yield %r : tensor<1x2x4x4xf32>
  }
  %e = graph.exp %f : tensor<1x2x4x4xf32>
  %v = graph.reshape %e : (tensor<1x2x4x4xf32>) -> tensor<2x16xf32>
  return %v : tensor<2x16xf32>
}

// -----

// A region's trailing views move to the caller (a kernel never returns a
// view of its own buffer); a region of views only is inlined; a constant
// larger than max-constant-elements is passed.
// CHECK-LABEL: func.func @views
// CHECK: %[[W:.*]] = graph.constant dense<5.000000e-01> : tensor<128x64xf32>
// CHECK: %[[T:.*]] = call @views_kernel(%arg0, %[[W]])
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[T]] : (tensor<128x64xf32>) -> tensor<8192xf32>
// CHECK-NEXT: %[[S:.*]] = graph.reshape %[[R]] : (tensor<8192xf32>) -> tensor<128x64xf32>
// CHECK-NEXT: return %[[S]]
// CHECK: func.func private @views_kernel(%{{.*}}: tensor<128x64xf32>, %{{.*}}: tensor<128x64xf32>) -> tensor<128x64xf32>
// CHECK-NEXT: graph.add
// CHECK-NEXT: return
func.func @views(%x: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %w = graph.constant dense<0.5> : tensor<128x64xf32>
  %f = graph.fused %x, %w {pattern = "injective"} : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<8192xf32> {
  ^bb0(%a: tensor<128x64xf32>, %b: tensor<128x64xf32>):
    %s = graph.add %a, %b : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x64xf32>
    %r = graph.reshape %s : (tensor<128x64xf32>) -> tensor<8192xf32>
    graph.yield %r : tensor<8192xf32>
  }
  %g = graph.fused %f {pattern = "injective"} : (tensor<8192xf32>) -> tensor<128x64xf32> {
  ^bb0(%a: tensor<8192xf32>):
    %r = graph.reshape %a : (tensor<8192xf32>) -> tensor<128x64xf32>
    graph.yield %r : tensor<128x64xf32>
  }
  return %g : tensor<128x64xf32>
}

// -----

// Functions already outlined (and external ones) are left alone; a
// multi-result op is a kernel with several results.
// CHECK-LABEL: func.func @multi
// CHECK: %[[S:.*]]:2 = call @multi_kernel(%arg0)
// CHECK: return %[[S]]#0, %[[S]]#1
// CHECK: func.func private @multi_kernel
// CHECK-NEXT: %{{.*}} = graph.split
func.func @multi(%x: tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %s:2 = graph.split %x {axis = 1 : i64} : (tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return %s#0, %s#1 : tensor<4x4xf32>, tensor<4x4xf32>
}
func.func private @done(%x: tensor<4xf32>) -> tensor<4xf32> attributes {dlc.kernel = "elemwise"} {
  %e = graph.exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}
