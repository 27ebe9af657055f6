func.func @main(%x: tensor<1x8x16x16xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x16x16xf32> {
  %c = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x16x16xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x16x16xf32>
  %r = graph.relu %c : tensor<1x8x16x16xf32>
  %s = graph.softmax %r {axis = 3 : i64} : tensor<1x8x16x16xf32>
  return %s : tensor<1x8x16x16xf32>
}
