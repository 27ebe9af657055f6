// Attention as BERT's (scores by K transposed, scaled, a mask over the keys,
// softmax, context) at odd sizes: 3 heads, 20 queries, 36 keys, depth 8.
func.func @main(%q: tensor<3x20x8xf32>, %k: tensor<3x36x8xf32>, %mask: tensor<1x1x1x36xf32>, %v: tensor<3x36x12xf32>) -> tensor<3x20x12xf32> {
  %0 = graph.batch_matmul %q, %k {transpose_b = true} : (tensor<3x20x8xf32>, tensor<3x36x8xf32>) -> tensor<3x20x36xf32>
  %1 = graph.reshape %0 : (tensor<3x20x36xf32>) -> tensor<1x3x20x36xf32>
  %c = graph.constant dense<2.828427e+00> : tensor<f32>
  %2 = graph.div %1, %c : (tensor<1x3x20x36xf32>, tensor<f32>) -> tensor<1x3x20x36xf32>
  %3 = graph.add %2, %mask : (tensor<1x3x20x36xf32>, tensor<1x1x1x36xf32>) -> tensor<1x3x20x36xf32>
  %4 = graph.softmax %3 : tensor<1x3x20x36xf32>
  %5 = graph.reshape %4 : (tensor<1x3x20x36xf32>) -> tensor<3x20x36xf32>
  %6 = graph.batch_matmul %5, %v : (tensor<3x20x36xf32>, tensor<3x36x12xf32>) -> tensor<3x20x12xf32>
  return %6 : tensor<3x20x12xf32>
}
