// 1 head, 32 queries, 128 keys, depth 8, values 512 wide: a block's output
// rows (16 x 512) with its scores exceed 48 KiB.
func.func @main(%q: tensor<1x32x8xf32>, %k: tensor<1x128x8xf32>, %v: tensor<1x128x512xf32>) -> tensor<1x32x512xf32> {
  %0 = graph.batch_matmul %q, %k {transpose_b = true} : (tensor<1x32x8xf32>, tensor<1x128x8xf32>) -> tensor<1x32x128xf32>
  %1 = graph.softmax %0 : tensor<1x32x128xf32>
  %2 = graph.batch_matmul %1, %v : (tensor<1x32x128xf32>, tensor<1x128x512xf32>) -> tensor<1x32x512xf32>
  return %2 : tensor<1x32x512xf32>
}
