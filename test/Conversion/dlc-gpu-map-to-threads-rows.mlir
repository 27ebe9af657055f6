// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{row-kernels=true}))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{row-kernels=true}))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" | FileCheck %s --check-prefix=APART

// A softmax over the last dimension of 2 x 128 rows of 128 (BERT-tiny's
// attention probabilities, as FuseOps groups them): the maximum's fill and
// reduction, the exponentials, the sum's fill and reduction, the division.
// With row-kernels, one kernel: a warp per row, 2 a block (256 rows: 128
// blocks of 64 threads). Each op in turn: the fills by the first lane (a
// row's one element), the reductions' lanes striding over the row from the
// neutral element (-inf, 0), a butterfly of 5 shuffles, the initial value
// combined, the first lane storing; the elementwise ops' lanes striding
// over the row; the warp synchronized between ops (5 barriers for 6 ops).
// CHECK-LABEL: func.func @softmax
// CHECK: gpu.launch blocks(%[[BLOCK:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c128{{.*}}) threads(%[[THREAD:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64
// CHECK: %[[WARP:.*]] = arith.divui %[[THREAD]], %c32
// CHECK: %[[FIRST:.*]] = arith.muli %[[BLOCK]], %c2
// CHECK: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[WARP]]
// CHECK: %[[LANE:.*]] = arith.remui %[[THREAD]], %c32
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ROW]], %c256
// CHECK: scf.if %[[IN]]
// CHECK: scf.for %{{.*}} = %[[LANE]] to %c1 step %c32
// CHECK: memref.store %cst{{.*}}, %[[MAX:.*]][
// CHECK: nvvm.bar.warp.sync
// CHECK: %[[M:.*]] = scf.for %{{.*}} = %[[LANE]] to %c128 step %c32 iter_args(%{{.*}} = %cst{{.*}}) -> (f32)
// CHECK: arith.maximumf
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: memref.load %[[MAX]]
// CHECK: arith.maximumf
// CHECK: arith.cmpi eq, %[[LANE]], %c0
// CHECK: memref.store %{{.*}}, %[[MAX]]
// CHECK: nvvm.bar.warp.sync
// CHECK: scf.for %{{.*}} = %[[LANE]] to %c128 step %c32 {
// CHECK: math.exp
// CHECK: nvvm.bar.warp.sync
// CHECK: memref.store %cst{{.*}}, %[[SUM:.*]][
// CHECK: nvvm.bar.warp.sync
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: %[[INIT:.*]] = memref.load %[[SUM]]
// CHECK: %[[TOTAL:.*]] = arith.addf %[[INIT]], %{{.*}} : f32
// CHECK: arith.cmpi eq, %[[LANE]], %c0
// CHECK: memref.store %[[TOTAL]], %[[SUM]]
// CHECK: nvvm.bar.warp.sync
// CHECK: arith.divf
// CHECK: memref.store %{{.*}}, %arg1
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK-NOT: gpu.launch
// CHECK: return
// APART-LABEL: func.func @softmax
// APART-COUNT-6: gpu.launch
// APART-NOT: gpu.launch
// APART: return
func.func @softmax(%x: memref<2x128x128xf32>, %y: memref<2x128x128xf32>) {
  %lowest = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<2x128x1xf32>
  %e = memref.alloc() : memref<2x128x128xf32>
  %sum = memref.alloc() : memref<2x128x1xf32>
  linalg.fill ins(%lowest : f32) outs(%max : memref<2x128x1xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, r, c) -> (b, r, c)>,
                                   affine_map<(b, r, c) -> (b, r, 0)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x128x128xf32>) outs(%max : memref<2x128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %acc, %in : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(b, r, c) -> (b, r, c)>,
                                   affine_map<(b, r, c) -> (b, r, 0)>,
                                   affine_map<(b, r, c) -> (b, r, c)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : memref<2x128x128xf32>, memref<2x128x1xf32>)
      outs(%e : memref<2x128x128xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  }
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x128x1xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, r, c) -> (b, r, c)>,
                                   affine_map<(b, r, c) -> (b, r, 0)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : memref<2x128x128xf32>) outs(%sum : memref<2x128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(b, r, c) -> (b, r, c)>,
                                   affine_map<(b, r, c) -> (b, r, 0)>,
                                   affine_map<(b, r, c) -> (b, r, c)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<2x128x128xf32>, memref<2x128x1xf32>)
      outs(%y : memref<2x128x128xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  }
  return
}

