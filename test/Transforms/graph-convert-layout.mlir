// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-convert-layout))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-convert-layout))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-convert-layout{desired-layouts=conv2d=NHWC,conv2d.depthwise=NCHW}))" | FileCheck %s --check-prefix=DW
// The same through a pipeline list, as a user writes it.
// RUN: dlc-opt %s -split-input-file --dlc-pipeline="list:ConvertLayout{desired-layouts=conv2d=NHWC,conv2d.depthwise=NCHW}" | FileCheck %s --check-prefix=DW
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-convert-layout{desired-layouts=conv3d=NHWC}))" 2>&1 | FileCheck %s --check-prefix=BADCLASS
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-convert-layout{desired-layouts=conv2d=NCWH}))" 2>&1 | FileCheck %s --check-prefix=BADLAYOUT

// STATS: graph-convert-layout: constants 7, converted 7, followed 9, transforms 6, unsupported 1
// BADCLASS: graph-convert-layout: desired-layouts entry 'conv3d=NHWC': unknown op class 'conv3d' (expected conv2d, conv2d.bf16, conv2d.depthwise or conv2d.grouped)
// BADLAYOUT: graph-convert-layout: desired-layouts entry 'conv2d=NCWH': data layout 'NCWH' is not NCHW or NHWC

// A residual block: the transforms between the convolutions cancel, the
// bias_add's axis follows the channels, and only the function's argument and
// result are converted.
// CHECK-LABEL: func @residual
// CHECK: %[[X:.*]] = graph.layout_transform %arg0 {dst_layout = "NHWC", src_layout = "NCHW"} : (tensor<1x4x6x6xf32>) -> tensor<1x6x6x4xf32>
// CHECK-DAG: %[[W1:.*]] = graph.constant dense<1.000000e-01> : tensor<3x3x4x4xf32>
// CHECK-DAG: %[[W2:.*]] = graph.constant dense<2.000000e-01> : tensor<1x1x4x4xf32>
// CHECK: %[[C1:.*]] = graph.conv2d %[[X]], %[[W1]] {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1, 1, 1>}
// CHECK: %[[B:.*]] = graph.bias_add %[[C1]], %{{.*}} {axis = 3 : i64} : (tensor<1x6x6x4xf32>, tensor<4xf32>)
// CHECK: %[[R1:.*]] = graph.relu %[[B]] : tensor<1x6x6x4xf32>
// CHECK-NOT: graph.layout_transform
// CHECK: %[[C2:.*]] = graph.conv2d %[[R1]], %[[W2]] {data_layout = "NHWC", kernel_layout = "HWIO"}
// CHECK: %[[S:.*]] = graph.add %[[C2]], %[[X]] : (tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>)
// CHECK: %[[R2:.*]] = graph.relu %[[S]] : tensor<1x6x6x4xf32>
// CHECK: %[[Y:.*]] = graph.layout_transform %[[R2]] {dst_layout = "NCHW", src_layout = "NHWC"} : (tensor<1x6x6x4xf32>) -> tensor<1x4x6x6xf32>
// CHECK: return %[[Y]]
func.func @residual(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w1 = graph.constant dense<0.1> : tensor<4x4x3x3xf32>
  %w2 = graph.constant dense<0.2> : tensor<4x4x1x1xf32>
  %b = graph.constant dense<0.5> : tensor<4xf32>
  %c1 = graph.conv2d %x, %w1 {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %a1 = graph.bias_add %c1, %b {axis = 1 : i64} : (tensor<1x4x6x6xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %r1 = graph.relu %a1 : tensor<1x4x6x6xf32>
  %c2 = graph.conv2d %r1, %w2 : (tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %s = graph.add %c2, %x : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %r2 = graph.relu %s : tensor<1x4x6x6xf32>
  return %r2 : tensor<1x4x6x6xf32>
}

// -----

// Concatenation and global pooling follow; softmax over the channels
// follows with its axis moved.
// CHECK-LABEL: func @branches
// CHECK: %[[X:.*]] = graph.layout_transform %arg0 {dst_layout = "NHWC", src_layout = "NCHW"}
// CHECK: %[[C1:.*]] = graph.conv2d %[[X]]
// CHECK: %[[C2:.*]] = graph.conv2d %[[X]]
// CHECK: %[[CAT:.*]] = graph.concat %[[C1]], %[[C2]] {axis = 3 : i64} : (tensor<1x4x4x2xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x6xf32>
// CHECK: %[[SM:.*]] = graph.softmax %[[CAT]] {axis = 3 : i64} : tensor<1x4x4x6xf32>
// CHECK: %[[G:.*]] = graph.global_avg_pool2d %[[SM]] {layout = "NHWC"} : (tensor<1x4x4x6xf32>) -> tensor<1x1x1x6xf32>
// CHECK: %[[Y:.*]] = graph.layout_transform %[[G]] {dst_layout = "NCHW", src_layout = "NHWC"}
// CHECK: return %[[Y]]
func.func @branches(%x: tensor<1x2x4x4xf32>) -> tensor<1x6x1x1xf32> {
  %w1 = graph.constant dense<0.1> : tensor<2x2x1x1xf32>
  %w2 = graph.constant dense<0.3> : tensor<4x2x3x3xf32>
  %c1 = graph.conv2d %x, %w1 : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %c2 = graph.conv2d %x, %w2 {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x4x4xf32>
  %cat = graph.concat %c1, %c2 {axis = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x6x4x4xf32>
  %sm = graph.softmax %cat {axis = 1 : i64} : tensor<1x6x4x4xf32>
  %g = graph.global_avg_pool2d %sm : (tensor<1x6x4x4xf32>) -> tensor<1x6x1x1xf32>
  return %g : tensor<1x6x1x1xf32>
}

// -----

// Depthwise convolutions can be kept in NCHW while the others go to NHWC
// (DW run only).
// CHECK-LABEL: func @inverted_residual
// CHECK: graph.layout_transform %arg0 {dst_layout = "NHWC", src_layout = "NCHW"}
// CHECK-NOT: graph.layout_transform
// CHECK: graph.conv2d {{.*}} {data_layout = "NHWC", groups = 8 : i64, kernel_layout = "HWIO", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x5x5x8xf32>, tensor<3x3x1x8xf32>) -> tensor<1x5x5x8xf32>
// CHECK-NOT: graph.layout_transform
// CHECK: graph.add
// CHECK-NEXT: graph.layout_transform {{.*}} {dst_layout = "NCHW", src_layout = "NHWC"}
// DW-LABEL: func @inverted_residual
// DW: %[[X:.*]] = graph.layout_transform %arg0 {dst_layout = "NHWC", src_layout = "NCHW"}
// DW-DAG: %[[WD:.*]] = graph.constant dense<2.000000e-01> : tensor<8x1x3x3xf32>
// DW: %[[E:.*]] = graph.conv2d %[[X]], %{{.*}} {data_layout = "NHWC", kernel_layout = "HWIO"}
// DW: %[[R:.*]] = graph.clip %[[E]]
// DW: %[[RN:.*]] = graph.layout_transform %[[R]] {dst_layout = "NCHW", src_layout = "NHWC"}
// DW: %[[D:.*]] = graph.conv2d %[[RN]], %[[WD]] {groups = 8 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x5x5xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x5x5xf32>
// DW: %[[DN:.*]] = graph.layout_transform %[[D]] {dst_layout = "NHWC", src_layout = "NCHW"}
// DW: %[[P:.*]] = graph.conv2d %[[DN]], %{{.*}} {data_layout = "NHWC", kernel_layout = "HWIO"}
// DW: %[[S:.*]] = graph.add %[[P]], %[[X]]
// DW: graph.layout_transform %[[S]] {dst_layout = "NCHW", src_layout = "NHWC"}
func.func @inverted_residual(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> {
  %w1 = graph.constant dense<0.1> : tensor<8x4x1x1xf32>
  %wd = graph.constant dense<0.2> : tensor<8x1x3x3xf32>
  %w2 = graph.constant dense<0.3> : tensor<4x8x1x1xf32>
  %e = graph.conv2d %x, %w1 : (tensor<1x4x5x5xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x5x5xf32>
  %r = graph.clip %e {min = 0.0 : f64, max = 6.0 : f64} : tensor<1x8x5x5xf32>
  %d = graph.conv2d %r, %wd {padding = array<i64: 1, 1, 1, 1>, groups = 8 : i64} : (tensor<1x8x5x5xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x5x5xf32>
  %p = graph.conv2d %d, %w2 : (tensor<1x8x5x5xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x5x5xf32>
  %s = graph.add %p, %x : (tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  return %s : tensor<1x4x5x5xf32>
}

// -----

// A grouped (not depthwise) convolution has no NHWC kernel: left as it is,
// and counted.
// CHECK-LABEL: func @negative_grouped
// CHECK-NOT: graph.layout_transform
// CHECK: graph.conv2d %arg0, %{{.*}} {groups = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32>
func.func @negative_grouped(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = graph.constant dense<0.1> : tensor<4x2x1x1xf32>
  %c = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32>
  return %c : tensor<1x4x4x4xf32>
}

// -----

// Already in the desired layout: nothing to do.
// CHECK-LABEL: func @negative_already_nhwc
// CHECK-NOT: graph.layout_transform
// CHECK: graph.conv2d %arg0, %{{.*}} {data_layout = "NHWC", kernel_layout = "HWIO"}
// CHECK-NOT: graph.layout_transform
func.func @negative_already_nhwc(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x3xf32> {
  %w = graph.constant dense<0.1> : tensor<1x1x2x3xf32>
  %c = graph.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x4x4x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x4x4x3xf32>
  return %c : tensor<1x4x4x3xf32>
}
