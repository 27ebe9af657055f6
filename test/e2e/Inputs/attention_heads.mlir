// A batch of 2 sequences, 3 heads each, the context's heads merged back
// into each row (BERT's reshape, transpose and reshape after the context
// product): MergeComposite takes the merge into the composite, and each
// block of rows is written where the merged result has it: 64 rows of 512
// keys, two blocks of 32 rows a head on the CPU, 16 of 4 on the GPU.
func.func @main(%q: tensor<6x64x8xf32>, %k: tensor<6x512x8xf32>, %mask: tensor<2x1x1x512xf32>, %v: tensor<6x512x8xf32>) -> tensor<2x64x24xf32> {
  %0 = graph.batch_matmul %q, %k {transpose_b = true} : (tensor<6x64x8xf32>, tensor<6x512x8xf32>) -> tensor<6x64x512xf32>
  %1 = graph.reshape %0 : (tensor<6x64x512xf32>) -> tensor<2x3x64x512xf32>
  %c = graph.constant dense<3.535534e-01> : tensor<f32>
  %2 = graph.mul %1, %c : (tensor<2x3x64x512xf32>, tensor<f32>) -> tensor<2x3x64x512xf32>
  %3 = graph.add %2, %mask : (tensor<2x3x64x512xf32>, tensor<2x1x1x512xf32>) -> tensor<2x3x64x512xf32>
  %4 = graph.softmax %3 : tensor<2x3x64x512xf32>
  %5 = graph.reshape %4 : (tensor<2x3x64x512xf32>) -> tensor<6x64x512xf32>
  %6 = graph.batch_matmul %5, %v : (tensor<6x64x512xf32>, tensor<6x512x8xf32>) -> tensor<6x64x8xf32>
  %7 = graph.reshape %6 : (tensor<6x64x8xf32>) -> tensor<2x3x64x8xf32>
  %8 = graph.transpose %7 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x3x64x8xf32>) -> tensor<2x64x3x8xf32>
  %9 = graph.reshape %8 : (tensor<2x64x3x8xf32>) -> tensor<2x64x24xf32>
  return %9 : tensor<2x64x24xf32>
}
