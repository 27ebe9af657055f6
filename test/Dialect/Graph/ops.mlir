// RUN: dlc-opt %s | FileCheck %s
// RUN: dlc-opt %s | dlc-opt | FileCheck %s
// RUN: dlc-opt %s --mlir-print-op-generic | dlc-opt | FileCheck %s

// Every graph op parses, verifies and prints back to the same form.

// CHECK-LABEL: func @constants
func.func @constants() -> (tensor<2x2xf32>, tensor<3xi64>, tensor<2xf16>, tensor<4xi8>) {
  // CHECK: graph.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  %0 = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  // CHECK: graph.constant dense<[1, -1, 0]> : tensor<3xi64>
  %1 = graph.constant dense<[1, -1, 0]> : tensor<3xi64>
  // CHECK: graph.constant dense_resource<blob_f16> : tensor<2xf16>
  %2 = graph.constant dense_resource<blob_f16> : tensor<2xf16>
  // CHECK: graph.constant dense<7> : tensor<4xi8>
  %3 = graph.constant dense<7> : tensor<4xi8>
  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<3xi64>, tensor<2xf16>, tensor<4xi8>
}

// CHECK-LABEL: func @conv2d_winograd
func.func @conv2d_winograd(%x: tensor<1x4x14x14xf32>, %u: tensor<36x8x4xf32>, %b: tensor<8xf32>,
    %u2: tensor<16x8x4xf32>) -> (tensor<1x8x14x14xf32>, tensor<1x8x12x12xf32>) {
  // CHECK: graph.conv2d_winograd %{{.*}}, %{{.*}}, %{{.*}} {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x14x14xf32>, tensor<36x8x4xf32>, tensor<8xf32>) -> tensor<1x8x14x14xf32>
  %0 = graph.conv2d_winograd %x, %u, %b {tile = 4 : i64, padding = array<i64: 1, 1, 1, 1>}
     : (tensor<1x4x14x14xf32>, tensor<36x8x4xf32>, tensor<8xf32>) -> tensor<1x8x14x14xf32>
  // CHECK: graph.conv2d_winograd %{{.*}}, %{{.*}} {tile = 2 : i64} : (tensor<1x4x14x14xf32>, tensor<16x8x4xf32>) -> tensor<1x8x12x12xf32>
  %1 = graph.conv2d_winograd %x, %u2 {tile = 2 : i64} : (tensor<1x4x14x14xf32>, tensor<16x8x4xf32>) -> tensor<1x8x12x12xf32>
  return %0, %1 : tensor<1x8x14x14xf32>, tensor<1x8x12x12xf32>
}

// CHECK-LABEL: func @conv_dense_matmul
func.func @conv_dense_matmul(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>,
    %b: tensor<4xf32>, %xh: tensor<1x8x8x6xf32>, %dw: tensor<3x3x1x6xf32>,
    %v: tensor<2x16xf32>, %dwt: tensor<10x16xf32>, %db: tensor<10xf32>,
    %m1: tensor<2x1x4x8xf32>, %m2: tensor<3x8x5xf32>, %q: tensor<12x16x8xf32>)
    -> (tensor<1x4x4x4xf32>, tensor<1x4x6x6xf32>, tensor<1x8x8x6xf32>,
        tensor<2x10xf32>, tensor<2x16xf32>, tensor<2x3x4x5xf32>, tensor<12x16x16xf32>) {
  // CHECK: graph.conv2d %{{.*}}, %{{.*}}, %{{.*}} {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
     : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  // CHECK: graph.conv2d %{{.*}}, %{{.*}} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  // CHECK: graph.conv2d {{.*}} {data_layout = "NHWC", dilations = array<i64: 2, 2>, groups = 6 : i64, kernel_layout = "HWIO", padding = array<i64: 2, 2, 2, 2>}
  %2 = graph.conv2d %xh, %dw {data_layout = "NHWC", kernel_layout = "HWIO", groups = 6 : i64,
                              dilations = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>}
     : (tensor<1x8x8x6xf32>, tensor<3x3x1x6xf32>) -> tensor<1x8x8x6xf32>
  // CHECK: graph.dense %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x16xf32>, tensor<10x16xf32>, tensor<10xf32>) -> tensor<2x10xf32>
  %3 = graph.dense %v, %dwt, %db : (tensor<2x16xf32>, tensor<10x16xf32>, tensor<10xf32>) -> tensor<2x10xf32>
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2xf32>
  %vec = graph.reduce_sum %v {axes = array<i64: 0>} : (tensor<2x16xf32>) -> tensor<16xf32>
  %4 = graph.matmul %v, %vec : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2xf32>
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
  %5 = graph.matmul %m1, %m2 : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: graph.batch_matmul %{{.*}}, %{{.*}} {transpose_b = true} : (tensor<12x16x8xf32>, tensor<12x16x8xf32>) -> tensor<12x16x16xf32>
  %6 = graph.batch_matmul %q, %q {transpose_b = true} : (tensor<12x16x8xf32>, tensor<12x16x8xf32>) -> tensor<12x16x16xf32>
  return %0, %1, %2, %3, %v, %5, %6 : tensor<1x4x4x4xf32>, tensor<1x4x6x6xf32>, tensor<1x8x8x6xf32>,
        tensor<2x10xf32>, tensor<2x16xf32>, tensor<2x3x4x5xf32>, tensor<12x16x16xf32>
}

