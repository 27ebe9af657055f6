// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{fuse-reductions=true}))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{fuse-reductions=true}))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" | FileCheck %s --check-prefix=APART

// A layer norm's mean, as FuseOps groups it (a comm_reduce kernel): a zero
// fill, the sum over the last dimension, the division by its length. With
// fuse-reductions, one kernel: a warp per row (128 rows: 16 blocks of 256
// threads), each lane summing every 32nd element from the neutral element,
// a butterfly of shuffles, the fill's value added, then the first lane
// divides and stores the mean; the sums' buffer is gone. Without, three
// kernels: the fill, the warp reduction (loading the fill's values), the
// division.
// CHECK-LABEL: func.func @mean
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c16{{.*}}) threads({{.*}}) in (%{{.*}} = %c256
// CHECK: scf.for
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: %[[SUM:.*]] = arith.addf %cst{{.*}}, %{{.*}} : f32
// CHECK: scf.if
// CHECK-NEXT: %[[MEAN:.*]] = arith.divf %[[SUM]], %cst{{.*}} : f32
// CHECK: memref.store %[[MEAN]], %arg1
// CHECK-NOT: gpu.launch
// CHECK: return
// APART-LABEL: func.func @mean
// APART-COUNT-3: gpu.launch
// APART-NOT: gpu.launch
// APART: return
func.func @mean(%x: memref<1x128x768xf32>, %mean: memref<1x128x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %sum = memref.alloc() : memref<1x128x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<1x128x1xf32>)
  linalg.generic {indexing_maps = [affine_map<(a, r, c) -> (a, r, c)>,
                                   affine_map<(a, r, c) -> (a, r, 0)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<1x128x768xf32>) outs(%sum : memref<1x128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(a, r, c) -> (a, r, c)>,
                                   affine_map<(a, r, c) -> (a, r, c)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sum : memref<1x128x1xf32>) outs(%mean : memref<1x128x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  }
  memref.dealloc %sum : memref<1x128x1xf32>
  return
}

// A softmax's maximum over the first dimension (reordered innermost), its
// initial values a fill of -inf, no epilogue (the caller's buffer): one
// kernel, a thread per output (few rows, 4096 outputs: a warp each would
// read a row apart), its loop starting from -inf instead of loading it.
// CHECK-LABEL: func.func @column_max
// CHECK: gpu.launch
// CHECK-NOT: memref.load %arg1
// CHECK: %[[MAX:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %cst{{.*}}) -> (f32)
// CHECK: arith.maximumf
// CHECK: memref.store %[[MAX]], %arg1
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @column_max(%x: memref<16x4096xf32>, %max: memref<4096xf32>) {
  %lowest = arith.constant 0xFF800000 : f32
  linalg.fill ins(%lowest : f32) outs(%max : memref<4096xf32>)
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<16x4096xf32>) outs(%max : memref<4096xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %acc, %in : f32
    linalg.yield %m : f32
  }
  return
}

// A reduction with nothing to fuse (its output the caller's, its initial
// values loaded) keeps linalg's loops: not counted.
// CHECK-LABEL: func.func @alone
// CHECK-COUNT-1: gpu.launch
func.func @alone(%x: memref<64x256xf32>, %sum: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x256xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  return
}

// STATS: dlc-gpu-map-to-threads
// STATS-DAG: fused-reductions{{ +}}2
// STATS-DAG: fused-inits{{ +}}2
// STATS-DAG: fused-epilogues{{ +}}1
