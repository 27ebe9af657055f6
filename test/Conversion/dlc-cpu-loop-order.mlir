// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-loop-order))" | FileCheck %s

// A contraction (m, n | k) becomes (m, k | n) in loop order: n innermost.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func @matmul
// CHECK: indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// A plain reduction keeps its order.
// CHECK-LABEL: func @negative_reduction
// CHECK: iterator_types = ["parallel", "reduction"]
func.func @negative_reduction(%a: tensor<4x8xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %z, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A depthwise NCHW convolution (loops n, oh, ow, c | kh, kw): the loop of the
// output's contiguous dimension (ow), not the last parallel loop (c, a
// channel stride away), goes innermost: (n, oh, c, kh, kw, ow).
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d1, d5)>
// CHECK-LABEL: func @depthwise_nchw
// CHECK: indexing_maps = [{{.*}}, {{.*}}, #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]
func.func @depthwise_nchw(%x: tensor<1x4x6x6xf32>, %w: tensor<4x3x3xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c, kh, kw) -> (n, c, h + kh, w + kw)>,
                                        affine_map<(n, h, w, c, kh, kw) -> (c, kh, kw)>,
                                        affine_map<(n, h, w, c, kh, kw) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%o : tensor<1x4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}
