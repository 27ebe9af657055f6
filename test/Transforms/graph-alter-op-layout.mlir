// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-alter-op-layout))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-alter-op-layout))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// A target description from a file: convolutions want NHWC.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=%S/Inputs/target-nhwc.txt}))" | FileCheck %s --check-prefix=NHWC
// The builtin description cpu-nhwc (what auto takes for MobileNets) does the same.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=cpu-nhwc}))" | FileCheck %s --check-prefix=NHWC
// NHWC data with OIHW kernels is a pair no backend compiles: counted, not done.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=%S/Inputs/target-nhwc-oihw.txt}))" | FileCheck %s --check-prefix=UNSUPPORTED
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=%S/Inputs/target-nhwc-oihw.txt}))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=UNSUPPORTED-STATS
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=%S/Inputs/missing.txt}))" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=%S/Inputs/target-malformed.txt}))" 2>&1 | FileCheck %s --check-prefix=MALFORMED

// STATS: graph-alter-op-layout: constants 2, converted 1, followed 3, transforms 2, unsupported 0
// UNSUPPORTED-STATS: graph-alter-op-layout: constants 0, converted 0, followed 0, transforms 0, unsupported 2
// MISSING: graph-alter-op-layout: cannot read target description '{{.*}}missing.txt' (builtin targets: cpu, cpu-nhwc, cuda, cublas)
// MALFORMED: graph-alter-op-layout: {{.*}}target-malformed.txt:2: unknown op class 'conv3d' (expected conv2d, conv2d.bf16, conv2d.depthwise or conv2d.grouped)

// An NHWC model (as TensorFlow exports them): the CPU description wants
// NCHW, so the convolutions, their bias and the pooling move to NCHW and
// the function keeps its NHWC signature.
// CHECK-LABEL: func @nhwc_model
// CHECK: %[[X:.*]] = graph.layout_transform %arg0 {dst_layout = "NCHW", src_layout = "NHWC"} : (tensor<1x6x6x3xf32>) -> tensor<1x3x6x6xf32>
// CHECK: %[[W:.*]] = graph.constant dense<1.000000e-01> : tensor<4x3x3x3xf32>
// CHECK: %[[C:.*]] = graph.conv2d %[[X]], %[[W]] {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// CHECK: %[[B:.*]] = graph.constant dense<5.000000e-01> : tensor<1x4x1x1xf32>
// CHECK: %[[A:.*]] = graph.add %[[C]], %[[B]] : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
// CHECK: %[[R:.*]] = graph.relu %[[A]]
// CHECK: %[[P:.*]] = graph.max_pool2d %[[R]] {kernel_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32>
// CHECK: %[[Y:.*]] = graph.layout_transform %[[P]] {dst_layout = "NHWC", src_layout = "NCHW"} : (tensor<1x4x3x3xf32>) -> tensor<1x3x3x4xf32>
// CHECK: return %[[Y]]
// NHWC-LABEL: func @nhwc_model
// NHWC-NOT: graph.layout_transform
// NHWC: return
// UNSUPPORTED-LABEL: func @nhwc_model
// UNSUPPORTED-NOT: graph.layout_transform
// UNSUPPORTED: return
func.func @nhwc_model(%x: tensor<1x6x6x3xf32>) -> tensor<1x3x3x4xf32> {
  %w = graph.constant dense<0.1> : tensor<3x3x3x4xf32>
  %b = graph.constant dense<0.5> : tensor<4xf32>
  %c = graph.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  %a = graph.add %c, %b : (tensor<1x6x6x4xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32>
  %r = graph.relu %a : tensor<1x6x6x4xf32>
  %p = graph.max_pool2d %r {layout = "NHWC", kernel_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x6x6x4xf32>) -> tensor<1x3x3x4xf32>
  return %p : tensor<1x3x3x4xf32>
}

// -----

// NCHW is what the CPU's kernels want: nothing changes (with the NHWC
// description, it converts).
// CHECK-LABEL: func @negative_nchw_on_cpu
// CHECK-NOT: graph.layout_transform
// CHECK: graph.conv2d %arg0, %{{.*}} {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NOT: graph.layout_transform
// NHWC-LABEL: func @negative_nchw_on_cpu
// NHWC: %[[X:.*]] = graph.layout_transform %arg0 {dst_layout = "NHWC", src_layout = "NCHW"}
// NHWC: %[[C:.*]] = graph.conv2d %[[X]], %{{.*}} {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
// NHWC: %[[R:.*]] = graph.relu %[[C]] : tensor<1x6x6x4xf32>
// NHWC: graph.layout_transform %[[R]] {dst_layout = "NCHW", src_layout = "NHWC"}
// UNSUPPORTED-LABEL: func @negative_nchw_on_cpu
// UNSUPPORTED-NOT: graph.layout_transform
// UNSUPPORTED: return
func.func @negative_nchw_on_cpu(%x: tensor<1x3x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w = graph.constant dense<0.1> : tensor<4x3x3x3xf32>
  %c = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %r = graph.relu %c : tensor<1x4x6x6xf32>
  return %r : tensor<1x4x6x6xf32>
}

// -----

// Ops inside fused regions are left alone: the pass runs before FuseOps.
// CHECK-LABEL: func @negative_fused
// CHECK: graph.fused
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.layout_transform
// CHECK-NEXT: graph.conv2d {{.*}} {data_layout = "NHWC", kernel_layout = "HWIO"}
// CHECK-NEXT: graph.layout_transform
func.func @negative_fused(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<0.1> : tensor<1x1x2x2xf32>
  %f = graph.fused %x, %w : (tensor<1x2x4x4xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x4x4xf32> {
  ^bb0(%a: tensor<1x2x4x4xf32>, %k: tensor<1x1x2x2xf32>):
    %t = graph.layout_transform %a {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x2x4x4xf32>) -> tensor<1x4x4x2xf32>
    %c = graph.conv2d %t, %k {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
    %b = graph.layout_transform %c {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x4x4x2xf32>) -> tensor<1x2x4x4xf32>
    graph.yield %b : tensor<1x2x4x4xf32>
  }
  return %f : tensor<1x2x4x4xf32>
}
