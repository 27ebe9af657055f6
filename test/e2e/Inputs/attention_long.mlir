// Attention without scale or mask over 512 keys: blocks of fewer rows than
// the queries (64 KiB of scores a block), 4 heads.
func.func @main(%q: tensor<4x64x16xf32>, %k: tensor<4x512x16xf32>, %v: tensor<4x512x16xf32>) -> tensor<4x64x16xf32> {
  %0 = graph.batch_matmul %q, %k {transpose_b = true} : (tensor<4x64x16xf32>, tensor<4x512x16xf32>) -> tensor<4x64x512xf32>
  %1 = graph.softmax %0 : tensor<4x64x512xf32>
  %2 = graph.batch_matmul %1, %v : (tensor<4x64x512xf32>, tensor<4x512x16xf32>) -> tensor<4x64x16xf32>
  return %2 : tensor<4x64x16xf32>
}