// CHECK-LABEL: func @norms
func.func @norms(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>, %s: tensor<2x3x8xf32>,
                 %g: tensor<8xf32>) -> (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>) {
  // CHECK: graph.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64}
  %0 = graph.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-3 : f64}
     : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  // CHECK: graph.bias_add %{{.*}}, %{{.*}} : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  %1 = graph.bias_add %x, %p : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  // CHECK: graph.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.9999999999999998E-13 : f64}
  %2 = graph.layer_norm %s, %g, %g {epsilon = 1.0e-12 : f64}
     : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  // CHECK: graph.softmax %{{.*}} {axis = 1 : i64} : tensor<2x3x8xf32>
  %3 = graph.softmax %s {axis = 1 : i64} : tensor<2x3x8xf32>
  // CHECK: graph.fast_softmax %{{.*}} {axis = 1 : i64} : tensor<2x3x8xf32>
  %fs = graph.fast_softmax %s {axis = 1 : i64} : tensor<2x3x8xf32>
  return %0, %1, %2, %3 : tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>
}

// CHECK-LABEL: func @elementwise
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  // CHECK: graph.relu %{{.*}} : tensor<2x3xf32>
  %0 = graph.relu %a : tensor<2x3xf32>
  // CHECK: graph.sigmoid
  %1 = graph.sigmoid %0 : tensor<2x3xf32>
  // CHECK: graph.tanh
  %2 = graph.tanh %1 : tensor<2x3xf32>
  // CHECK: graph.gelu %{{.*}} : tensor<2x3xf32>
  %3 = graph.gelu %2 : tensor<2x3xf32>
  // CHECK: graph.gelu %{{.*}} {approximate = "tanh"} : tensor<2x3xf32>
  %4 = graph.gelu %3 {approximate = "tanh"} : tensor<2x3xf32>
  // CHECK: graph.erf
  %5 = graph.erf %4 : tensor<2x3xf32>
  // CHECK: graph.exp
  %6 = graph.exp %5 : tensor<2x3xf32>
  // CHECK: graph.fast_exp
  %fe = graph.fast_exp %5 : tensor<2x3xf32>
  // CHECK: graph.fast_erf
  %ferf = graph.fast_erf %5 : tensor<2x3xf32>
  // CHECK: graph.fast_tanh
  %ft = graph.fast_tanh %5 : tensor<2x3xf32>
  // CHECK: graph.log
  %7 = graph.log %6 : tensor<2x3xf32>
  // CHECK: graph.sqrt
  %8 = graph.sqrt %7 : tensor<2x3xf32>
  // CHECK: graph.rsqrt
  %9 = graph.rsqrt %8 : tensor<2x3xf32>
  // CHECK: graph.neg
  %10 = graph.neg %9 : tensor<2x3xf32>
  // CHECK: graph.abs
  %11 = graph.abs %10 : tensor<2x3xf32>
  // CHECK: graph.dropout %{{.*}} {rate = 1.000000e-01 : f64} : tensor<2x3xf32>
  %drop = graph.dropout %11 {rate = 0.1 : f64} : tensor<2x3xf32>
  // CHECK: graph.clip %{{.*}} {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<2x3xf32>
  %12 = graph.clip %11 {min = 0.0 : f64, max = 6.0 : f64} : tensor<2x3xf32>
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %13 = graph.add %12, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.sub
  %14 = graph.sub %13, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.mul
  %15 = graph.mul %14, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.div
  %16 = graph.div %15, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.pow
  %17 = graph.pow %16, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.maximum
  %18 = graph.maximum %17, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.minimum
  %19 = graph.minimum %18, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %20 = graph.add %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: graph.compare "gt", %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %21 = graph.compare "gt", %19, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: graph.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %22 = graph.select %21, %19, %b : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %22 : tensor<2x3xf32>
}

