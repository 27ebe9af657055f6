// softmax, layer_norm, batch_norm, bias_add, reductions and arg_max/arg_min.
// RUN: dlc-run %s --entry=softmax --print-output | FileCheck %s --check-prefix=SOFTMAX
// RUN: dlc-run %s --entry=layer_norm --print-output | FileCheck %s --check-prefix=LN
// RUN: dlc-run %s --entry=batch_norm --print-output | FileCheck %s --check-prefix=BN
// RUN: dlc-run %s --entry=reductions --print-output | FileCheck %s --check-prefix=RED
// RUN: dlc-run %s --entry=min_prod --print-output | FileCheck %s --check-prefix=MINPROD
// RUN: dlc-run %s --entry=min_prod --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=MINPROD
// RUN: dlc-run %s --entry=arg_reduce --print-output | FileCheck %s --check-prefix=ARG
// RUN: dlc-run %s --entry=arg_reduce --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=ARG

// exp([1,2,3]) / sum; along axis 0 of a 2x2 tensor of equal values, 0.5 each.
// SOFTMAX: output 0: f32[3] = [0.0900306, 0.244728, 0.665241]
// SOFTMAX: output 1: f32[2x2] = {{\[\[}}0.5, 0.5], [0.5, 0.5]]
func.func @softmax() -> (tensor<3xf32>, tensor<2x2xf32>) {
  %x = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = graph.softmax %x : tensor<3xf32>
  %y = graph.constant dense<[[1.0, 5.0], [1.0, 5.0]]> : tensor<2x2xf32>
  %1 = graph.softmax %y {axis = 0 : i64} : tensor<2x2xf32>
  return %0, %1 : tensor<3xf32>, tensor<2x2xf32>
}

