// RUN: dlc-opt %s -split-input-file --dlc-pass-stats \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-cpu-transpose-product-operands))" \
// RUN:   2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats

// Attention's scores, Q x K': B is read as [batch, n, k]. It is copied to
// [batch, k, n] and the product reads the copy along n.
// CHECK-LABEL: func @scores
// CHECK-SAME: (%[[Q:.*]]: tensor<2x8x4xf32>, %[[K:.*]]: tensor<2x6x4xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4x6xf32>
// CHECK: %[[KT:.*]] = linalg.transpose ins(%[[K]] : tensor<2x6x4xf32>) outs(%[[E]] : tensor<2x4x6xf32>) permutation = [0, 2, 1]
// CHECK: linalg.generic {indexing_maps = [#[[A:.*]], #[[BT:.*]], #[[C:.*]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[Q]], %[[KT]] : tensor<2x8x4xf32>, tensor<2x4x6xf32>)
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#bt = affine_map<(b, m, n, k) -> (b, n, k)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @scores(%q: tensor<2x8x4xf32>, %k: tensor<2x6x4xf32>, %init: tensor<2x8x6xf32>) -> tensor<2x8x6xf32> {
  %0 = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x8x4xf32>, tensor<2x6x4xf32>) outs(%init : tensor<2x8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x8x6xf32>
  return %0 : tensor<2x8x6xf32>
}

// -----

// A product that reads B along n already is left alone, as is one of two
// rows (the copy would cost as much as the gathers it saves), one of f16
// values (not the f32 product kernel's) and one whose A is read as [k, m].
// CHECK-LABEL: func @negatives
// CHECK-NOT: linalg.transpose
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#bt = affine_map<(m, n, k) -> (n, k)>
#at = affine_map<(m, n, k) -> (k, m)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @negatives(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>, %wt: tensor<6x4xf32>,
                     %row2: tensor<2x4xf32>, %h: tensor<8x4xf16>, %ht: tensor<6x4xf16>,
                     %xt: tensor<4x8xf32>, %i: tensor<8x6xf32>, %i2: tensor<2x6xf32>,
                     %ih: tensor<8x6xf16>) -> (tensor<8x6xf32>, tensor<2x6xf32>, tensor<8x6xf16>, tensor<8x6xf32>) {
  %0 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<8x4xf32>, tensor<4x6xf32>) outs(%i : tensor<8x6xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x6xf32>
  %1 = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%row2, %wt : tensor<2x4xf32>, tensor<6x4xf32>) outs(%i2 : tensor<2x6xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x6xf32>
  %2 = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %ht : tensor<8x4xf16>, tensor<6x4xf16>) outs(%ih : tensor<8x6xf16>) {
  ^bb0(%p: f16, %q: f16, %acc: f16):
    %m = arith.mulf %p, %q : f16
    %s = arith.addf %acc, %m : f16
    linalg.yield %s : f16
  } -> tensor<8x6xf16>
  %3 = linalg.generic {indexing_maps = [#at, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xt, %wt : tensor<4x8xf32>, tensor<6x4xf32>) outs(%i : tensor<8x6xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x6xf32>
  return %0, %1, %2, %3 : tensor<8x6xf32>, tensor<2x6xf32>, tensor<8x6xf16>, tensor<8x6xf32>
}

// STATS: dlc-cpu-transpose-product-operands: transposed 1
