// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-gpu-separate-empty-tensors))' -split-input-file | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-gpu-separate-empty-tensors))' -split-input-file --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// STATS: dlc-gpu-separate-empty-tensors: separated 2

// One tensor.empty (merged by CSE) as the output of a widening and of the
// convolution's zero fill: each use gets its own, created next to it.
// CHECK-LABEL: func.func @shared
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<1x8x4x4xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E0]] : tensor<1x8x4x4xf32>)
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<1x8x4x4xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[E1]] : tensor<1x8x4x4xf32>)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @shared(%x: tensor<1x8x4x4xf16>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %wide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x4x4xf16>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w = arith.extf %in : f16 to f32
    linalg.yield %w : f32
  } -> tensor<1x8x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %wide, %init : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}

// -----

// A tensor.empty with one use, and a dynamic one whose sizes dominate every
// use, are left as they are or cloned with their operands.
// CHECK-LABEL: func.func @single_and_dynamic
// CHECK: %[[A:.*]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[A]] : tensor<?xf32>)
// CHECK: %[[B:.*]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[B]] : tensor<?xf32>)
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK-NOT: tensor.empty
func.func @single_and_dynamic(%n: index) -> (tensor<?xf32>, tensor<?xf32>, tensor<4xf32>) {
  %one = arith.constant 1.0 : f32
  %d = tensor.empty(%n) : tensor<?xf32>
  %a = linalg.fill ins(%one : f32) outs(%d : tensor<?xf32>) -> tensor<?xf32>
  %b = linalg.fill ins(%one : f32) outs(%d : tensor<?xf32>) -> tensor<?xf32>
  %s = tensor.empty() : tensor<4xf32>
  %c = linalg.fill ins(%one : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  return %a, %b, %c : tensor<?xf32>, tensor<?xf32>, tensor<4xf32>
}
