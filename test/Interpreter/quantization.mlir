// quantize rounds half to even and saturates; dequantize per axis.
// RUN: dlc-run %s --entry=quantize --print-output | FileCheck %s --check-prefix=Q
// RUN: dlc-run %s --entry=dequantize_per_axis --print-output | FileCheck %s --check-prefix=DQ
// RUN: dlc-run %s --entry=integer_products --print-output | FileCheck %s --check-prefix=INT

// x / 1 + 0: 0.5 -> 0, 1.5 -> 2, -2.5 -> -2, 300 -> 127, -300 -> -128;
// with scale 0.5 and zero point 10: 0.5 / 0.5 + 10 = 11, ...
// Q: output 0: i8[5] = [0, 2, -2, 127, -128]
// Q: output 1: i8[5] = [11, 13, 5, 127, -128]
func.func @quantize() -> (tensor<5xi8>, tensor<5xi8>) {
  %x = graph.constant dense<[0.5, 1.5, -2.5, 300.0, -300.0]> : tensor<5xf32>
  %s = graph.constant dense<1.0> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %0 = graph.quantize %x, %s, %z : (tensor<5xf32>, tensor<f32>, tensor<i8>) -> tensor<5xi8>
  %s2 = graph.constant dense<0.5> : tensor<1xf32>
  %z2 = graph.constant dense<10> : tensor<1xi8>
  %1 = graph.quantize %x, %s2, %z2 : (tensor<5xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<5xi8>
  return %0, %1 : tensor<5xi8>, tensor<5xi8>
}

// Column 0: (x - 0) * 1; column 1: (x - 2) * 0.5.
// DQ: output 0: f32[2x2] = {{\[\[}}1, 0], [3, 1]]
func.func @dequantize_per_axis() -> tensor<2x2xf32> {
  %x = graph.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %s = graph.constant dense<[1.0, 0.5]> : tensor<2xf32>
  %z = graph.constant dense<[0, 2]> : tensor<2xi8>
  %0 = graph.dequantize %x, %s, %z {axis = 1 : i64} : (tensor<2x2xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// Products of integers (what FakeQuantizationToInteger produces: i8 values
// widened to i32, zero points subtracted) compute exactly in i32.
// conv: [1 2; 3 4] with the 2x2 kernel [1 -1; 2 -2] is 1 - 2 + 6 - 8 = -3,
// plus bias 10; dense: [100 -100] . rows [3 1] and [-2 5] = [200, -700]
// (dense multiplies by the transposed weight); matmul [[1 2]] x [[3], [4]] = 11; batch_matmul 127 * 127 * 2 = 32258.
// INT: output 0: i32[1x1x1x1] = {{\[\[\[\[}}7]]]]
// INT: output 1: i32[1x2] = {{\[\[}}200, -700]]
// INT: output 2: i32[1x1] = {{\[\[}}11]]
// INT: output 3: i32[1x1x1] = {{\[\[\[}}32258]]]
func.func @integer_products() -> (tensor<1x1x1x1xi32>, tensor<1x2xi32>, tensor<1x1xi32>, tensor<1x1x1xi32>) {
  %x = graph.constant dense<[[[[1, 2], [3, 4]]]]> : tensor<1x1x2x2xi32>
  %w = graph.constant dense<[[[[1, -1], [2, -2]]]]> : tensor<1x1x2x2xi32>
  %b = graph.constant dense<[10]> : tensor<1xi32>
  %0 = graph.conv2d %x, %w, %b : (tensor<1x1x2x2xi32>, tensor<1x1x2x2xi32>, tensor<1xi32>) -> tensor<1x1x1x1xi32>
  %d = graph.constant dense<[[100, -100]]> : tensor<1x2xi32>
  %dw = graph.constant dense<[[3, 1], [-2, 5]]> : tensor<2x2xi32>
  %1 = graph.dense %d, %dw : (tensor<1x2xi32>, tensor<2x2xi32>) -> tensor<1x2xi32>
  %l = graph.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %r = graph.constant dense<[[3], [4]]> : tensor<2x1xi32>
  %2 = graph.matmul %l, %r : (tensor<1x2xi32>, tensor<2x1xi32>) -> tensor<1x1xi32>
  %bl = graph.constant dense<[[[127, 127]]]> : tensor<1x1x2xi32>
  %br = graph.constant dense<[[[127], [127]]]> : tensor<1x2x1xi32>
  %3 = graph.batch_matmul %bl, %br : (tensor<1x1x2xi32>, tensor<1x2x1xi32>) -> tensor<1x1x1xi32>
  return %0, %1, %2, %3 : tensor<1x1x1x1xi32>, tensor<1x2xi32>, tensor<1x1xi32>, tensor<1x1x1xi32>
}

// The same products on values from the function's inputs (not folded):
// compared with the CPU by test/e2e/cpu-vs-reference.test.
func.func @integer_products_inputs(%x: tensor<1x3x6x6xi32>, %w: tensor<4x3x3x3xi32>,
                                   %d: tensor<2x5x7xi32>, %dw: tensor<6x7xi32>)
    -> (tensor<1x4x4x4xi32>, tensor<2x5x6xi32>, tensor<2x5x5xi32>) {
  %0 = graph.conv2d %x, %w : (tensor<1x3x6x6xi32>, tensor<4x3x3x3xi32>) -> tensor<1x4x4x4xi32>
  %1 = graph.dense %d, %dw : (tensor<2x5x7xi32>, tensor<6x7xi32>) -> tensor<2x5x6xi32>
  %2 = graph.batch_matmul %d, %d {transpose_b = true} : (tensor<2x5x7xi32>, tensor<2x5x7xi32>) -> tensor<2x5x5xi32>
  return %0, %1, %2 : tensor<1x4x4x4xi32>, tensor<2x5x6xi32>, tensor<2x5x5xi32>
}