// CHECK-LABEL: func @pooling_reductions
func.func @pooling_reductions(%x: tensor<1x4x7x7xf32>, %h: tensor<1x7x7x4xf32>)
    -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>, tensor<1x4x1x1xf32>, tensor<4xf32>, tensor<f32>) {
  // CHECK: graph.max_pool2d %{{.*}} {ceil_mode = true, kernel_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x7x7xf32>) -> tensor<1x4x4x4xf32>
  %0 = graph.max_pool2d %x {kernel_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = true}
     : (tensor<1x4x7x7xf32>) -> tensor<1x4x4x4xf32>
  // CHECK: graph.avg_pool2d %{{.*}} {count_include_pad = true, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
  %1 = graph.avg_pool2d %x {kernel_size = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                            padding = array<i64: 1, 1, 1, 1>, count_include_pad = true}
     : (tensor<1x4x7x7xf32>) -> tensor<1x4x4x4xf32>
  // CHECK: graph.global_avg_pool2d %{{.*}} {layout = "NHWC"} : (tensor<1x7x7x4xf32>) -> tensor<1x1x1x4xf32>
  %2 = graph.global_avg_pool2d %h {layout = "NHWC"} : (tensor<1x7x7x4xf32>) -> tensor<1x1x1x4xf32>
  // CHECK: graph.reduce_mean %{{.*}} {axes = array<i64: 2, 3>, keepdims = true}
  %3 = graph.reduce_mean %x {axes = array<i64: 2, 3>, keepdims = true} : (tensor<1x4x7x7xf32>) -> tensor<1x4x1x1xf32>
  // CHECK: graph.reduce_max %{{.*}} {axes = array<i64: 0, -1, 2>}
  %4 = graph.reduce_max %x {axes = array<i64: 0, -1, 2>} : (tensor<1x4x7x7xf32>) -> tensor<4xf32>
  // CHECK: graph.reduce_sum %{{.*}} : (tensor<1x4x7x7xf32>) -> tensor<f32>
  %5 = graph.reduce_sum %x : (tensor<1x4x7x7xf32>) -> tensor<f32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>, tensor<1x4x1x1xf32>, tensor<4xf32>, tensor<f32>
}

