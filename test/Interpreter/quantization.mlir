// quantize rounds half to even and saturates; dequantize per axis.
// RUN: dlc-run %s --entry=quantize --print-output | FileCheck %s --check-prefix=Q
// RUN: dlc-run %s --entry=dequantize_per_axis --print-output | FileCheck %s --check-prefix=DQ

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
