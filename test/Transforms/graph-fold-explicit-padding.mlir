// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fold-explicit-padding))" | FileCheck %s

// CHECK-LABEL: func @conv
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %arg0, %arg1 {padding = array<i64: 2, 1, 1, 2>}
// CHECK-NEXT: return %[[C]]
func.func @conv(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x2x5x5xf32> {
  %p = graph.pad %x {pad_before = array<i64: 0, 0, 1, 1>, pad_after = array<i64: 0, 0, 1, 1>}
     : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x6xf32>
  %c = graph.conv2d %p, %w {padding = array<i64: 1, 0, 0, 1>}
     : (tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x5x5xf32>
  return %c : tensor<1x2x5x5xf32>
}

// -----

// NHWC: H and W are axes 1 and 2.
// CHECK-LABEL: func @conv_nhwc
// CHECK: graph.conv2d %arg0, %arg1 {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1, 1, 1>}
func.func @conv_nhwc(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>) -> tensor<1x4x4x2xf32> {
  %p = graph.pad %x {pad_before = array<i64: 0, 1, 1, 0>, pad_after = array<i64: 0, 1, 1, 0>}
     : (tensor<1x4x4x3xf32>) -> tensor<1x6x6x3xf32>
  %c = graph.conv2d %p, %w {data_layout = "NHWC", kernel_layout = "HWIO"}
     : (tensor<1x6x6x3xf32>, tensor<3x3x3x2xf32>) -> tensor<1x4x4x2xf32>
  return %c : tensor<1x4x4x2xf32>
}

// -----

// max pooling pads with the lowest value; avg pooling with zeros, then counts
// the padding (count_include_pad becomes true).
// CHECK-LABEL: func @pools
// CHECK: graph.max_pool2d %arg0 {kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>}
// CHECK: graph.avg_pool2d %arg0 {count_include_pad = true, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>}
func.func @pools(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %lo = graph.pad %x {pad_before = array<i64: 0, 0, 1, 1>, pad_after = array<i64: 0, 0, 1, 1>, value = 0xFFF0000000000000 : f64}
     : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %0 = graph.max_pool2d %lo {kernel_size = array<i64: 3, 3>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32>
  %z = graph.pad %x {pad_before = array<i64: 0, 0, 1, 1>, pad_after = array<i64: 0, 0, 1, 1>}
     : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %1 = graph.avg_pool2d %z {kernel_size = array<i64: 3, 3>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32>
  return %0, %1 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// CHECK-LABEL: func @negative_pad_value
// CHECK: graph.pad
// CHECK: graph.conv2d
func.func @negative_pad_value(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32> {
  %p = graph.pad %x {pad_before = array<i64: 0, 0, 1, 1>, pad_after = array<i64: 0, 0, 1, 1>, value = 1.0 : f64}
     : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x6xf32>
  %c = graph.conv2d %p, %w : (tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %c : tensor<1x2x4x4xf32>
}

// -----

// CHECK-LABEL: func @negative_zero_pad_into_max_pool
// CHECK: graph.pad
// CHECK: graph.max_pool2d
func.func @negative_zero_pad_into_max_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %p = graph.pad %x {pad_before = array<i64: 0, 0, 1, 1>, pad_after = array<i64: 0, 0, 1, 1>}
     : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %0 = graph.max_pool2d %p {kernel_size = array<i64: 3, 3>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// CHECK-LABEL: func @negative_channel_padding
// CHECK: graph.pad
func.func @negative_channel_padding(%x: tensor<1x3x4x4xf32>, %w: tensor<2x4x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %p = graph.pad %x {pad_before = array<i64: 0, 1, 0, 0>, pad_after = array<i64: 0, 0, 0, 0>}
     : (tensor<1x3x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c = graph.conv2d %p, %w : (tensor<1x4x4x4xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x2x2xf32>
  return %c : tensor<1x2x2x2xf32>
}

// -----

// CHECK-LABEL: func @negative_reflect_mode
// CHECK: graph.pad
func.func @negative_reflect_mode(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32> {
  %p = graph.pad %x {pad_before = array<i64: 0, 0, 1, 1>, pad_after = array<i64: 0, 0, 1, 1>, mode = "reflect"}
     : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x6xf32>
  %c = graph.conv2d %p, %w : (tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %c : tensor<1x2x4x4xf32>
}

// -----

// avg_pool2d without count_include_pad and with padding of its own: the
// divisors would differ.
// CHECK-LABEL: func @negative_avg_pool_own_padding
// CHECK: graph.pad
func.func @negative_avg_pool_own_padding(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32> {
  %z = graph.pad %x {pad_before = array<i64: 0, 0, 1, 1>, pad_after = array<i64: 0, 0, 1, 1>}
     : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %1 = graph.avg_pool2d %z {kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %1 : tensor<1x2x6x6xf32>
}

// -----

// The folded pooling padding would reach the kernel size: not valid.
// CHECK-LABEL: func @negative_padding_too_large
// CHECK: graph.pad
func.func @negative_padding_too_large(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %lo = graph.pad %x {pad_before = array<i64: 0, 0, 2, 2>, pad_after = array<i64: 0, 0, 0, 0>, value = 0xFFF0000000000000 : f64}
     : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %0 = graph.max_pool2d %lo {kernel_size = array<i64: 2, 2>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
     : (tensor<1x2x6x6xf32>) -> tensor<1x2x5x5xf32>
  %1 = graph.slice %0 {starts = array<i64: 0, 0, 0, 0>, ends = array<i64: 1, 2, 4, 4>, steps = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}
