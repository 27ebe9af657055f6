// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-to-mixed-precision{type=bf16}))" | FileCheck %s --check-prefix=ALL
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-to-mixed-precision{type=bf16 grouped-f32=true}))" | FileCheck %s --check-prefix=GROUPED
// RUN: dlc-opt %s --dlc-pipeline="O3;mixed=bf16" | FileCheck %s --check-prefix=O3

// By default a depthwise convolution is ALWAYS, like any conv2d (TVM's
// lists). With grouped-f32 it runs in f32 between casts, and the 1 x 1
// convolution after it in bf16; dlc's CPU pipelines set the option.
// ALL: graph.conv2d {{.*}}groups = 4 : i64{{.*}} -> tensor<1x4x8x8xbf16>
// ALL: graph.conv2d {{.*}} -> tensor<1x8x8x8xbf16>
// GROUPED-NOT: graph.cast %arg0
// GROUPED: %[[D:.*]] = graph.conv2d %arg0, %{{.*}} {{.*}}groups = 4 : i64{{.*}} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32>
// GROUPED: %[[R:.*]] = graph.relu %[[D]] : tensor<1x4x8x8xf32>
// GROUPED: %[[C:.*]] = graph.cast %[[R]] : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xbf16>
// GROUPED: graph.conv2d %[[C]], %{{.*}} : (tensor<1x4x8x8xbf16>, tensor<8x4x1x1xbf16>) -> tensor<1x8x8x8xbf16>
// (NHWC where the host has AVX512-BF16, NCHW elsewhere.)
// O3: graph.conv2d {{.*}}groups = 4 : i64{{.*}} -> tensor<1x8x8x{{.*}}xf32>
// O3: graph.conv2d {{.*}} -> tensor<1x8x8x8xbf16>
func.func @main(%x: tensor<1x4x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %dw = graph.constant dense<0.5> : tensor<4x1x3x3xf32>
  %pw = graph.constant dense<0.25> : tensor<8x4x1x1xf32>
  %d = graph.conv2d %x, %dw {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = graph.relu %d : tensor<1x4x8x8xf32>
  %p = graph.conv2d %r, %pw : (tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x8x8xf32>
  return %p : tensor<1x8x8x8xf32>
}
