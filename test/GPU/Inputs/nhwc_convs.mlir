// Convolutions in NHWC with HWIO weights (AlterOpLayout's target=cpu-nhwc
// layouts), padded, of stride 1 and 2: the im2col matrix of each is
// contiguous along the reduction within a tap (a pixel's channels, a
// whole number of 16-byte chunks), and a chunk is either the pixel's or,
// at the borders, the padding's zeros. No weights: every factor is an
// input.
func.func @main(%x: tensor<2x14x14x64xf32>, %f: tensor<3x3x64x32xf32>, %g: tensor<3x3x32x48xf32>)
    -> (tensor<2x14x14x32xf32>, tensor<2x7x7x48xf32>) {
  %c = graph.conv2d %x, %f {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x14x14x64xf32>, tensor<3x3x64x32xf32>) -> tensor<2x14x14x32xf32>
  %d = graph.conv2d %c, %g {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<2x14x14x32xf32>, tensor<3x3x32x48xf32>) -> tensor<2x7x7x48xf32>
  return %c, %d : tensor<2x14x14x32xf32>, tensor<2x7x7x48xf32>
}
