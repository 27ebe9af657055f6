// Hand-computed conv2d results on the reference interpreter.
// RUN: dlc-run %s --entry=basic --print-output | FileCheck %s --check-prefix=BASIC
// RUN: dlc-run %s --entry=pad_stride_bias --print-output | FileCheck %s --check-prefix=PAD
// RUN: dlc-run %s --entry=dilation --print-output | FileCheck %s --check-prefix=DIL
// RUN: dlc-run %s --entry=depthwise_nhwc --print-output | FileCheck %s --check-prefix=DW
// RUN: dlc-run %s --entry=grouped --print-output | FileCheck %s --check-prefix=GROUP
// RUN: dlc-run %s --entry=asymmetric_pad --print-output | FileCheck %s --check-prefix=ASYM

// 3x3 input 1..9, 2x2 kernel of ones: sums of each 2x2 window.
// BASIC: output 0: f32[1x1x2x2] = {{\[\[\[\[}}12, 16], [24, 28]]]]
func.func @basic() -> tensor<1x1x2x2xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %w = graph.constant dense<1.0> : tensor<1x1x2x2xf32>
  %y = graph.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// Padding 1 on every side, stride 2, bias 10: windows start at -1 and 1.
// (0,0) sees only 1; (0,1) sees 2+3; (1,0) sees 4+7; (1,1) sees 5+6+8+9.
// PAD: output 0: f32[1x1x2x2] = {{\[\[\[\[}}11, 15], [21, 38]]]]
func.func @pad_stride_bias() -> tensor<1x1x2x2xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %w = graph.constant dense<1.0> : tensor<1x1x2x2xf32>
  %b = graph.constant dense<10.0> : tensor<1xf32>
  %y = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
     : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// Dilation 2 spreads the 2x2 kernel over the corners: 1 + 3 + 7 + 9.
// DIL: output 0: f32[1x1x1x1] = {{\[\[\[\[}}20]]]]
func.func @dilation() -> tensor<1x1x1x1xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %w = graph.constant dense<1.0> : tensor<1x1x2x2xf32>
  %y = graph.conv2d %x, %w {dilations = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32>
  return %y : tensor<1x1x1x1xf32>
}

// Depthwise in NHWC/HWIO: channel 0 (1,2,3,4) with weights 1, channel 1
// (10,20,30,40) with weights 2.
// DW: output 0: f32[1x1x1x2] = {{\[\[\[\[}}10, 200]]]]
func.func @depthwise_nhwc() -> tensor<1x1x1x2xf32> {
  %x = graph.constant dense<[[[[1.0, 10.0], [2.0, 20.0]], [[3.0, 30.0], [4.0, 40.0]]]]> : tensor<1x2x2x2xf32>
  %w = graph.constant dense<[[[[1.0, 2.0]], [[1.0, 2.0]]], [[[1.0, 2.0]], [[1.0, 2.0]]]]> : tensor<2x2x1x2xf32>
  %y = graph.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO", groups = 2 : i64}
     : (tensor<1x2x2x2xf32>, tensor<2x2x1x2xf32>) -> tensor<1x1x1x2xf32>
  return %y : tensor<1x1x1x2xf32>
}

// Two groups of two channels: out0 = x0 + x1, out1 = x2 - x3.
// GROUP: output 0: f32[1x2x1x1] = {{\[\[\[\[}}3]], {{\[\[}}-1]]]]
func.func @grouped() -> tensor<1x2x1x1xf32> {
  %x = graph.constant dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]]> : tensor<1x4x1x1xf32>
  %w = graph.constant dense<[[[[1.0]], [[1.0]]], [[[1.0]], [[-1.0]]]]> : tensor<2x2x1x1xf32>
  %y = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x1x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  return %y : tensor<1x2x1x1xf32>
}

// Padding only at the top (1) and right (2) of a 1x2 input with a 1x1 kernel
// of 2: the output is 2x4 with the input doubled at row 1, columns 0-1.
// ASYM: output 0: f32[1x1x2x4] = {{\[\[\[\[}}0, 0, 0, 0], [2, 4, 0, 0]]]]
func.func @asymmetric_pad() -> tensor<1x1x2x4xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>
  %w = graph.constant dense<2.0> : tensor<1x1x1x1xf32>
  %y = graph.conv2d %x, %w {padding = array<i64: 1, 0, 0, 2>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x4xf32>
  return %y : tensor<1x1x2x4xf32>
}
