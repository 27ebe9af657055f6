// Products whose tiles take each shape of tensor-core fragment loads, for
// checking them in f16 and bf16 (`;mixed=`): a dense layer of 64 x 64
// outputs over 1024 inputs (64 x 64 tiles, split; both factors
// contiguous along the reduction, B's fragments two column tiles at a
// time), attention-like batched products with a transposed operand (32 x
// 32 tiles: B's fragments one column tile at a time), and a matrix product
// whose B is not contiguous along the reduction (ldmatrix.trans), of 80
// (not a whole number of 32-element steps), and a 3x3 convolution (an
// implicit product: its weights contiguous along the reduction of 144,
// the im2col window not).
// No weights: every factor is an input.
func.func @main(%x: tensor<64x1024xf32>, %w: tensor<64x1024xf32>, %q: tensor<4x32x64xf32>,
                %k: tensor<4x48x64xf32>, %a: tensor<48x80xf32>, %b: tensor<80x40xf32>,
                %i: tensor<1x16x8x8xf32>, %f: tensor<32x16x3x3xf32>)
    -> (tensor<64x64xf32>, tensor<4x32x48xf32>, tensor<48x40xf32>, tensor<1x32x8x8xf32>) {
  %d = graph.dense %x, %w : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x64xf32>
  %s = graph.batch_matmul %q, %k {transpose_b = true} : (tensor<4x32x64xf32>, tensor<4x48x64xf32>) -> tensor<4x32x48xf32>
  %m = graph.matmul %a, %b : (tensor<48x80xf32>, tensor<80x40xf32>) -> tensor<48x40xf32>
  %c = graph.conv2d %i, %f {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x8x8xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x8x8xf32>
  return %d, %s, %m, %c : tensor<64x64xf32>, tensor<4x32x48xf32>, tensor<48x40xf32>, tensor<1x32x8x8xf32>
}