// A layer norm's normalization reading a per-column scale (any index of a
// buffer nothing in the kernel writes) and a row's mean (a reshape of the
// mean's buffer, [128] for [1, 128, 1]), writing f16 through a reshape:
// one kernel of 128 rows, a warp per block.
// CHECK-LABEL: func.func @normalize
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c128{{.*}}) threads({{.*}}) in (%{{.*}} = %c32
// CHECK-COUNT-2: nvvm.bar.warp.sync
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: arith.truncf
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @normalize(%x: memref<1x128x768xf32>, %gamma: memref<768xf32>,
                     %y: memref<128x768xf16>) {
  %zero = arith.constant 0.0 : f32
  %sum = memref.alloc() : memref<1x128x1xf32>
  %flat = memref.collapse_shape %sum [[0, 1, 2]] : memref<1x128x1xf32> into memref<128xf32>
  %rows = memref.expand_shape %y [[0, 1], [2]] output_shape [1, 128, 768]
      : memref<128x768xf16> into memref<1x128x768xf16>
  linalg.fill ins(%zero : f32) outs(%sum : memref<1x128x1xf32>)
  linalg.generic {indexing_maps = [affine_map<(a, r, c) -> (a, r, c)>,
                                   affine_map<(a, r, c) -> (a, r, 0)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<1x128x768xf32>) outs(%sum : memref<1x128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                   affine_map<(r, c) -> (r)>,
                                   affine_map<(r, c) -> (c)>,
                                   affine_map<(r, c) -> (r, c)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y, %flat, %gamma : memref<128x768xf16>, memref<128xf32>, memref<768xf32>)
      outs(%y : memref<128x768xf16>) {
  ^bb0(%in: f16, %s: f32, %g: f32, %out: f16):
    %w = arith.extf %in : f16 to f32
    %d = arith.subf %w, %s : f32
    %n = arith.mulf %d, %g : f32
    %t = arith.truncf %n : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// Not row kernels, lowered as before: a buffer the kernel writes read in
// another row (the exponentials transposed by an elementwise op), an
// argument that may be the written one (the same elements: a caller may
// pass a reshape of one buffer for both) read across rows, a written
// buffer a body loads from, reductions over rows of two numbers, a matrix
// product (its second input read down columns), a reduction over fewer
// elements than a warp has lanes.
// CHECK-LABEL: func.func @across_rows
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: return
func.func @across_rows(%x: memref<128x128xf32>, %y: memref<128x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = memref.alloc() : memref<128x128xf32>
  %t = memref.alloc() : memref<128x128xf32>
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<128x128xf32>) outs(%e : memref<128x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (c, r)>, affine_map<(r, c) -> (r, c)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%e : memref<128x128xf32>) outs(%t : memref<128x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<128x1xf32>)
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, 0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%t : memref<128x128xf32>) outs(%y : memref<128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @aliased_arguments
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: return
func.func @aliased_arguments(%x: memref<2x64x128xf32>, %alias: memref<128x128xf32>,
                             %out: memref<2x64x128xf32>, %y: memref<2x64x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>,
                                   affine_map<(a, b, c) -> (c, a * 64 + b)>,
                                   affine_map<(a, b, c) -> (a, b, c)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %alias : memref<2x64x128xf32>, memref<128x128xf32>)
      outs(%out : memref<2x64x128xf32>) {
  ^bb0(%in: f32, %other: f32, %o: f32):
    %s = arith.addf %in, %other : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>,
                                   affine_map<(a, b, c) -> (a, b, 0)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%out : memref<2x64x128xf32>) outs(%y : memref<2x64x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  return
}
// The same, its callers passing buffers that do not overlap (a function
// dlc-gpu-merge-row-kernels made): the argument is read-only, a row
// kernel.
// CHECK-LABEL: func.func @distinct_arguments
// CHECK-COUNT-1: nvvm.bar.warp.sync
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @distinct_arguments(%x: memref<2x64x128xf32>, %alias: memref<128x128xf32>,
                              %out: memref<2x64x128xf32>, %y: memref<2x64x1xf32>)
    attributes {dlc.distinct_arguments} {
  linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>,
                                   affine_map<(a, b, c) -> (c, a * 64 + b)>,
                                   affine_map<(a, b, c) -> (a, b, c)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %alias : memref<2x64x128xf32>, memref<128x128xf32>)
      outs(%out : memref<2x64x128xf32>) {
  ^bb0(%in: f32, %other: f32, %o: f32):
    %s = arith.addf %in, %other : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>,
                                   affine_map<(a, b, c) -> (a, b, 0)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%out : memref<2x64x128xf32>) outs(%y : memref<2x64x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @loaded
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: return
func.func @loaded(%x: memref<128x128xf32>, %y: memref<128x1xf32>) {
  %c0 = arith.constant 0 : index
  %e = memref.alloc() : memref<128x128xf32>
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<128x128xf32>) outs(%e : memref<128x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, 0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x128xf32>) outs(%y : memref<128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %first = memref.load %e[%c0, %c0] : memref<128x128xf32>
    %d = arith.subf %in, %first : f32
    %s = arith.addf %acc, %d : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @two_row_counts
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: return
func.func @two_row_counts(%x: memref<128x64xf32>, %y: memref<128x1xf32>, %z: memref<64x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, 0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x64xf32>) outs(%y : memref<128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (c, r)>, affine_map<(r, c) -> (r, 0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x64xf32>) outs(%z : memref<64x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @product
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: return
func.func @product(%a: memref<128x64xf32>, %b: memref<64x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf32>, memref<64x128xf32>)
                outs(%c : memref<128x128xf32>)
  return
}
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: return
func.func @short_rows(%x: memref<4096x16xf32>, %y: memref<4096x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, 0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4096x16xf32>) outs(%y : memref<4096x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  return
}

// One row (a vector's sum): a block of one warp, the fill's lane 0, a
// barrier, the reduction.
// CHECK-LABEL: func.func @one_row
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c32
// CHECK-COUNT-1: nvvm.bar.warp.sync
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @one_row(%x: memref<64xf32>, %y: memref<1xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1xf32>)
  linalg.generic {indexing_maps = [affine_map<(c) -> (c)>, affine_map<(c) -> (0)>],
                  iterator_types = ["reduction"]}
      ins(%x : memref<64xf32>) outs(%y : memref<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  return
}

// STATS: dlc-gpu-map-to-threads: {{.*}}kernels 16, last-block-sums 0, ldmatrix-inputs 0, reductions-moved-innermost 0, row-kernels 4,
