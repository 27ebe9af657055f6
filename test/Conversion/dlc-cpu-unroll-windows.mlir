// RUN: dlc-opt %s -split-input-file --dlc-cpu-unroll-windows | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-unroll-windows="max-window=4" | FileCheck %s --check-prefix=LARGE
// RUN: dlc-opt %s -split-input-file --dlc-cpu-unroll-windows --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// A 3x3 window (a depthwise channel, stride 2): loops over the output rows
// and columns only, the nine window positions unrolled, the output element
// read once and written once (accumulated in a register in between), and
// the row vectorized by 8 (AVX2): each stride-2 input read takes 16
// elements and keeps the even ones, each window position one FMA; the
// rows are whole vectors, so the writes need no mask.
// CHECK-LABEL: func @window
// CHECK: scf.for %[[R:.*]] =
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %[[C8:.*]] {
// CHECK-NOT: scf.for
// CHECK: vector.transfer_read %arg0{{.*}} : memref<17x17xf32>, vector<16xf32>
// CHECK-NEXT: vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// CHECK-COUNT-1: vector.transfer_read %arg2[%[[R]], %[[C]]]
// CHECK-COUNT-9: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: vector.transfer_read %arg2
// CHECK-NOT: arith.mulf
// CHECK: vector.transfer_write %{{.*}}, %arg2[%[[R]], %[[C]]] {in_bounds = [true]} : vector<8xf32>, memref<8x8xf32>
// CHECK-NOT: memref.store
// CHECK: return
// A window over max-window is left to dlc-cpu-loop-order.
// LARGE: linalg.generic
// STATS: dlc-cpu-unroll-windows: epilogues-fused 1, fills-folded 2, fills-hoisted 1, reads-hoisted {{[0-9]+}}, unrolled 9, vectorized 15{{$}}
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

// -----

// Rows of 7 (a 7x7 plane, stride 1): one vector of 8 per row, whose reads
// and writes past the buffer's row are masked (not in bounds), so there is
// no scalar remainder. Reads that end within the row (the window's first
// two columns of a row of 9) need no mask.
// CHECK-LABEL: func @short_rows
// CHECK: scf.for
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT: scf.for
// CHECK: vector.transfer_read %arg0[%{{.*}}, %[[C]]], %{{.*}} {in_bounds = [true]} : memref<9x9xf32>, vector<8xf32>
// CHECK: vector.transfer_read %arg2[%{{.*}}, %[[C]]], %{{.*}} : memref<7x7xf32>, vector<8xf32>
// CHECK: %[[C2:.*]] = affine.apply #{{.*}}(%[[C]])
// CHECK: vector.transfer_read %arg0[%{{.*}}, %[[C2]]], %{{.*}} : memref<9x9xf32>, vector<8xf32>
// CHECK: vector.transfer_write %{{.*}}, %arg2{{.*}} : vector<8xf32>, memref<7x7xf32>
// CHECK-NOT: scf.for
#in1 = affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>
#w1 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#out1 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @short_rows(%x: memref<9x9xf32>, %k: memref<3x3xf32>, %y: memref<7x7xf32>) {
  linalg.generic {indexing_maps = [#in1, #w1, #out1], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %k : memref<9x9xf32>, memref<3x3xf32>) outs(%y : memref<7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Stride 3: unrolled, but the row stays scalar (only strides 1 and 2 are
// vectorized).
// CHECK-LABEL: func @stride3
// CHECK-NOT: vector.
// CHECK: memref.store
#in3 = affine_map<(d0, d1, d2, d3) -> (d0 * 3 + d2, d1 * 3 + d3)>
#w3 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#out3 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @stride3(%x: memref<12x12xf32>, %k: memref<3x3xf32>, %y: memref<4x4xf32>) {
  linalg.generic {indexing_maps = [#in3, #w3, #out3], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %k : memref<12x12xf32>, memref<3x3xf32>) outs(%y : memref<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A windowed copy without reductions (the im2col of a 3x3 convolution,
// stride 2): loops in the output's order, the row vectorized (even
// elements of a read of twice the lanes), no scalar copy left.
// CHECK-LABEL: func @im2col
// CHECK: vector.transfer_read %arg0{{.*}} : memref<2x9x9xf32>, vector<8xf32>
// CHECK-NEXT: vector.shuffle {{.*}} [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
// CHECK: vector.transfer_write {{.*}} : vector<4xf32>, memref<2x3x3x4x4xf32>
// CHECK-NOT: memref.store
#src = affine_map<(c, kh, kw, oh, ow) -> (c, oh * 2 + kh, ow * 2 + kw)>
#dst = affine_map<(c, kh, kw, oh, ow) -> (c, kh, kw, oh, ow)>
func.func @im2col(%x: memref<2x9x9xf32>, %cols: memref<2x3x3x4x4xf32>) {
  linalg.generic {indexing_maps = [#src, #dst], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<2x9x9xf32>) outs(%cols : memref<2x3x3x4x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// Elementwise ops get vectorized rows too: a ReLU6 on rows of 7 (masked
// past the row, instead of LLVM vectorizing across rows with gathers and
// scatters), a bias broadcast on rows of 16 (two whole vectors, no mask),
// and a ReLU6 on rows of 20: two whole vectors, then the last 4 elements as
// one masked vector (a masked store in every iteration would be slow).
// CHECK-LABEL: func @elementwise
// CHECK: vector.transfer_read %arg0{{.*}}, %{{.*}} : memref<4x7xf32>, vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: arith.minimumf {{.*}} : vector<8xf32>
// CHECK: vector.transfer_write {{.*}} : vector<8xf32>, memref<4x7xf32>
// CHECK: vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true]} : vector<8xf32>, memref<4x16xf32>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c16{{.*}} step %c8{{.*}} {
// CHECK: vector.transfer_read %arg4{{.*}} {in_bounds = [true]} : memref<4x20xf32>, vector<8xf32>
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true]} : vector<8xf32>, memref<4x20xf32>
// CHECK: scf.for %{{.*}} = %c16{{.*}} to %c20{{.*}} step %c8{{.*}} {
// CHECK: vector.transfer_read %arg4{{.*}}, %{{.*}} : memref<4x20xf32>, vector<8xf32>
// CHECK: vector.transfer_write %{{.*}}, %arg5{{.*}} : vector<8xf32>, memref<4x20xf32>
// CHECK-NOT: memref.store
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
func.func @elementwise(%x: memref<4x7xf32>, %y: memref<4x7xf32>, %b: memref<4xf32>, %z: memref<4x16xf32>,
                       %u: memref<4x20xf32>, %v: memref<4x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x7xf32>) outs(%y : memref<4x7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %lo = arith.maximumf %a, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  linalg.generic {indexing_maps = [#col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%z : memref<4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%u : memref<4x20xf32>) outs(%v : memref<4x20xf32>) {
  ^bb0(%a: f32, %o: f32):
    %lo = arith.maximumf %a, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  return
}

// -----

// A window op whose output a fill wrote right before (a convolution's
// zero): the first read of each output element takes the fill's value and
// the fill goes, so the buffer is written once and never read.
// The zero's broadcast, like the window's weights, is read before the
// loops (dlc-cpu-unroll-windows hoists what no iteration changes).
// CHECK-LABEL: func @fill_then_window
// CHECK: vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: vector.transfer_read %arg2
// CHECK-COUNT-9: vector.fma {{.*}} : vector<8xf32>
// CHECK-NEXT: vector.transfer_write %{{.*}}, %arg2{{.*}} {in_bounds = [true]} : vector<8xf32>, memref<8x8xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: return
#fill_in = affine_map<(d0, d1) -> ()>
#fill_out = affine_map<(d0, d1) -> (d0, d1)>
#in4 = affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>
#w4 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#out4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @fill_then_window(%x: memref<10x10xf32>, %k: memref<3x3xf32>, %y: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#fill_in, #fill_out], iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#in4, #w4, #out4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %k : memref<10x10xf32>, memref<3x3xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Its elementwise epilogue (a bias and a ReLU6) joins the window's row
// loop: the FMAs' sum goes straight through the bias and the clamp to the
// epilogue's output, and the window's own buffer goes.
// The subview between the two ops moves before the window. The window reads
// a local buffer (a padded copy), which the epilogue's output cannot share.
// CHECK-LABEL: func @window_epilogue
// CHECK-NOT: memref.alloc() : memref<8x8xf32>
// CHECK: memref.subview
// CHECK: scf.for
// CHECK: scf.for
// CHECK-COUNT-9: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: arith.minimumf {{.*}} : vector<8xf32>
// CHECK-NEXT: vector.transfer_write %{{.*}}, %arg3{{.*}} {in_bounds = [true]} : vector<8xf32>, memref<8x8xf32>
// CHECK-NOT: vector.transfer_write
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.dealloc {{.*}} : memref<8x8xf32>
// CHECK: return
#fill_in = affine_map<(d0, d1) -> ()>
#fill_out = affine_map<(d0, d1) -> (d0, d1)>
#in4 = affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>
#w4 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#out4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (0)>
func.func @window_epilogue(%x: memref<10x10xf32>, %k: memref<3x3xf32>, %b: memref<2xf32>, %y: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %p = memref.alloc() : memref<10x10xf32>
  memref.copy %x, %p : memref<10x10xf32> to memref<10x10xf32>
  %acc = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [#fill_in, #fill_out], iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%acc : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#in4, #w4, #out4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %k : memref<10x10xf32>, memref<3x3xf32>) outs(%acc : memref<8x8xf32>) {
  ^bb0(%a: f32, %w: f32, %c: f32):
    %m = arith.mulf %a, %w : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  %bv = memref.subview %b[1] [1] [1] : memref<2xf32> to memref<1xf32, strided<[1], offset: 1>>
  linalg.generic {indexing_maps = [#fill_out, #bias, #fill_out], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %bv : memref<8x8xf32>, memref<1xf32, strided<[1], offset: 1>>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %lo = arith.maximumf %s, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  memref.dealloc %acc : memref<8x8xf32>
  memref.dealloc %p : memref<10x10xf32>
  return
}

// -----

// The same window whose epilogue writes over the window's own input (a
// view of it): fused, it would overwrite inputs that later windows read, so
// the epilogue stays a loop of its own after the window's.
// CHECK-LABEL: func @window_epilogue_in_place
// CHECK: vector.transfer_write %{{.*}}, %alloc
// CHECK: vector.transfer_read %alloc
// CHECK: vector.transfer_write %{{.*}}, %subview
#in5 = affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>
#w5 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#out5 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#id5 = affine_map<(d0, d1) -> (d0, d1)>
func.func @window_epilogue_in_place(%x: memref<10x10xf32>, %k: memref<3x3xf32>) {
  %acc = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [#in5, #w5, #out5], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %k : memref<10x10xf32>, memref<3x3xf32>) outs(%acc : memref<8x8xf32>) {
  ^bb0(%a: f32, %w: f32, %c: f32):
    %m = arith.mulf %a, %w : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  %y = memref.subview %x[1, 1] [8, 8] [1, 1] : memref<10x10xf32> to memref<8x8xf32, strided<[10, 1], offset: 11>>
  linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<8x8xf32>) outs(%y : memref<8x8xf32, strided<[10, 1], offset: 11>>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  }
  memref.dealloc %acc : memref<8x8xf32>
  return
}

// -----

// A padded plane per channel: the fill of the whole plane runs once before
// the loop over channels, since each iteration writes the same interior
// before the window reads the plane and nothing else writes the border.
// CHECK-LABEL: func @padded_planes
// CHECK: %[[PAD:.*]] = memref.alloc() : memref<10x10xf32>
// CHECK: vector.transfer_write %{{.*}}, %[[PAD]][
// CHECK: scf.for %{{.*}} = %c0 to %c4
// CHECK-NOT: vector.transfer_write %{{.*}}, %[[PAD]][
// CHECK: memref.dealloc %[[PAD]]
#fill_in6 = affine_map<(d0, d1) -> ()>
#id6 = affine_map<(d0, d1) -> (d0, d1)>
#in6 = affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>
#w6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#out6 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @padded_planes(%x: memref<4x8x8xf32>, %k: memref<3x3xf32>, %y: memref<4x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %pad = memref.alloc() : memref<10x10xf32>
  scf.for %c = %c0 to %c4 step %c1 {
    linalg.generic {indexing_maps = [#fill_in6, #id6], iterator_types = ["parallel", "parallel"]}
        ins(%zero : f32) outs(%pad : memref<10x10xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }
    %plane = memref.subview %x[%c, 0, 0] [1, 8, 8] [1, 1, 1] : memref<4x8x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    %inner = memref.subview %pad[1, 1] [8, 8] [1, 1] : memref<10x10xf32> to memref<8x8xf32, strided<[10, 1], offset: 11>>
    linalg.generic {indexing_maps = [#id6, #id6], iterator_types = ["parallel", "parallel"]}
        ins(%plane : memref<8x8xf32, strided<[8, 1], offset: ?>>) outs(%inner : memref<8x8xf32, strided<[10, 1], offset: 11>>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }
    %out = memref.subview %y[%c, 0, 0] [1, 8, 8] [1, 1, 1] : memref<4x8x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    linalg.generic {indexing_maps = [#in6, #w6, #out6], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
        ins(%pad, %k : memref<10x10xf32>, memref<3x3xf32>) outs(%out : memref<8x8xf32, strided<[8, 1], offset: ?>>) {
    ^bb0(%a: f32, %w: f32, %o: f32):
      %m = arith.mulf %a, %w : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    }
  }
  memref.dealloc %pad : memref<10x10xf32>
  return
}

// -----

// A depthwise convolution in NCHW (channels outermost): each channel's nine
// weights are read once per channel, before its rows and columns, instead
// of once per output vector; the input, indexed by the rows, and the
// output, which the window writes, stay in the row loop.
// CHECK-LABEL: func @weights_per_channel
// CHECK: scf.for %[[C:.*]] =
// CHECK-COUNT-9: memref.load %arg1[%[[C]],
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: memref.load %arg1
// CHECK: vector.transfer_read %arg0
// CHECK-NOT: memref.load %arg1
// CHECK: vector.transfer_write %{{.*}}, %arg2
// CHECK: return
#in7 = affine_map<(c, h, w, kh, kw) -> (c, h + kh, w + kw)>
#w7 = affine_map<(c, h, w, kh, kw) -> (c, kh, kw)>
#out7 = affine_map<(c, h, w, kh, kw) -> (c, h, w)>
func.func @weights_per_channel(%x: memref<4x18x18xf32>, %k: memref<4x3x3xf32>, %y: memref<4x16x16xf32>) {
  linalg.generic {indexing_maps = [#in7, #w7, #out7], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %k : memref<4x18x18xf32>, memref<4x3x3xf32>) outs(%y : memref<4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A bf16 max window (stride 2): the row computed in f32 vectors, each read
// of bf16 values widened and the result rounded where stored (exact for a
// maximum).
// CHECK-LABEL: func @bf16_window
// CHECK: vector.transfer_read %arg0{{.*}} : memref<17x17xbf16>, vector<16xbf16>
// CHECK-NEXT: vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xbf16>, vector<16xbf16>
// CHECK-NEXT: arith.extf {{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: %[[R:.*]] = arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK-NEXT: vector.transfer_write %[[R]], %arg2{{.*}} : vector<8xbf16>, memref<8x8xbf16>
// CHECK-NOT: memref.store
#inb = affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d2, d1 * 2 + d3)>
#wb = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#outb = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @bf16_window(%x: memref<17x17xbf16>, %k: memref<3x3xbf16>, %y: memref<8x8xbf16>) {
  linalg.generic {indexing_maps = [#inb, #wb, #outb], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %k : memref<17x17xbf16>, memref<3x3xbf16>) outs(%y : memref<8x8xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %c: bf16):
    %m = arith.maximumf %c, %a : bf16
    linalg.yield %m : bf16
  }
  return
}
