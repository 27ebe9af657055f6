// Hand-computed graph.conv2d_winograd results, on the reference interpreter
// and on the CPU (--pipeline=none: nothing folds; the lowering's products
// and copies run).
// RUN: dlc-run %s --entry=valid --print-output | FileCheck %s --check-prefix=VALID
// RUN: dlc-run %s --entry=valid --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=VALID
// RUN: dlc-run %s --entry=padded_bias --print-output | FileCheck %s --check-prefix=PAD
// RUN: dlc-run %s --entry=padded_bias --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=PAD
// RUN: dlc-run %s --entry=tile4 --print-output | FileCheck %s --check-prefix=TILE4
// RUN: dlc-run %s --entry=tile4 --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=TILE4
// RUN: dlc-run %s --entry=tile4_nhwc --print-output | FileCheck %s --check-prefix=NHWC
// RUN: dlc-run %s --entry=tile4_nhwc --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=NHWC

// The 3x3 kernel of ones in F(2x2, 3x3): G g GT is the outer product of
// G's row sums (1, 3/2, 1/2, 1) with themselves.
// An input of ones, no padding: every output is the sum of 9 ones.
// VALID: output 0: f32[1x1x2x2] = {{\[\[\[\[}}9, 9], [9, 9]]]]
func.func @valid() -> tensor<1x1x2x2xf32> {
  %x = graph.constant dense<1.0> : tensor<1x1x4x4xf32>
  %u = graph.constant dense<[[[1.0]], [[1.5]], [[0.5]], [[1.0]], [[1.5]], [[2.25]], [[0.75]], [[1.5]],
                             [[0.5]], [[0.75]], [[0.25]], [[0.5]], [[1.0]], [[1.5]], [[0.5]], [[1.0]]]> : tensor<16x1x1xf32>
  %y = graph.conv2d_winograd %x, %u {tile = 2 : i64} : (tensor<1x1x4x4xf32>, tensor<16x1x1xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// Padding 1 on every side of a 3x3 input of ones, and a bias of 10: the
// window of a corner holds 4 ones, of an edge 6, of the center 9. The 3x3
// output is no multiple of the 2x2 tile: the last row and column of tiles
// are cut.
// PAD: output 0: f32[1x1x3x3] = {{\[\[\[\[}}14, 16, 14], [16, 19, 16], [14, 16, 14]]]]
func.func @padded_bias() -> tensor<1x1x3x3xf32> {
  %x = graph.constant dense<1.0> : tensor<1x1x3x3xf32>
  %u = graph.constant dense<[[[1.0]], [[1.5]], [[0.5]], [[1.0]], [[1.5]], [[2.25]], [[0.75]], [[1.5]],
                             [[0.5]], [[0.75]], [[0.25]], [[0.5]], [[1.0]], [[1.5]], [[0.5]], [[1.0]]]> : tensor<16x1x1xf32>
  %b = graph.constant dense<10.0> : tensor<1xf32>
  %y = graph.conv2d_winograd %x, %u, %b {tile = 2 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x3xf32>, tensor<16x1x1xf32>, tensor<1xf32>) -> tensor<1x1x3x3xf32>
  return %y : tensor<1x1x3x3xf32>
}

// F(4x4, 3x3) of the kernel with a single 1 in the middle (the identity):
// G g GT is the outer product of G's middle column (0, -1/6, 1/6, 1/12,
// -1/12, 0) with itself, and the output is the input. Two input channels
// (2 and 5 everywhere) feeding two output channels, the second taking
// channel 1 only through the same transformed kernel.
// TILE4: output 0: f32[1x2x4x4] = {{\[\[\[\[}}7, 7, 7, 7], [7, 7, 7, 7], [7, 7, 7, 7], [7, 7, 7, 7]], {{\[\[}}5, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5]]]]
func.func @tile4() -> tensor<1x2x4x4xf32> {
  %c0 = graph.constant dense<2.0> : tensor<1x1x6x6xf32>
  %c1 = graph.constant dense<5.0> : tensor<1x1x6x6xf32>
  %x = graph.concat %c0, %c1 {axis = 1 : i64} : (tensor<1x1x6x6xf32>, tensor<1x1x6x6xf32>) -> tensor<1x2x6x6xf32>
  // g[xi] = (0, -1/6, 1/6, 1/12, -1/12, 0); u[xi * 6 + nu] = g[xi] g[nu]
  %g = graph.constant dense<[[0.0, -0.16666667, 0.16666667, 0.083333333, -0.083333333, 0.0]]> : tensor<1x6xf32>
  %gt = graph.transpose %g {perm = array<i64: 1, 0>} : (tensor<1x6xf32>) -> tensor<6x1xf32>
  %outer = graph.matmul %gt, %g : (tensor<6x1xf32>, tensor<1x6xf32>) -> tensor<6x6xf32>
  %k = graph.reshape %outer : (tensor<6x6xf32>) -> tensor<36x1x1xf32>
  %zero = graph.constant dense<0.0> : tensor<36x1x1xf32>
  %row0 = graph.concat %k, %k {axis = 2 : i64} : (tensor<36x1x1xf32>, tensor<36x1x1xf32>) -> tensor<36x1x2xf32>
  %row1 = graph.concat %zero, %k {axis = 2 : i64} : (tensor<36x1x1xf32>, tensor<36x1x1xf32>) -> tensor<36x1x2xf32>
  %u = graph.concat %row0, %row1 {axis = 1 : i64} : (tensor<36x1x2xf32>, tensor<36x1x2xf32>) -> tensor<36x2x2xf32>
  %y = graph.conv2d_winograd %x, %u : (tensor<1x2x6x6xf32>, tensor<36x2x2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// @tile4 channels-last: the weights [36, C, O], channel 0 feeding output 0
// only, channel 1 both; every pixel is (2 + 5, 5).
// NHWC: output 0: f32[1x4x4x2] = {{\[\[\[\[}}7, 5], [7, 5], [7, 5], [7, 5]], {{\[\[}}7, 5], [7, 5], [7, 5], [7, 5]], {{\[\[}}7, 5], [7, 5], [7, 5], [7, 5]], {{\[\[}}7, 5], [7, 5], [7, 5], [7, 5]]]]
func.func @tile4_nhwc() -> tensor<1x4x4x2xf32> {
  %c0 = graph.constant dense<2.0> : tensor<1x6x6x1xf32>
  %c1 = graph.constant dense<5.0> : tensor<1x6x6x1xf32>
  %x = graph.concat %c0, %c1 {axis = 3 : i64} : (tensor<1x6x6x1xf32>, tensor<1x6x6x1xf32>) -> tensor<1x6x6x2xf32>
  %g = graph.constant dense<[[0.0, -0.16666667, 0.16666667, 0.083333333, -0.083333333, 0.0]]> : tensor<1x6xf32>
  %gt = graph.transpose %g {perm = array<i64: 1, 0>} : (tensor<1x6xf32>) -> tensor<6x1xf32>
  %outer = graph.matmul %gt, %g : (tensor<6x1xf32>, tensor<1x6xf32>) -> tensor<6x6xf32>
  %k = graph.reshape %outer : (tensor<6x6xf32>) -> tensor<36x1x1xf32>
  %zero = graph.constant dense<0.0> : tensor<36x1x1xf32>
  %from0 = graph.concat %k, %zero {axis = 2 : i64} : (tensor<36x1x1xf32>, tensor<36x1x1xf32>) -> tensor<36x1x2xf32>
  %from1 = graph.concat %k, %k {axis = 2 : i64} : (tensor<36x1x1xf32>, tensor<36x1x1xf32>) -> tensor<36x1x2xf32>
  %u = graph.concat %from0, %from1 {axis = 1 : i64} : (tensor<36x1x2xf32>, tensor<36x1x2xf32>) -> tensor<36x2x2xf32>
  %y = graph.conv2d_winograd %x, %u {data_layout = "NHWC"} : (tensor<1x6x6x2xf32>, tensor<36x2x2xf32>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}
