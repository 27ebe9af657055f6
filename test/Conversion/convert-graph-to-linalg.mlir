// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(convert-graph-to-linalg))" | FileCheck %s

// NCHW convolution: padding, im2col columns (an affine copy [n, c, kh, kw,
// oh, ow], no index arithmetic), the bias broadcast to the product's shape
// [n, o, oh*ow] as its initial value, and a contraction over (o, k) x (k, p).
// CHECK: #[[IM2COL:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK-LABEL: func @conv
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[IM2COL]], {{.*}} outs(%{{.*}} : tensor<1x3x3x3x6x6xf32>)
// CHECK-NOT: tensor.extract
// CHECK: tensor.collapse_shape %arg1
// CHECK: linalg.generic {{.*}} ins(%arg2 : tensor<4xf32>) outs(%{{.*}} : tensor<1x4x36xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: graph.
func.func @conv(%x: tensor<1x3x6x6xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  %0 = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// Strides and dilations scale the im2col indices.
// CHECK: #[[STRIDED:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 * 2 + d2 * 2, d5 * 2 + d3 * 3)>
// CHECK-LABEL: func @conv_strided_dilated
// CHECK: linalg.generic {indexing_maps = [#[[STRIDED]], {{.*}} outs(%{{.*}} : tensor<1x3x3x3x3x2xf32>)
func.func @conv_strided_dilated(%x: tensor<1x3x9x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x3x2xf32> {
  %0 = graph.conv2d %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 2, 3>} : (tensor<1x3x9x9xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x2xf32>
  return %0 : tensor<1x4x3x2xf32>
}

// -----

// NHWC convolution: im2col rows (an affine copy [n, oh, ow, kh, kw, c],
// channels innermost) collapsed to [n*oh*ow, kh*kw*c], times the HWIO
// weight collapsed to [kh*kw*c, o] (one collapse: the CPU packs it), into
// [n*oh*ow, o] initialized with the bias along its columns, which is the
// NHWC output. A 1x1 stride-1 convolution's rows are its input's pixels.
// CHECK-DAG: #[[ROWS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d3, d2 * 2 + d4, d5)>
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func @conv_nhwc
// CHECK: tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: linalg.generic {indexing_maps = [#[[ROWS]], {{.*}} outs(%{{.*}} : tensor<1x3x3x3x3x2xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<1x3x3x3x3x2xf32> into tensor<9x18xf32>
// CHECK: tensor.collapse_shape %arg1 {{\[\[}}0, 1, 2], [3]] : tensor<3x3x2x4xf32> into tensor<18x4xf32>
// CHECK: linalg.generic {{.*}} ins(%arg2 : tensor<4xf32>) outs(%{{.*}} : tensor<9x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} : tensor<9x18xf32>, tensor<18x4xf32>)
// CHECK: tensor.expand_shape {{.*}} into tensor<1x3x3x4xf32>
// CHECK-LABEL: func @conv_nhwc_1x1
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2], [3]] : tensor<1x5x5x2xf32> into tensor<25x2xf32>
// CHECK: linalg.generic {{.*}} : tensor<25x2xf32>, tensor<2x4xf32>)
func.func @conv_nhwc(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x4xf32>, %b: tensor<4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = graph.conv2d %x, %w, %b {data_layout = "NHWC", kernel_layout = "HWIO", strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>, tensor<4xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}
func.func @conv_nhwc_1x1(%x: tensor<1x5x5x2xf32>, %w: tensor<1x1x2x4xf32>) -> tensor<1x5x5x4xf32> {
  %0 = graph.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x5x5x2xf32>, tensor<1x1x2x4xf32>) -> tensor<1x5x5x4xf32>
  return %0 : tensor<1x5x5x4xf32>
}

// -----

// Depthwise NHWC convolution and pooling use the named linalg ops.
// CHECK-LABEL: func @depthwise_and_pool
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK: linalg.pooling_nhwc_max
func.func @depthwise_and_pool(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x1x4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = graph.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO", groups = 4 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = graph.max_pool2d %0 {kernel_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, layout = "NHWC"} : (tensor<1x6x6x4xf32>) -> tensor<1x3x3x4xf32>
  return %1 : tensor<1x3x3x4xf32>
}

// -----

// Broadcasting binary ops are generics with broadcast maps.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @broadcast
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK: arith.addf
func.func @broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Fused regions are inlined; reshapes are views.
// CHECK-LABEL: func @fused_and_reshape
// CHECK-NOT: graph.fused
// CHECK: math.exp
// CHECK: tensor.collapse_shape
// CHECK: tensor.expand_shape
func.func @fused_and_reshape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.fused %x : (tensor<2x3xf32>) -> tensor<2x3xf32> {
  ^bb0(%a: tensor<2x3xf32>):
    %e = graph.exp %a : tensor<2x3xf32>
    graph.yield %e : tensor<2x3xf32>
  }
  %1 = graph.reshape %0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}

