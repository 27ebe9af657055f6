// AlterOpLayout with winograd: 3x3 stride-1 convolutions with constant
// weights and enough output tiles become graph.conv2d_winograd, weights
// transformed at compile time; the rest stay, counted.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{winograd=true}))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{winograd=true}))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// Fewer tiles wanted: the 12 x 12 and 8 x 8 outputs take 4 x 4 tiles.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{winograd=true winograd-min-tiles=4}))" | FileCheck %s --check-prefix=MIN4
// Channels-last (the cpu-nhwc description): the convolutions first become
// NHWC with HWIO kernels, then Winograd's, whose weights are [alpha^2, C, O].
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=cpu-nhwc winograd=true}))" | FileCheck %s --check-prefix=NHWC
// Without the option (O3's AlterOpLayout) nothing changes.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-alter-op-layout))" | FileCheck %s --check-prefix=OFF

// Totals over the five functions below.
// STATS: graph-alter-op-layout: {{.*}}winograd 2, winograd-small 1, winograd-weights 1

// 24 x 24 outputs: 36 tiles of 4 x 4 (tile 4, the default, is not
// printed), the bias kept.
// CHECK-LABEL: func @large
// CHECK: %[[U:.*]] = graph.constant dense_resource<winograd> : tensor<36x8x4xf32>
// CHECK: %[[Y:.*]] = graph.conv2d_winograd %arg0, %[[U]], %{{.*}} {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x24x24xf32>, tensor<36x8x4xf32>, tensor<8xf32>) -> tensor<1x8x24x24xf32>
// CHECK-NOT: graph.conv2d %
// OFF-LABEL: func @large
// OFF: graph.conv2d %
// NHWC-LABEL: func @large
// NHWC: %[[X:.*]] = graph.layout_transform %arg0 {dst_layout = "NHWC", src_layout = "NCHW"}
// NHWC: %[[U:.*]] = graph.constant dense_resource<winograd> : tensor<36x4x8xf32>
// NHWC: %[[Y:.*]] = graph.conv2d_winograd %[[X]], %[[U]], %{{.*}} {data_layout = "NHWC", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x24x24x4xf32>, tensor<36x4x8xf32>, tensor<8xf32>) -> tensor<1x24x24x8xf32>
// NHWC: graph.layout_transform %[[Y]] {dst_layout = "NCHW", src_layout = "NHWC"}
func.func @large(%x: tensor<1x4x24x24xf32>) -> tensor<1x8x24x24xf32> {
  %w = graph.constant dense<0.5> : tensor<8x4x3x3xf32>
  %b = graph.constant dense<1.0> : tensor<8xf32>
  %y = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x24x24xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x24x24xf32>
  return %y : tensor<1x8x24x24xf32>
}

// -----

// 12 x 12 outputs: 9 tiles of 4 x 4 are too few, 36 of 2 x 2 are enough.
// CHECK-LABEL: func @medium
// CHECK: graph.conv2d_winograd %arg0, %{{.*}} {tile = 2 : i64} : (tensor<1x4x14x14xf32>, tensor<16x4x4xf32>) -> tensor<1x4x12x12xf32>
// MIN4-LABEL: func @medium
// MIN4: graph.conv2d_winograd %arg0, %{{.*}} : (tensor<1x4x14x14xf32>, tensor<36x4x4xf32>) -> tensor<1x4x12x12xf32>
func.func @medium(%x: tensor<1x4x14x14xf32>) -> tensor<1x4x12x12xf32> {
  %w = graph.constant dense<0.25> : tensor<4x4x3x3xf32>
  %y = graph.conv2d %x, %w : (tensor<1x4x14x14xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x12x12xf32>
  return %y : tensor<1x4x12x12xf32>
}

// -----

// 8 x 8 outputs: 16 tiles of 2 x 2, too few by default; 4 of 4 x 4 are
// enough for winograd-min-tiles=4.
// CHECK-LABEL: func @small
// CHECK: graph.conv2d %
// MIN4-LABEL: func @small
// MIN4: graph.conv2d_winograd %arg0, %{{.*}} {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<36x4x4xf32>)
func.func @small(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = graph.constant dense<0.25> : tensor<4x4x3x3xf32>
  %y = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// -----

// Weights computed at run time cannot be transformed here.
// CHECK-LABEL: func @runtime_weights
// CHECK: graph.conv2d %arg0, %arg1
func.func @runtime_weights(%x: tensor<1x4x24x24xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x22x22xf32> {
  %y = graph.conv2d %x, %w : (tensor<1x4x24x24xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x22x22xf32>
  return %y : tensor<1x4x22x22xf32>
}

// -----

// Not F(m x m, 3 x 3): strided, dilated, grouped and 1x1 convolutions are
// not even counted.
// CHECK-LABEL: func @others
// CHECK-COUNT-4: graph.conv2d %
// CHECK-NOT: graph.conv2d_winograd
func.func @others(%x: tensor<1x4x24x24xf32>) -> (tensor<1x4x12x12xf32>, tensor<1x4x20x20xf32>, tensor<1x4x22x22xf32>, tensor<1x4x24x24xf32>) {
  %w = graph.constant dense<0.25> : tensor<4x4x3x3xf32>
  %g = graph.constant dense<0.25> : tensor<4x2x3x3xf32>
  %p = graph.constant dense<0.25> : tensor<4x4x1x1xf32>
  %s = graph.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x24x24xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x12x12xf32>
  %d = graph.conv2d %x, %w {dilations = array<i64: 2, 2>} : (tensor<1x4x24x24xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x20x20xf32>
  %c = graph.conv2d %x, %g {groups = 2 : i64} : (tensor<1x4x24x24xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x22x22xf32>
  %o = graph.conv2d %x, %p : (tensor<1x4x24x24xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x24x24xf32>
  return %s, %d, %c, %o : tensor<1x4x12x12xf32>, tensor<1x4x20x20xf32>, tensor<1x4x22x22xf32>, tensor<1x4x24x24xf32>
}