// CHECK-LABEL: func @shapes
func.func @shapes(%x: tensor<2x3x4xf32>, %s: tensor<2xi64>, %ids: tensor<5xi32>, %img: tensor<1x16x7x7xf32>) -> tensor<6x4xf32> {
  // CHECK: graph.transpose %{{.*}} {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %0 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK: graph.reshape %{{.*}} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = graph.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK: graph.dynamic_reshape %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %2 = graph.dynamic_reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  // CHECK: graph.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  %3 = graph.concat %x, %x {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  // CHECK: graph.split %{{.*}} {axis = 1 : i64} : (tensor<2x6x4xf32>) -> (tensor<2x1x4xf32>, tensor<2x5x4xf32>)
  %4:2 = graph.split %3 {axis = 1 : i64} : (tensor<2x6x4xf32>) -> (tensor<2x1x4xf32>, tensor<2x5x4xf32>)
  // CHECK: graph.slice %{{.*}} {ends = array<i64: 2, -1, 4>, starts = array<i64: 0, 2, 1>, steps = array<i64: 1, -2, 2>} : (tensor<2x3x4xf32>) -> tensor<2x2x2xf32>
  %5 = graph.slice %x {starts = array<i64: 0, 2, 1>, ends = array<i64: 2, -1, 4>, steps = array<i64: 1, -2, 2>}
     : (tensor<2x3x4xf32>) -> tensor<2x2x2xf32>
  // CHECK: graph.pad %{{.*}} {mode = "reflect", pad_after = array<i64: 0, 2, 1>, pad_before = array<i64: 1, 0, 3>}
  %6 = graph.pad %x {pad_before = array<i64: 1, 0, 3>, pad_after = array<i64: 0, 2, 1>, mode = "reflect"}
     : (tensor<2x3x4xf32>) -> tensor<3x5x8xf32>
  // CHECK: graph.pad %{{.*}} {pad_after = array<i64: 0, 0, 0>, pad_before = array<i64: 0, 1, 0>, value = -1.000000e+00 : f64}
  %7 = graph.pad %x {pad_before = array<i64: 0, 1, 0>, pad_after = array<i64: 0, 0, 0>, value = -1.0 : f64}
     : (tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  // CHECK: graph.cast %{{.*}} : (tensor<2x3x4xf32>) -> tensor<2x3x4xbf16>
  %8 = graph.cast %x : (tensor<2x3x4xf32>) -> tensor<2x3x4xbf16>
  // CHECK: graph.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<5xi32>) -> tensor<2x5x4xf32>
  %9 = graph.gather %x, %ids {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<5xi32>) -> tensor<2x5x4xf32>
  // CHECK: graph.expand_dims %{{.*}} {axes = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4x1xf32>
  %10 = graph.expand_dims %x {axes = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4x1xf32>
  // CHECK: graph.squeeze %{{.*}} : (tensor<1x2x3x4x1xf32>) -> tensor<2x3x4xf32>
  %11 = graph.squeeze %10 : (tensor<1x2x3x4x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: graph.layout_transform %{{.*}} {dst_layout = "NCHW8c", src_layout = "NCHW"} : (tensor<1x16x7x7xf32>) -> tensor<1x2x7x7x8xf32>
  %12 = graph.layout_transform %img {src_layout = "NCHW", dst_layout = "NCHW8c"} : (tensor<1x16x7x7xf32>) -> tensor<1x2x7x7x8xf32>
  return %1 : tensor<6x4xf32>
}

// CHECK-LABEL: func @quantization
func.func @quantization(%x: tensor<2x3xf32>, %s: tensor<f32>, %z: tensor<i8>,
                        %sa: tensor<3xf32>, %za: tensor<3xi8>) -> tensor<2x3xf32> {
  // CHECK: graph.quantize %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %0 = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  // CHECK: graph.dequantize %{{.*}}, %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<2x3xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xf32>
  %1 = graph.dequantize %0, %sa, %za {axis = -1 : i64} : (tensor<2x3xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// CHECK-LABEL: func @detection
func.func @detection(%b: tensor<1x10x4xf32>, %s: tensor<1x3x10xf32>) -> tensor<1x5xi64> {
  // CHECK: graph.nms %{{.*}}, %{{.*}} {iou_threshold = 4.500000e-01 : f64, max_detections = 5 : i64} : (tensor<1x10x4xf32>, tensor<1x3x10xf32>) -> (tensor<1x5x4xf32>, tensor<1x5xf32>, tensor<1x5xi64>)
  %0:3 = graph.nms %b, %s {max_detections = 5 : i64, iou_threshold = 0.45 : f64}
     : (tensor<1x10x4xf32>, tensor<1x3x10xf32>) -> (tensor<1x5x4xf32>, tensor<1x5xf32>, tensor<1x5xi64>)
  return %0#2 : tensor<1x5xi64>
}

// CHECK-LABEL: func @regions
func.func @regions(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // CHECK: graph.fused %{{.*}}, %{{.*}} {pattern = "out_elemwise_fusable"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<1x3x8x8xf32>, %[[B:.*]]: tensor<4x3x3x3xf32>):
  // CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[A]], %[[B]]
  // CHECK-NEXT: %[[R:.*]] = graph.relu %[[C]]
  // CHECK-NEXT: graph.yield %[[R]] : tensor<1x4x6x6xf32>
  %0 = graph.fused %x, %w {pattern = "out_elemwise_fusable"}
     : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%a: tensor<1x3x8x8xf32>, %b: tensor<4x3x3x3xf32>):
    %c = graph.conv2d %a, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    %r = graph.relu %c : tensor<1x4x6x6xf32>
    graph.yield %r : tensor<1x4x6x6xf32>
  }
  // CHECK: graph.composite "conv2d_relu" %{{.*}}, %{{.*}} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // CHECK: graph.yield
  %1 = graph.composite "conv2d_relu" %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%a: tensor<1x3x8x8xf32>, %b: tensor<4x3x3x3xf32>):
    %c = graph.conv2d %a, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    %r = graph.relu %c : tensor<1x4x6x6xf32>
    graph.yield %r : tensor<1x4x6x6xf32>
  }
  return %1 : tensor<1x4x6x6xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob_f16: "0x02000000003C0040"
    }
  }
