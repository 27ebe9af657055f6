// RUN: dlc-opt %s -split-input-file --dlc-outline-kernels | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-outline-kernels --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: dlc-outline-kernels: distinct 10, kernels 12, views 1

// A fused region becomes a private function called in its place; an op
// outside every region is a kernel of its own; small constants are copied
// into the kernel, and a view of a kernel's result stays in the caller.
// Each kernel carries a summary of what it computes (for profiles: the
// JIT's perf map, dlc-run-cpu.test): its ops and its results' shapes.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK: %[[K:.*]] = call @main_kernel(%[[X]]) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[E:.*]] = call @main_kernel_0(%[[K]]) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[V:.*]] = graph.reshape %[[E]] : (tensor<1x2x4x4xf32>) -> tensor<2x16xf32>
// CHECK: return %[[V]]
// CHECK: func.func private @main_kernel_0(%[[A:.*]]: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> attributes {dlc.kernel = "graph.exp", dlc.kernel_summary = "exp -> 1x2x4x4xf32"}
// CHECK-NEXT: %[[X2:.*]] = graph.exp %[[A]]
// CHECK-NEXT: return %[[X2]]
// CHECK: func.func private @main_kernel(%[[A:.*]]: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> attributes {dlc.kernel = "out_elemwise_fusable", dlc.kernel_summary = "conv2d+relu -> 1x2x4x4xf32"}
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
// view of its own buffer); a region of views only is inlined.
// CHECK-LABEL: func.func @views
// CHECK: %[[T:.*]] = call @views_kernel(%arg0, %arg1)
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[T]] : (tensor<128x64xf32>) -> tensor<8192xf32>
// CHECK-NEXT: %[[S:.*]] = graph.reshape %[[R]] : (tensor<8192xf32>) -> tensor<128x64xf32>
// CHECK-NEXT: return %[[S]]
// CHECK: func.func private @views_kernel(%{{.*}}: tensor<128x64xf32>, %{{.*}}: tensor<128x64xf32>) -> tensor<128x64xf32>
// CHECK-NEXT: graph.add
// CHECK-NEXT: return
func.func @views(%x: tensor<128x64xf32>, %w: tensor<128x64xf32>) -> tensor<128x64xf32> {
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
// CHECK-SAME: dlc.kernel_summary = "split -> 4x4xf32, 4x4xf32"
// CHECK-NEXT: %{{.*}} = graph.split
func.func @multi(%x: tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %s:2 = graph.split %x {axis = 1 : i64} : (tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return %s#0, %s#1 : tensor<4x4xf32>, tensor<4x4xf32>
}
func.func private @done(%x: tensor<4xf32>) -> tensor<4xf32> attributes {dlc.kernel = "elemwise"} {
  %e = graph.exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// Kernels that differ only in the buffers they read are one kernel (the
// same ops on the same types and attributes): the two dense layers share
// one, their relus another; a dense of another shape is a kernel of its
// own. Constants of more than max-constant-elements (16) that are not
// splats are passed, so that they do not make kernels differ; the 2x8
// weight is copied in.
// CHECK-LABEL: func.func @repeated
// CHECK: %[[W1:[0-9]+]] = graph.constant {{.*}} : tensor<8x8xf32>
// CHECK: %[[W2:[0-9]+]] = graph.constant {{.*}} : tensor<8x8xf32>
// CHECK: %[[D1:.*]] = call @repeated_kernel(%arg0, %[[W1]])
// CHECK: %[[R1:.*]] = call @repeated_kernel_0(%[[D1]])
// CHECK: %[[D2:.*]] = call @repeated_kernel(%[[R1]], %[[W2]])
// CHECK: %[[R2:.*]] = call @repeated_kernel_0(%[[D2]])
// CHECK: call @repeated_kernel_3(%[[R2]])
// CHECK-COUNT-3: func.func private @repeated_kernel
// CHECK-NOT: func.func private @repeated_kernel
func.func @repeated(%x: tensor<1x8xf32>) -> tensor<1x2xf32> {
  %w1 = graph.constant dense<[[-0.73, 0.69, 0.53, -0.49, -0.01, -0.10, 0.30, 0.58], [-0.81, -0.94, 0.67, -0.13, 0.52, -1.00, -0.11, 0.44], [-0.54, 0.89, 0.80, -0.94, -0.95, 0.08, 0.88, -0.24], [-0.57, -0.16, -0.94, -0.56, -0.12, -0.01, -0.53, -0.54], [-0.56, -0.08, -0.42, -0.96, 0.68, 0.11, 0.28, -0.63], [0.99, 0.72, -0.76, -0.33, 0.44, 0.42, 0.87, -0.16], [0.66, 0.34, -0.39, 0.18, 0.76, 0.69, 0.01, 0.18], [-0.93, -0.51, 0.59, -0.17, -0.65, 0.10, 0.41, 0.35]]> : tensor<8x8xf32>
  %w2 = graph.constant dense<[[-0.25, -0.12, 0.02, 0.56, 0.04, -0.21, -0.02, -0.94], [-0.91, 0.41, 0.97, 0.19, -0.21, -0.66, 0.00, 0.96], [0.54, 0.08, 0.72, -0.54, 0.03, 0.90, 0.16, -0.08], [-0.46, 0.10, 0.91, -0.99, 0.57, 0.64, 0.77, 0.48], [0.62, 0.04, 0.12, -0.15, -0.89, 0.74, 0.14, -0.60], [0.01, -0.03, -0.29, -0.31, 0.08, 0.25, 0.22, -0.08], [-0.94, -0.54, -0.65, 0.17, 0.72, 0.60, 0.59, 0.63], [-0.49, 0.68, 0.35, -0.83, -0.97, -0.97, 0.51, -0.50]]> : tensor<8x8xf32>
  %w3 = graph.constant dense<[[-0.78, 0.25, -0.31, -0.86, -0.68, 0.05, -0.66, -0.45], [0.42, -0.09, -0.36, -0.05, -0.95, -0.23, -0.16, -0.62]]> : tensor<2x8xf32>
  %d1 = graph.dense %x, %w1 : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
  %r1 = graph.relu %d1 : tensor<1x8xf32>
  %d2 = graph.dense %r1, %w2 : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
  %r2 = graph.relu %d2 : tensor<1x8xf32>
  %d3 = graph.dense %r2, %w3 : (tensor<1x8xf32>, tensor<2x8xf32>) -> tensor<1x2xf32>
  return %d3 : tensor<1x2xf32>
}

// -----

// A splat read by a product (a convolution here, a dense layer alone) is
// passed, as a weight that is not a splat is: copied in, it would be folded
// into the product's body, leaving no product for the backends' kernels.
// A splat that no product reads is copied in.
// CHECK-LABEL: func.func @splat_weights
// CHECK: %[[W:.*]] = graph.constant dense<5.000000e-01> : tensor<8x4x1x1xf32>
// CHECK: call @splat_weights_kernel(%arg0, %[[W]])
// CHECK: %[[D:.*]] = graph.constant dense<2.500000e-01> : tensor<8x8xf32>
// CHECK: call @splat_weights_kernel_0(%{{.*}}, %[[D]])
// CHECK: func.func private @splat_weights_kernel_0(%{{.*}}: tensor<16x8xf32>, %{{.*}}: tensor<8x8xf32>)
// CHECK: func.func private @splat_weights_kernel(%[[A:.*]]: tensor<1x4x4x4xf32>, %[[B:.*]]: tensor<8x4x1x1xf32>)
// CHECK-NEXT: %[[S:.*]] = graph.constant dense<1.000000e+00> : tensor<1x8x4x4xf32>
// CHECK-NEXT: %[[P:.*]] = graph.conv2d %[[A]], %[[B]]
// CHECK-NEXT: graph.add %[[P]], %[[S]]
func.func @splat_weights(%x: tensor<1x4x4x4xf32>) -> tensor<16x8xf32> {
  %w = graph.constant dense<0.5> : tensor<8x4x1x1xf32>
  %s = graph.constant dense<1.0> : tensor<1x8x4x4xf32>
  %f = graph.fused %x, %w, %s {pattern = "out_elemwise_fusable"} : (tensor<1x4x4x4xf32>, tensor<8x4x1x1xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  ^bb0(%a: tensor<1x4x4x4xf32>, %b: tensor<8x4x1x1xf32>, %c: tensor<1x8x4x4xf32>):
    %p = graph.conv2d %a, %b : (tensor<1x4x4x4xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x4x4xf32>
    %q = graph.add %p, %c : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    graph.yield %q : tensor<1x8x4x4xf32>
  }
  %v = graph.reshape %f : (tensor<1x8x4x4xf32>) -> tensor<16x8xf32>
  %d = graph.constant dense<0.25> : tensor<8x8xf32>
  %y = graph.dense %v, %d : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

// -----

// A splat weight reshaped in the region before its dense layer is passed
// too; a splat bias, which the product adds rather than multiplies, is
// copied in.
// CHECK-LABEL: func.func @splat_weight_view
// CHECK: %[[W:.*]] = graph.constant dense<5.000000e-01> : tensor<32x2x4xf32>
// CHECK: call @splat_weight_view_kernel(%arg0, %[[W]])
// CHECK: func.func private @splat_weight_view_kernel(%[[A:.*]]: tensor<3x8xf32>, %[[B:.*]]: tensor<32x2x4xf32>)
// CHECK-NEXT: %[[BIAS:.*]] = graph.constant dense<1.000000e+00> : tensor<32xf32>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[B]]
// CHECK-NEXT: graph.dense %[[A]], %[[R]], %[[BIAS]]
func.func @splat_weight_view(%x: tensor<3x8xf32>) -> tensor<3x32xf32> {
  %w = graph.constant dense<0.5> : tensor<32x2x4xf32>
  %b = graph.constant dense<1.0> : tensor<32xf32>
  %f = graph.fused %x, %w, %b {pattern = "out_elemwise_fusable"} : (tensor<3x8xf32>, tensor<32x2x4xf32>, tensor<32xf32>) -> tensor<3x32xf32> {
  ^bb0(%a: tensor<3x8xf32>, %c: tensor<32x2x4xf32>, %d: tensor<32xf32>):
    %r = graph.reshape %c : (tensor<32x2x4xf32>) -> tensor<32x8xf32>
    %y = graph.dense %a, %r, %d : (tensor<3x8xf32>, tensor<32x8xf32>, tensor<32xf32>) -> tensor<3x32xf32>
    graph.yield %y : tensor<3x32xf32>
  }
  return %f : tensor<3x32xf32>
}