// Mean 2, variance 2/3: (x - 2) / 0.816497 = -1.22474, 0, 1.22474; then
// gamma 2 and beta 1. Normalizing over the last two axes of a 1x2x2 tensor
// [1,2,3,4] gives (x - 2.5) / 1.11803.
// LN: output 0: f32[1x3] = {{\[\[}}-1.44949, 1, 3.44949]]
// LN: output 1: f32[1x2x2] = {{\[\[\[}}-1.34164, -0.447214], [0.447214, 1.34164]]]
func.func @layer_norm() -> (tensor<1x3xf32>, tensor<1x2x2xf32>) {
  %x = graph.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %g = graph.constant dense<2.0> : tensor<3xf32>
  %b = graph.constant dense<1.0> : tensor<3xf32>
  %0 = graph.layer_norm %x, %g, %b {epsilon = 0.0 : f64} : (tensor<1x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %y = graph.constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>
  %g2 = graph.constant dense<1.0> : tensor<2x2xf32>
  %b2 = graph.constant dense<0.0> : tensor<2x2xf32>
  %1 = graph.layer_norm %y, %g2, %b2 {axis = 1 : i64, epsilon = 0.0 : f64} : (tensor<1x2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<1x2x2xf32>
  return %0, %1 : tensor<1x3xf32>, tensor<1x2x2xf32>
}

// Channel 0: (3 - 1) / sqrt(4) * 2 + 1 = 3; channel 1: (5 - 5) / 1 * 1 + 0 = 0.
// bias_add along axis 1 adds 100 and 200.
// BN: output 0: f32[1x2x1x1] = {{\[\[\[\[}}3]], {{\[\[}}0]]]]
// BN: output 1: f32[1x2x1x1] = {{\[\[\[\[}}103]], {{\[\[}}205]]]]
func.func @batch_norm() -> (tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>) {
  %x = graph.constant dense<[[[[3.0]], [[5.0]]]]> : tensor<1x2x1x1xf32>
  %g = graph.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %b = graph.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %m = graph.constant dense<[1.0, 5.0]> : tensor<2xf32>
  %v = graph.constant dense<[4.0, 1.0]> : tensor<2xf32>
  %0 = graph.batch_norm %x, %g, %b, %m, %v {epsilon = 0.0 : f64}
     : (tensor<1x2x1x1xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x1x1xf32>
  %c = graph.constant dense<[100.0, 200.0]> : tensor<2xf32>
  %1 = graph.bias_add %x, %c : (tensor<1x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x1x1xf32>
  return %0, %1 : tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>
}

// RED: output 0: f32[scalar] = 21
// RED: output 1: f32[3] = [2.5, 3.5, 4.5]
// RED: output 2: f32[2x1] = {{\[\[}}3], [6]]
// RED: output 3: i32[2] = [6, 15]
func.func @reductions() -> (tensor<f32>, tensor<3xf32>, tensor<2x1xf32>, tensor<2xi32>) {
  %x = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = graph.reduce_sum %x : (tensor<2x3xf32>) -> tensor<f32>
  %1 = graph.reduce_mean %x {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xf32>
  %2 = graph.reduce_max %x {axes = array<i64: -1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %i = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %3 = graph.reduce_sum %i {axes = array<i64: 1>} : (tensor<2x3xi32>) -> tensor<2xi32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<3xf32>, tensor<2x1xf32>, tensor<2xi32>
}

// MINPROD: output 0: f32[2] = [1, 4]
// MINPROD: output 1: f32[2x1] = {{\[\[}}6], [120]]
// MINPROD: output 2: i32[3] = [-4, 2, -18]
// MINPROD: output 3: i32[scalar] = -4
func.func @min_prod() -> (tensor<2xf32>, tensor<2x1xf32>, tensor<3xi32>, tensor<i32>) {
  %x = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = graph.reduce_min %x {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %1 = graph.reduce_prod %x {axes = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %i = graph.constant dense<[[1, 2, -3], [-4, 1, 6]]> : tensor<2x3xi32>
  %2 = graph.reduce_prod %i {axes = array<i64: 0>} : (tensor<2x3xi32>) -> tensor<3xi32>
  %3 = graph.reduce_min %i : (tensor<2x3xi32>) -> tensor<i32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2x1xf32>, tensor<3xi32>, tensor<i32>
}

// The first of equal largest (smallest) elements, or the last with
// select_last_index; a NaN wins (the first NaN, or the last).
// ARG: output 0: i64[2] = [1, 0]
// ARG: output 1: i64[2] = [3, 0]
// ARG: output 2: i64[1x4] = {{\[\[}}0, 1, 1, 1]]
// ARG: output 3: i64[2] = [0, 1]
// ARG: output 4: i64[2] = [1, 2]
// ARG: output 5: i64[2] = [3, 3]
func.func @arg_reduce() -> (tensor<2xi64>, tensor<2xi64>, tensor<1x4xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) {
  %x = graph.constant dense<[[1.0, 5.0, 2.0, 5.0], [7.0, 0.0, 0.0, 3.0]]> : tensor<2x4xf32>
  %0 = graph.arg_max %x {axis = 1 : i64, keepdims = false} : (tensor<2x4xf32>) -> tensor<2xi64>
  %1 = graph.arg_max %x {axis = -1 : i64, keepdims = false, select_last_index = true} : (tensor<2x4xf32>) -> tensor<2xi64>
  %2 = graph.arg_min %x {axis = 0 : i64} : (tensor<2x4xf32>) -> tensor<1x4xi64>
  %3 = graph.arg_min %x {axis = 1 : i64, keepdims = false} : (tensor<2x4xf32>) -> tensor<2xi64>
  %n = graph.constant dense<[[1.0, 0x7FC00000, 9.0, 0x7FC00000], [1.0, 2.0, 3.0, 0.0]]> : tensor<2x4xf32>
  %4 = graph.arg_max %n {axis = 1 : i64, keepdims = false} : (tensor<2x4xf32>) -> tensor<2xi64>
  %i = graph.constant dense<[[4, 4, 1, 1], [2, 1, 1, 0]]> : tensor<2x4xi32>
  %5 = graph.arg_min %i {axis = 1 : i64, keepdims = false, select_last_index = true} : (tensor<2x4xi32>) -> tensor<2xi64>
  return %0, %1, %2, %3, %4, %5 : tensor<2xi64>, tensor<2xi64>, tensor<1x4xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>
}
