// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fake-quantization-to-integer))" 2>/dev/null | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fake-quantization-to-integer))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s -split-input-file --dlc-pipeline=list:FakeQuantizationToInteger 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// STATS: graph-fake-quantization-to-integer: integer-ops 10, regions 5, skipped 3
// REMARK: remark: FakeQuantizationToInteger: region kept in float: no integer rule for graph.softmax
// REMARK: remark: FakeQuantizationToInteger: region kept in float: add of values with different scales or zero points
// REMARK: remark: FakeQuantizationToInteger: region kept in float: quantize with parameters that are not constants

// A convolution with weights quantized per output channel, a float bias
// and relu: i8 input widened to i32 minus its zero point, weights centered
// at compile time, the bias at scale s_x * s_w, relu on the accumulator,
// then requantized per channel (s_y / (s_x * s_w)). The input's own
// quantize bounds no region and stays.
// CHECK-LABEL: func @conv_relu
// CHECK: %[[XQ:.*]] = graph.quantize %arg0
// CHECK: %[[XW:.*]] = graph.cast %[[XQ]] : (tensor<1x2x4x4xi8>) -> tensor<1x2x4x4xi32>
// CHECK: %[[ZX:.*]] = graph.constant dense<3> : tensor<i32>
// CHECK: %[[XC:.*]] = graph.sub %[[XW]], %[[ZX]]
// CHECK: %[[W:.*]] = graph.constant dense_resource<centered> : tensor<3x2x3x3xi32>
// CHECK: %[[B:.*]] = graph.constant dense<[100, -400, 33]> : tensor<3xi32>
// CHECK: %[[C:.*]] = graph.conv2d %[[XC]], %[[W]], %[[B]] {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xi32>, tensor<3x2x3x3xi32>, tensor<3xi32>) -> tensor<1x3x4x4xi32>
// CHECK: %[[R:.*]] = graph.relu %[[C]] : tensor<1x3x4x4xi32>
// CHECK: %[[F:.*]] = graph.cast %[[R]] : (tensor<1x3x4x4xi32>) -> tensor<1x3x4x4xf32>
// CHECK: %[[S:.*]] = graph.constant dense<[4.000000e+01, 8.000000e+01, 26.666666]> : tensor<3xf32>
// CHECK: %[[Z:.*]] = graph.constant dense<-5> : tensor<3xi8>
// CHECK: %[[Y:.*]] = graph.quantize %[[F]], %[[S]], %[[Z]] : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<1x3x4x4xi8>
// CHECK-NOT: graph.dequantize
// CHECK: return %[[Y]]
func.func @conv_relu(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xi8> {
  %sx = graph.constant dense<0.05> : tensor<f32>
  %zx = graph.constant dense<3> : tensor<i8>
  %xq = graph.quantize %x, %sx, %zx : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xi8>
  %xd = graph.dequantize %xq, %sx, %zx : (tensor<1x2x4x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xf32>
  %wq = graph.constant dense<[[[[1, -2, 3], [4, 5, -6], [7, 8, 9]], [[-1, 2, -3], [4, -5, 6], [7, -8, 9]]], [[[2, 2, 2], [2, 2, 2], [2, 2, 2]], [[1, 1, 1], [1, 1, 1], [1, 1, 1]]], [[[0, 1, 0], [1, -4, 1], [0, 1, 0]], [[3, 0, -3], [3, 0, -3], [3, 0, -3]]]]> : tensor<3x2x3x3xi8>
  %sw = graph.constant dense<[0.02, 0.01, 0.03]> : tensor<3xf32>
  %zw = graph.constant dense<[0, 1, 0]> : tensor<3xi8>
  %wd = graph.dequantize %wq, %sw, %zw {axis = 0 : i64} : (tensor<3x2x3x3xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<3x2x3x3xf32>
  %b = graph.constant dense<[0.1, -0.2, 0.05]> : tensor<3xf32>
  %c = graph.conv2d %xd, %wd, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  %r = graph.relu %c : tensor<1x3x4x4xf32>
  %sy = graph.constant dense<0.04> : tensor<f32>
  %zy = graph.constant dense<-5> : tensor<i8>
  %y = graph.quantize %r, %sy, %zy : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3x4x4xi8>
  return %y : tensor<1x3x4x4xi8>
}

// -----

// dense, an added constant (at the accumulator's scale) and a clip, with
// the output dequantized again as QDQ models do.
// CHECK-LABEL: func @dense_add_clip
// CHECK: graph.dense {{.*}} : (tensor<2x4xi32>, tensor<3x4xi32>) -> tensor<2x3xi32>
// CHECK: graph.add {{.*}} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK: graph.clip {{.*}} {max = 4.000000e+02 : f64, min = -4.000000e+02 : f64} : tensor<2x3xi32>
// CHECK: graph.quantize {{.*}} -> tensor<2x3xi8>
// CHECK: graph.dequantize
func.func @dense_add_clip(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %s = graph.constant dense<0.1> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %xq = graph.quantize %x, %s, %z : (tensor<2x4xf32>, tensor<f32>, tensor<i8>) -> tensor<2x4xi8>
  %xd = graph.dequantize %xq, %s, %z : (tensor<2x4xi8>, tensor<f32>, tensor<i8>) -> tensor<2x4xf32>
  %wq = graph.constant dense<[[10, -20, 30, 5], [1, 2, 3, 4], [-7, 7, -7, 7]]> : tensor<3x4xi8>
  %sw = graph.constant dense<0.05> : tensor<f32>
  %wd = graph.dequantize %wq, %sw, %z : (tensor<3x4xi8>, tensor<f32>, tensor<i8>) -> tensor<3x4xf32>
  %d = graph.dense %xd, %wd : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %c = graph.constant dense<[0.25, -0.5, 0.0]> : tensor<3xf32>
  %a = graph.add %d, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %k = graph.clip %a {min = -2.0 : f64, max = 2.0 : f64} : tensor<2x3xf32>
  %sy = graph.constant dense<0.02> : tensor<f32>
  %yq = graph.quantize %k, %sy, %z : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %y = graph.dequantize %yq, %sy, %z : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// Max pooling and a reshape keep the parameters: the region's result is
// the i8 value itself, no requantization. relu with a zero point of 4 is
// max(q, 4).
// CHECK-LABEL: func @pool_reshape_relu
// CHECK: %[[P:.*]] = graph.max_pool2d %{{.*}} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
// CHECK: %[[R:.*]] = graph.reshape %[[P]] : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
// CHECK: %[[Z:.*]] = graph.constant dense<4> : tensor<i8>
// CHECK: %[[M:.*]] = graph.maximum %[[R]], %[[Z]]
// CHECK-NOT: graph.quantize
// CHECK: return %[[M]]
func.func @pool_reshape_relu(%q: tensor<1x2x4x4xi8>) -> tensor<1x8xi8> {
  %s = graph.constant dense<0.1> : tensor<f32>
  %z = graph.constant dense<4> : tensor<i8>
  %x = graph.dequantize %q, %s, %z : (tensor<1x2x4x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xf32>
  %p = graph.max_pool2d %x {kernel_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %r = graph.reshape %p : (tensor<1x2x2x2xf32>) -> tensor<1x8xf32>
  %u = graph.relu %r : tensor<1x8xf32>
  %y = graph.quantize %u, %s, %z : (tensor<1x8xf32>, tensor<f32>, tensor<i8>) -> tensor<1x8xi8>
  return %y : tensor<1x8xi8>
}

// -----

// Two regions in sequence (the second reads the first's quantized result).
// CHECK-LABEL: func @two_regions
// CHECK-COUNT-2: graph.matmul {{.*}}xi32>
// CHECK-NOT: graph.dequantize
func.func @two_regions(%a: tensor<2x2xi8>) -> tensor<2x2xi8> {
  %s = graph.constant dense<0.1> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %x = graph.dequantize %a, %s, %z : (tensor<2x2xi8>, tensor<f32>, tensor<i8>) -> tensor<2x2xf32>
  %m = graph.matmul %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %q = graph.quantize %m, %s, %z : (tensor<2x2xf32>, tensor<f32>, tensor<i8>) -> tensor<2x2xi8>
  %x2 = graph.dequantize %q, %s, %z : (tensor<2x2xi8>, tensor<f32>, tensor<i8>) -> tensor<2x2xf32>
  %m2 = graph.matmul %x2, %x2 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %q2 = graph.quantize %m2, %s, %z : (tensor<2x2xf32>, tensor<f32>, tensor<i8>) -> tensor<2x2xi8>
  return %q2 : tensor<2x2xi8>
}

// -----

// softmax has no integer rule: the region stays float, with a remark.
// CHECK-LABEL: func @negative_softmax
// CHECK: graph.dequantize
// CHECK: graph.softmax {{.*}} : tensor<1x4xf32>
// CHECK: graph.quantize
func.func @negative_softmax(%q: tensor<1x4xi8>) -> tensor<1x4xi8> {
  %s = graph.constant dense<0.1> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %x = graph.dequantize %q, %s, %z : (tensor<1x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x4xf32>
  %y = graph.softmax %x {axis = 1 : i64} : tensor<1x4xf32>
  %o = graph.quantize %y, %s, %z : (tensor<1x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4xi8>
  return %o : tensor<1x4xi8>
}

// -----

// Adding values of different scales would need a requantization of each
// side first: not converted.
// CHECK-LABEL: func @negative_add_scales
// CHECK: graph.add {{.*}}xf32>
func.func @negative_add_scales(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %s1 = graph.constant dense<0.1> : tensor<f32>
  %s2 = graph.constant dense<0.2> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %x = graph.dequantize %a, %s1, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  %y = graph.dequantize %b, %s2, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  %sum = graph.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %o = graph.quantize %sum, %s2, %z : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  return %o : tensor<4xi8>
}

// -----

// Scales that are not constants cannot become integer arithmetic.
// CHECK-LABEL: func @negative_dynamic_scale
// CHECK: graph.dequantize
// CHECK: graph.relu {{.*}}xf32>
func.func @negative_dynamic_scale(%a: tensor<4xi8>, %s: tensor<f32>) -> tensor<4xi8> {
  %z = graph.constant dense<0> : tensor<i8>
  %x = graph.dequantize %a, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  %r = graph.relu %x : tensor<4xf32>
  %o = graph.quantize %r, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  return %o : tensor<4xi8>
}