#-}

// CHECK-LABEL: func @math_and_indexing
func.func @math_and_indexing(%x: tensor<2x3xf32>, %d: tensor<4xf64>, %i: tensor<2x2xi64>) -> (tensor<2x3xf32>, tensor<4xf64>, tensor<2xf32>, tensor<2x1xf32>, tensor<2xi64>, tensor<1x3xi64>, tensor<2x6xf32>) {
  // CHECK: graph.sin %{{.*}} : tensor<2x3xf32>
  %0 = graph.sin %x : tensor<2x3xf32>
  // CHECK: graph.acosh %{{.*}} : tensor<2x3xf32>
  %1 = graph.acosh %0 : tensor<2x3xf32>
  // CHECK: graph.round %{{.*}} : tensor<4xf64>
  %2 = graph.round %d : tensor<4xf64>
  // CHECK: graph.reduce_min %{{.*}} {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %3 = graph.reduce_min %1 {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  // CHECK: graph.reduce_prod %{{.*}} {axes = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %4 = graph.reduce_prod %1 {axes = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  // CHECK: graph.arg_max %{{.*}} {axis = 1 : i64, keepdims = false, select_last_index = true} : (tensor<2x3xf32>) -> tensor<2xi64>
  %5 = graph.arg_max %x {axis = 1 : i64, keepdims = false, select_last_index = true} : (tensor<2x3xf32>) -> tensor<2xi64>
  // CHECK: graph.arg_min %{{.*}} : (tensor<2x3xf32>) -> tensor<1x3xi64>
  %6 = graph.arg_min %x : (tensor<2x3xf32>) -> tensor<1x3xi64>
  // CHECK: graph.gather_elements %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %7 = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  // CHECK: graph.resize %{{.*}} {coordinate_transformation_mode = "align_corners", mode = "cubic", scales = array<f64: 1.000000e+00, 2.000000e+00>} : (tensor<2x3xf32>) -> tensor<2x6xf32>
  %8 = graph.resize %x {scales = array<f64: 1.0, 2.0>, mode = "cubic", coordinate_transformation_mode = "align_corners"} : (tensor<2x3xf32>) -> tensor<2x6xf32>
  return %1, %2, %3, %4, %5, %6, %8 : tensor<2x3xf32>, tensor<4xf64>, tensor<2xf32>, tensor<2x1xf32>, tensor<2xi64>, tensor<1x3xi64>, tensor<2x6xf32>
}
