// Pooling windows, padding, ceil mode and count_include_pad.
// RUN: dlc-run %s --entry=max --print-output | FileCheck %s --check-prefix=MAX
// RUN: dlc-run %s --entry=avg_pad --print-output | FileCheck %s --check-prefix=AVGPAD
// RUN: dlc-run %s --entry=ceil --print-output | FileCheck %s --check-prefix=CEIL
// RUN: dlc-run %s --entry=global --print-output | FileCheck %s --check-prefix=GLOBAL

// MAX: output 0: f32[1x1x2x2] = {{\[\[\[\[}}6, 8], [14, 16]]]]
// MAX: output 1: f32[1x2x2x1] = {{\[\[\[\[}}4], [3]], {{\[\[}}2], [1]]]]
func.func @max() -> (tensor<1x1x2x2xf32>, tensor<1x2x2x1xf32>) {
  %x = graph.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]> : tensor<1x1x4x4xf32>
  %0 = graph.max_pool2d %x {kernel_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  // In NHWC a 1x1 window is the identity.
  %h = graph.constant dense<[[[[-4.0], [-3.0]], [[-2.0], [-1.0]]]]> : tensor<1x2x2x1xf32>
  %n = graph.neg %h : tensor<1x2x2x1xf32>
  %1 = graph.max_pool2d %n {kernel_size = array<i64: 1, 1>, layout = "NHWC"} : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  return %0, %1 : tensor<1x1x2x2xf32>, tensor<1x2x2x1xf32>
}

// 3x3 windows with padding 1 over [[1,2],[3,4]]: every window holds all four
// values. Without count_include_pad the divisor is 4 (2.5); with it, 9.
// AVGPAD: output 0: f32[1x1x2x2] = {{\[\[\[\[}}2.5, 2.5], [2.5, 2.5]]]]
// AVGPAD: output 1: f32[1x1x2x2] = {{\[\[\[\[}}1.11111, 1.11111], [1.11111, 1.11111]]]]
func.func @avg_pad() -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
  %x = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %0 = graph.avg_pool2d %x {kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %1 = graph.avg_pool2d %x {kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, count_include_pad = true} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0, %1 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
}

// ceil_mode keeps the partial windows at the bottom/right of a 3x3 input.
// CEIL: output 0: f32[1x1x2x2] = {{\[\[\[\[}}5, 6], [8, 9]]]]
// CEIL: output 1: f32[1x1x2x2] = {{\[\[\[\[}}3, 4.5], [7.5, 9]]]]
func.func @ceil() -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
  %x = graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %0 = graph.max_pool2d %x {kernel_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  %1 = graph.avg_pool2d %x {kernel_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  return %0, %1 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
}

// GLOBAL: output 0: f32[1x2x1x1] = {{\[\[\[\[}}2.5]], {{\[\[}}25]]]]
// GLOBAL: output 1: f32[1x1x1x2] = {{\[\[\[\[}}2.5, 25]]]]
func.func @global() -> (tensor<1x2x1x1xf32>, tensor<1x1x1x2xf32>) {
  %x = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[10.0, 20.0], [30.0, 40.0]]]]> : tensor<1x2x2x2xf32>
  %0 = graph.global_avg_pool2d %x : (tensor<1x2x2x2xf32>) -> tensor<1x2x1x1xf32>
  %h = graph.transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.global_avg_pool2d %h {layout = "NHWC"} : (tensor<1x2x2x2xf32>) -> tensor<1x1x1x2xf32>
  return %0, %1 : tensor<1x2x1x1xf32>, tensor<1x1x1x2xf32>
}
