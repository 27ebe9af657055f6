// Products with an input contiguous along its tile's rows or columns,
// which cp.async stages copy in chunks along them: a 1x1 convolution (its
// columns the image's 64 positions, read where they are), a matrix product
// (B's 96 columns) and attention-like batched products (the values' 48
// columns). The reductions, 64, are whole numbers of steps of 16 and 32.
// No weights: every factor is an input.
func.func @main(%x: tensor<2x64x8x8xf32>, %f: tensor<32x64x1x1xf32>, %a: tensor<48x64xf32>,
                %b: tensor<64x96xf32>, %p: tensor<4x32x64xf32>, %v: tensor<4x64x48xf32>)
    -> (tensor<2x32x8x8xf32>, tensor<48x96xf32>, tensor<4x32x48xf32>) {
  %c = graph.conv2d %x, %f {padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x8x8xf32>, tensor<32x64x1x1xf32>) -> tensor<2x32x8x8xf32>
  %m = graph.matmul %a, %b : (tensor<48x64xf32>, tensor<64x96xf32>) -> tensor<48x96xf32>
  %s = graph.batch_matmul %p, %v : (tensor<4x32x64xf32>, tensor<4x64x48xf32>) -> tensor<4x32x48xf32>
  return %c, %m, %s : tensor<2x32x8x8xf32>, tensor<48x96xf32>, tensor<4x32x48xf32>
}
