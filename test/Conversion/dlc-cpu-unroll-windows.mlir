// RUN: dlc-opt %s -split-input-file --dlc-cpu-unroll-windows | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-unroll-windows="max-window=4" | FileCheck %s --check-prefix=LARGE
// RUN: dlc-opt %s -split-input-file --dlc-cpu-unroll-windows --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// A 3x3 window (a depthwise channel, stride 2): loops over the output rows
// and columns only, the nine window positions unrolled, the output element
// read once and written once (accumulated in a register in between).
// CHECK-LABEL: func @window
// CHECK: scf.for %[[R:.*]] =
// CHECK-NEXT: scf.for %[[C:.*]] =
// CHECK-NOT: scf.for
// CHECK-COUNT-1: memref.load %arg2[%[[R]], %[[C]]]
// CHECK-COUNT-9: arith.mulf
// CHECK-NOT: memref.load %arg2
// CHECK: memref.store %{{.*}}, %arg2[%[[R]], %[[C]]]
// CHECK-NOT: memref.store
// CHECK: return
// A window over max-window is left to dlc-cpu-loop-order.
// LARGE: linalg.generic
// STATS: dlc-cpu-unroll-windows: unrolled 1{{$}}
#in = affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d2, d1 * 2 + d3)>
#w = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @window(%x: memref<17x17xf32>, %k: memref<3x3xf32>, %y: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %k : memref<17x17xf32>, memref<3x3xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not a window op (a plain reduction): untouched.
// CHECK-LABEL: func @reduction
// CHECK: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @reduction(%x: memref<4x3xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x3xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %c, %a : f32
    linalg.yield %s : f32
  }
  return
}