// NMS: loops over the operands' buffers into fresh result buffers; per image
// and class in parallel, the boxes above the threshold (scores and IoU in
// f64) made a heap in a buffer of i32 candidates, sifted down by while
// loops, then popped while a loop keeps those no kept box overlaps; then,
// per image in parallel, the best detections over all classes fill the
// results. Numerics: test/e2e/cpu-vs-reference.test and test/e2e/nms.test.
// CHECK-LABEL: func @nms
// CHECK-DAG: %[[B:.*]] = bufferization.to_buffer %arg0 read_only : tensor<1x3x4xf32> to memref<1x3x4xf32>
// CHECK-DAG: %[[S:.*]] = bufferization.to_buffer %arg1 read_only : tensor<1x2x3xf32> to memref<1x2x3xf32>
// CHECK: %[[CLS:.*]] = memref.alloc() : memref<1x2xi64>
// CHECK: %[[CAND:.*]] = memref.alloc() : memref<1x2x3xi32>
// CHECK-NOT: xi1>
// CHECK: scf.parallel {{.*}} to (%c1{{.*}}, %c2{{.*}})
// CHECK: arith.extf {{.*}} : f32 to f64
// CHECK: scf.while
// CHECK: scf.condition
// CHECK: memref.store {{.*}}, %[[CAND]]
// CHECK: scf.while
// CHECK: arith.divf {{.*}} : f64
// CHECK: scf.parallel {{.*}} to (%c1{{.*}})
// CHECK: %[[OUT:.*]] = bufferization.to_tensor %[[CLS]] restrict writable : memref<1x2xi64> to tensor<1x2xi64>
// CHECK: return %[[OUT]]
// CHECK-NOT: graph.
func.func @nms(%b: tensor<1x3x4xf32>, %s: tensor<1x2x3xf32>) -> tensor<1x2xi64> {
  %0:3 = graph.nms %b, %s {max_detections = 2 : i64} : (tensor<1x3x4xf32>, tensor<1x2x3xf32>) -> (tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xi64>)
  return %0#2 : tensor<1x2xi64>
}

// -----

// A batch of matrices times one matrix is one matrix product over all the
// batch's rows (a [16, 1, 8] batch would otherwise be 16 one-row products),
// reshaped back to the batch afterwards.
// CHECK-LABEL: func @matmul_shared_rhs
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0], [1, 2]] : tensor<16x1x8xf32> into tensor<16x8xf32>
// CHECK: linalg.generic {{.*}}["parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}}, %arg1 : tensor<16x8xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<16x4xf32>)
// CHECK: tensor.expand_shape {{.*}} into tensor<16x1x4xf32>
func.func @matmul_shared_rhs(%x: tensor<16x1x8xf32>, %w: tensor<8x4xf32>) -> tensor<16x1x4xf32> {
  %0 = graph.matmul %x, %w : (tensor<16x1x8xf32>, tensor<8x4xf32>) -> tensor<16x1x4xf32>
  return %0 : tensor<16x1x4xf32>
}

// -----

// A splat of 2^20 elements or more is filled at run time (LLVM would
// materialize it element by element); a smaller one stays a constant.
// CHECK-LABEL: func @large_splat
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1024x1024xf32>
// CHECK: linalg.fill ins(%[[ONE]] : f32) outs(%[[EMPTY]] : tensor<1024x1024xf32>)
// CHECK: arith.constant dense<2.000000e+00> : tensor<1023x1024xf32>
func.func @large_splat() -> (tensor<1024x1024xf32>, tensor<1023x1024xf32>) {
  %0 = graph.constant dense<1.0> : tensor<1024x1024xf32>
  %1 = graph.constant dense<2.0> : tensor<1023x1024xf32>
  return %0, %1 : tensor<1024x1024xf32>, tensor<1023x1024xf32>
}

// -----

// f16/bf16 products, convolutions and reductions compute in f32 and round
// once: the operands are widened, the f32 kernel runs, the result narrows.
// CHECK-LABEL: func @low_precision_product
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: arith.mulf {{.*}} : f32
// CHECK: arith.addf {{.*}} : f32
// CHECK: arith.truncf {{.*}} : f32 to f16
func.func @low_precision_product(%x: tensor<2x8xf16>, %w: tensor<4x8xf16>) -> tensor<2x4xf16> {
  %0 = graph.dense %x, %w : (tensor<2x8xf16>, tensor<4x8xf16>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

// An NHWC convolution of bf16 lowers in bf16 itself: the padding and the
// im2col move bf16 values, the two matrices the product reads are widened
// as they are (the form dlc-cpu-pack-weights pairs for bf16 dot products),
// the bias too, and the f32 result rounds once.
// CHECK-LABEL: func @low_precision_nhwc_conv
// CHECK: tensor.pad %arg0
// CHECK: tensor<1x5x5x2xbf16> to tensor<1x7x7x2xbf16>
// CHECK: linalg.generic {{.*}} outs({{.*}} : tensor<1x3x3x3x3x2xbf16>)
// CHECK: %[[COLS:.*]] = tensor.collapse_shape {{.*}} into tensor<9x18xbf16>
// CHECK: %[[W:.*]] = tensor.collapse_shape {{.*}} into tensor<18x4xbf16>
// CHECK: %[[WC:.*]] = linalg.generic {{.*}} ins(%[[COLS]] : tensor<9x18xbf16>) outs({{.*}} : tensor<9x18xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.extf
// CHECK: %[[WW:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<18x4xbf16>) outs({{.*}} : tensor<18x4xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.extf
// CHECK: linalg.generic {{.*}} ins({{.*}} : tensor<4xbf16>) outs({{.*}} : tensor<9x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[WC]], %[[WW]] : tensor<9x18xf32>, tensor<18x4xf32>)
// CHECK: arith.truncf {{.*}} : f32 to bf16
func.func @low_precision_nhwc_conv(%x: tensor<1x5x5x2xbf16>, %w: tensor<3x3x2x4xbf16>, %b: tensor<4xbf16>) -> tensor<1x3x3x4xbf16> {
  %0 = graph.conv2d %x, %w, %b {data_layout = "NHWC", kernel_layout = "HWIO", strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x5x5x2xbf16>, tensor<3x3x2x4xbf16>, tensor<4xbf16>) -> tensor<1x3x3x4xbf16>
  return %0 : tensor<1x3x3x4xbf16>
}
