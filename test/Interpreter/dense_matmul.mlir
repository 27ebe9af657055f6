// Hand-computed dense, matmul and batch_matmul results.
// RUN: dlc-run %s --entry=dense --print-output | FileCheck %s --check-prefix=DENSE
// RUN: dlc-run %s --entry=matvec --print-output | FileCheck %s --check-prefix=MATVEC
// RUN: dlc-run %s --entry=vecmat --print-output | FileCheck %s --check-prefix=VECMAT
// RUN: dlc-run %s --entry=batch_broadcast --print-output | FileCheck %s --check-prefix=BCAST
// RUN: dlc-run %s --entry=bmm_tb --print-output | FileCheck %s --check-prefix=TB
// RUN: dlc-run %s --entry=bmm_ta --print-output | FileCheck %s --check-prefix=TA

// DENSE: output 0: f32[2x3] = {{\[\[}}1, 2, 13], [3, 4, 17]]
func.func @dense() -> tensor<2x3xf32> {
  %x = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %w = graph.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %b = graph.constant dense<[0.0, 0.0, 10.0]> : tensor<3xf32>
  %y = graph.dense %x, %w, %b : (tensor<2x2xf32>, tensor<3x2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// MATVEC: output 0: f32[2] = [3, 7]
func.func @matvec() -> tensor<2xf32> {
  %a = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %v = graph.constant dense<1.0> : tensor<2xf32>
  %y = graph.matmul %a, %v : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// VECMAT: output 0: f32[2] = [4, 6]
func.func @vecmat() -> tensor<2xf32> {
  %a = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %v = graph.constant dense<1.0> : tensor<2xf32>
  %y = graph.matmul %v, %a : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// A batch of two 1x2 rows times one shared 2x1 column.
// BCAST: output 0: f32[2x1x1] = {{\[\[\[}}21]], {{\[\[}}43]]]
func.func @batch_broadcast() -> tensor<2x1x1xf32> {
  %a = graph.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>
  %b = graph.constant dense<[[1.0], [10.0]]> : tensor<2x1xf32>
  %y = graph.matmul %a, %b : (tensor<2x1x2xf32>, tensor<2x1xf32>) -> tensor<2x1x1xf32>
  return %y : tensor<2x1x1xf32>
}

// a * b^T with a = [[1,2],[3,4]], b = [[1,0],[1,1]].
// TB: output 0: f32[1x2x2] = {{\[\[\[}}1, 3], [3, 7]]]
func.func @bmm_tb() -> tensor<1x2x2xf32> {
  %a = graph.constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>
  %b = graph.constant dense<[[[1.0, 0.0], [1.0, 1.0]]]> : tensor<1x2x2xf32>
  %y = graph.batch_matmul %a, %b {transpose_b = true} : (tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  return %y : tensor<1x2x2xf32>
}

// a^T * b, with the batch of b (1) broadcast to 2.
// TA: output 0: f32[2x2x2] = {{\[\[\[}}4, 3], [6, 4]], {{\[\[}}1, 0], [1, 1]]]
func.func @bmm_ta() -> tensor<2x2x2xf32> {
  %a = graph.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]]> : tensor<2x2x2xf32>
  %b = graph.constant dense<[[[1.0, 0.0], [1.0, 1.0]]]> : tensor<1x2x2xf32>
  %y = graph.batch_matmul %a, %b {transpose_a = true} : (tensor<2x2x2xf32>, tensor<1x2x2xf32>) -> tensor<2x2x2xf32>
  return %y : tensor<2x2x2xf32>
}
