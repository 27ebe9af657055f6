// A matrix product large enough for 128 x 128 output tiles on the GPU (2048
// x 1024 outputs: 128 blocks), its ReLU, and the sums of its rows and of its
// columns: a tile computed wrong changes sums of both, and the outputs stay
// small enough to travel to a GPU machine. No weights: both factors are
// inputs.
func.func @main(%a: tensor<2048x256xf32>, %b: tensor<256x1024xf32>)
    -> (tensor<2048xf32>, tensor<1024xf32>) {
  %p = graph.matmul %a, %b : (tensor<2048x256xf32>, tensor<256x1024xf32>) -> tensor<2048x1024xf32>
  %r = graph.relu %p : tensor<2048x1024xf32>
  %rows = graph.reduce_sum %r {axes = array<i64: 1>} : (tensor<2048x1024xf32>) -> tensor<2048xf32>
  %cols = graph.reduce_sum %r {axes = array<i64: 0>} : (tensor<2048x1024xf32>) -> tensor<1024xf32>
  return %rows, %cols : tensor<2048xf32>, tensor<1024xf32>
}
