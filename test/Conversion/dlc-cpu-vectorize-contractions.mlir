// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-vectorize-contractions{vector-bits=256}))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-vectorize-contractions{vector-bits=512}))" | FileCheck %s --check-prefix=AVX512
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-vectorize-contractions{vector-bits=256}))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-vectorize-contractions{vector-bits=512}))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS512
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-vectorize-contractions{vector-bits=512}))" 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN512

// A matrix product in register tiles of 6 rows x 16 columns (AVX2): the
// accumulator is read before the reduction loop, carried through it, and
// written after it; each step is one broadcast + FMA per row.
// CHECK-LABEL: func @matmul
// CHECK: scf.for %[[M:.*]] = %c0 to %c12 step %c6
// CHECK: scf.for %[[N:.*]] = %c0 to %c32 step %c16
// CHECK: %[[ACC:.*]] = vector.transfer_read %arg2[%[[M]], %[[N]]]{{.*}} vector<6x16xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<6x16xf32>)
// CHECK-COUNT-6: vector.fma {{.*}} : vector<16xf32>
// CHECK: vector.transfer_write %[[SUM]], %arg2[%[[M]], %[[N]]]
// CHECK-NOT: linalg.generic
// AVX512-LABEL: func @matmul
// AVX512: vector.transfer_read %arg2{{.*}} vector<8x32xf32>
// AVX512: vector.transfer_write {{.*}} vector<4x32xf32>
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @matmul(%a: memref<12x64xf32>, %b: memref<64x32xf32>, %c: memref<12x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<12x64xf32>, memref<64x32xf32>) outs(%c : memref<12x32xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Rows and columns that do not divide the register tile: the partial tiles
// are peeled off; 2 rows are vectorized as 2 rows, 4 columns as one whole
// vector of 8 lanes whose loads and stores are masked to 4 (the lanes past
// the last column are computed and never stored), accumulated in registers.
// CHECK-LABEL: func @peeled
// CHECK-DAG: %[[B4:.*]] = vector.constant_mask [4] : vector<8xi1>
// CHECK-DAG: %[[C64:.*]] = vector.constant_mask [6, 4] : vector<6x8xi1>
// CHECK-DAG: %[[C24:.*]] = vector.constant_mask [2, 4] : vector<2x8xi1>
// CHECK-DAG: vector.transfer_write {{.*}} : vector<6x16xf32>
// CHECK-DAG: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %c16], %[[C64]] {{.*}} : vector<6x8xf32>
// CHECK-DAG: vector.transfer_write {{.*}} : vector<2x16xf32>
// CHECK-DAG: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %c16], %[[C24]] {{.*}} : vector<2x8xf32>
// CHECK-DAG: vector.transfer_read %arg1[%{{.*}}, %c16], %{{.*}}, %[[B4]] {{.*}} : memref<16x20xf32>, vector<8xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: vector.mask
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @peeled(%a: memref<8x16xf32>, %b: memref<16x20xf32>, %c: memref<8x20xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x16xf32>, memref<16x20xf32>) outs(%c : memref<8x20xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The im2col form of a convolution: C is a collapsed view of the output, and
// its accumulator is still kept in registers across the reduction loop.
// CHECK-LABEL: func @conv_columns
// CHECK: vector.transfer_read %collapse_shape{{.*}} vector<6x16xf32>
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: vector.transfer_write
// CHECK: scf.yield
// CHECK: vector.transfer_write {{.*}}, %collapse_shape
#w = affine_map<(n, o, p, k) -> (o, k)>
#x = affine_map<(n, o, p, k) -> (n, k, p)>
#y = affine_map<(n, o, p, k) -> (n, o, p)>
func.func @conv_columns(%w: memref<6x27xf32>, %cols: memref<1x27x16xf32>, %out: memref<1x6x4x4xf32>) {
  %y = memref.collapse_shape %out [[0], [1], [2, 3]] : memref<1x6x4x4xf32> into memref<1x6x16xf32>
  linalg.generic {indexing_maps = [#w, #x, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %cols : memref<6x27xf32>, memref<1x27x16xf32>) outs(%y : memref<1x6x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not f32: left alone.
// CHECK-LABEL: func @negative_f64
// CHECK: linalg.generic
// CHECK-NOT: vector.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @negative_f64(%a: memref<12x64xf64>, %b: memref<64x32xf64>, %c: memref<12x32xf64>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<12x64xf64>, memref<64x32xf64>) outs(%c : memref<12x32xf64>) {
  ^bb0(%x: f64, %y: f64, %z: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %z, %m : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// B walked across its rows (dense: x * W^T): the columns are not contiguous,
// so there is no vector of B to load; left alone.
// CHECK-LABEL: func @negative_transposed_b
// CHECK: linalg.generic
// CHECK-NOT: vector.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @negative_transposed_b(%a: memref<12x64xf32>, %b: memref<32x64xf32>, %c: memref<12x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<12x64xf32>, memref<32x64xf32>) outs(%c : memref<12x32xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A vector width the schedule has no register tile for is a flag error.
// RUN: not dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-vectorize-contractions{vector-bits=0}))" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: dlc-cpu-vectorize-contractions: vector-bits must be 256 or 512, got 0
func.func @bad_width() {
  return
}

// -----

// B packed into panels of 16 columns (dlc-cpu-pack-weights): each register
// tile reads one panel's row, 16 consecutive floats, per reduction step,
// and is vectorized like any other. With 512-bit vectors the panel is one
// vector wide, and so is the register tile, of twice the rows (here all 12).
// CHECK-LABEL: func @packed_b
// CHECK: scf.for %[[N:.*]] = %c0 to %c32 step %c16
// CHECK: %[[P:.*]] = affine.apply #{{.*}}(%[[N]])
// CHECK: scf.for %[[K:.*]] = %c0 to %c64 step %c1
// CHECK: vector.transfer_read %arg1[%[[P]], %[[K]], %{{.*}}]{{.*}} : memref<2x64x16xf32>, vector<16xf32>
// CHECK-COUNT-6: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT: linalg.generic
// AVX512-LABEL: func @packed_b
// AVX512: scf.for %{{.*}} = %c0 to %c32 step %c16
// AVX512: vector.transfer_read %arg1{{.*}} : memref<2x64x16xf32>, vector<16xf32>
// AVX512-COUNT-12: vector.fma {{.*}} : vector<16xf32>
// AVX512-NOT: linalg.generic
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n floordiv 16, k, n mod 16)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @packed_b(%a: memref<12x64xf32>, %b: memref<2x64x16xf32>, %c: memref<12x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<12x64xf32>, memref<2x64x16xf32>) outs(%c : memref<12x32xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batch of packed B (a Winograd product's points, [points][panels][k]
// [width]): each register tile reads a row of one panel of its point's B
// and is vectorized like the single matrix's (@packed_b).
// CHECK-LABEL: func @packed_batch_b
// CHECK: scf.for %[[BATCH:.*]] = %c0 to %c3 step %c1
// CHECK: scf.for %[[N:.*]] = %c0 to %c32 step %c16
// CHECK: %[[P:.*]] = affine.apply #{{.*}}(%[[N]])
// CHECK: scf.for %[[K:.*]] = %c0 to %c64 step %c1
// CHECK: vector.transfer_read %arg1[%[[BATCH]], %[[P]], %[[K]], %{{.*}}]{{.*}} : memref<3x2x64x16xf32>, vector<16xf32>
// CHECK-COUNT-6: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT: linalg.generic
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (b, n floordiv 16, k, n mod 16)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @packed_batch_b(%a: memref<3x12x64xf32>, %b: memref<3x2x64x16xf32>, %c: memref<3x12x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x12x64xf32>, memref<3x2x64x16xf32>) outs(%c : memref<3x12x32xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// No tile of 16 columns divides 600 (= 2^3 * 3 * 5^2): the columns go in
// blocks of 256, outermost so that a block of B stays in the cache while
// all the rows go by, and the last block (88 columns) is peeled off with a
// static shape: 5 register tiles and one of 8 columns.
// CHECK-LABEL: func @blocked_columns
// CHECK: scf.for %[[NB:.*]] = %c0 to %c512 step %c256
// CHECK: scf.for %[[M:.*]] = %c0 to %c12 step %c6
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c16
// CHECK: vector<6x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c12 step %c6
// CHECK: scf.for %{{.*}} = %c0 to %c80 step %c16
// CHECK: vector<6x16xf32>
// CHECK: vector<6x8xf32>
// CHECK-NOT: linalg.generic
// AVX512-LABEL: func @blocked_columns
// AVX512: scf.for %{{.*}} = %c0 to %c512 step %c256
// AVX512: vector<8x32xf32>
// STATS: dlc-cpu-vectorize-contractions: blocked 1,
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @blocked_columns(%a: memref<12x64xf32>, %b: memref<64x600xf32>, %c: memref<12x600xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<12x64xf32>, memref<64x600xf32>) outs(%c : memref<12x600xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// B (768 x 768 floats) is more than half a 1 MiB L2 cache, which it
// shares with A's and C's tiles: each cache tile of rows would read its
// tiles of B again from beyond L2. Cache tiles of up to 16 register tiles
// of rows, not 8 (96 rows with AVX2, and with AVX-512 too: no larger
// multiple of 8 up to 128 divides 192); @small_b's take 48 rows (64 with
// AVX-512). Where no tile of 4 to 16 register tiles divides the rows (272
// with AVX-512), the tile of a smaller B (16 rows), not all 272.
// CHECK-LABEL: func @large_b
// CHECK: scf.for %{{.*}} = %c0 to %c192 step %c96
// CHECK: scf.for %{{.*}} = %c0 to %c768 step %c256
// CHECK: scf.for %{{.*}} = %c0 to %c768 step %c256
// CHECK: vector<6x16xf32>
// AVX512-LABEL: func @large_b
// AVX512: scf.for %{{.*}} = %c0 to %c192 step %c96
// AVX512: vector<8x32xf32>
// AVX512-LABEL: func @large_b_rows_undivided
// AVX512: scf.for %{{.*}} = %c0 to %c272 step %c16
// CHECK-LABEL: func @small_b
// CHECK: scf.for %{{.*}} = %c0 to %c192 step %c48
// AVX512-LABEL: func @small_b
// AVX512: scf.for %{{.*}} = %c0 to %c192 step %c64
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @large_b(%a: memref<192x768xf32>, %b: memref<768x768xf32>, %c: memref<192x768xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<192x768xf32>, memref<768x768xf32>) outs(%c : memref<192x768xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @large_b_rows_undivided(%a: memref<272x768xf32>, %b: memref<768x768xf32>, %c: memref<272x768xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<272x768xf32>, memref<768x768xf32>) outs(%c : memref<272x768xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @small_b(%a: memref<192x64xf32>, %b: memref<64x256xf32>, %c: memref<192x256xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<192x64xf32>, memref<64x256xf32>) outs(%c : memref<192x256xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A product of fewer columns than two vectors (an NHWC convolution of 24
// output channels): with AVX-512, register tiles of one vector and 16 rows,
// the last 8 columns a 256-bit vector; with AVX2, tiles of 6 x 16 and a
// partial one of 8 columns.
// CHECK-LABEL: func @narrow_columns
// CHECK: vector<6x16xf32>
// CHECK: vector<6x8xf32>
// CHECK-NOT: linalg.generic
// AVX512-LABEL: func @narrow_columns
// AVX512-NOT: vector.constant_mask
// AVX512: scf.for %{{.*}} = %c0 to %c32 step %c16
// AVX512: vector<16x16xf32>
// AVX512: vector.transfer_read %arg1[%{{.*}}, %c16]{{.*}} : memref<16x24xf32>, vector<8xf32>
// AVX512-NOT: linalg.generic
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @narrow_columns(%a: memref<32x16xf32>, %b: memref<16x24xf32>, %c: memref<32x24xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<32x16xf32>, memref<16x24xf32>) outs(%c : memref<32x24xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A product of fewer columns than one vector (an NCHW convolution's 2 x 2
// output map: 4 positions): one masked vector per row, on tiles of twice
// the rows, rather than scalar loops.
// CHECK-LABEL: func @fewer_columns_than_a_vector
// CHECK: vector.constant_mask [12, 4] : vector<12x8xi1>
// CHECK-NOT: linalg.generic
// AVX512-LABEL: func @fewer_columns_than_a_vector
// AVX512: vector.constant_mask [16, 4] : vector<16x16xi1>
// AVX512-NOT: linalg.generic
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @fewer_columns_than_a_vector(%a: memref<32x64xf32>, %b: memref<64x4xf32>, %c: memref<32x4xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<32x64xf32>, memref<64x4xf32>) outs(%c : memref<32x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A product of bf16 values accumulated in f32 whose B is packed into panels
// of pairs (dlc-cpu-pack-weights with bf16-dots), with AVX512-BF16: B's
// pairs viewed as rows of 2 x 32 lanes, then per panel register tiles of
// 8 rows x 2 vectors of 16 accumulators carried through the whole
// reduction (k / 2 = 4 steps), each step loading B's panel row as two
// vectors of 32 bf16 and broadcasting each row's pair of A as one 32-bit
// value into 2 dot products; the last 2 rows as a tile of their own. With
// 256-bit vectors the product is left alone.
// One cache tile so computed here, and one in @large_pair_product
// (STATS512; the products with blocked columns are @blocked_columns and,
// with AVX-512, @negative_blocked_panels).
// STATS512: dlc-cpu-vectorize-contractions: blocked 2, dots 2,
// AVX512-LABEL: func @pair_product
// AVX512: %[[PAIRS:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] {{.*}} into memref<2x4x64xbf16
// AVX512: scf.for %[[PANEL:.*]] = %{{.*}} to %c2
// AVX512: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %c8
// AVX512: scf.for %[[STEP:.*]] = {{.*}} to %c4{{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// AVX512: vector.load %[[PAIRS]][%[[PANEL]], %[[STEP]], %{{.*}}] {{.*}} vector<32xbf16>
// AVX512: vector.load %[[PAIRS]][%[[PANEL]], %[[STEP]], %{{.*}}] {{.*}} vector<32xbf16>
// AVX512: %[[PAIR:.*]] = vector.load %{{.*}}[%[[ROW]], %{{.*}}] {{.*}} vector<2xbf16>
// AVX512: %[[WORD:.*]] = vector.bitcast %[[PAIR]] : vector<2xbf16> to vector<1xi32>
// AVX512: vector.broadcast %{{.*}} : i32 to vector<16xi32>
// AVX512-COUNT-16: x86vector.avx512.dot {{.*}} : vector<32xbf16> -> vector<16xf32>
// AVX512: scf.yield
// AVX512-COUNT-16: vector.store {{.*}} vector<16xf32>
// AVX512: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// AVX512-COUNT-4: x86vector.avx512.dot
// AVX512-NOT: linalg.generic
// CHECK-LABEL: func @pair_product
// CHECK: linalg.generic
// CHECK-NOT: x86vector
#a = affine_map<(m, n, k) -> (m, k)>
#pairs = affine_map<(m, n, k) -> (n floordiv 32, k floordiv 2, n mod 32, k mod 2)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @pair_product(%a: memref<10x8xbf16>, %b: memref<2x4x32x2xbf16>, %c: memref<10x64xf32>) {
  linalg.generic {indexing_maps = [#a, #pairs, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<10x8xbf16>, memref<2x4x32x2xbf16>) outs(%c : memref<10x64xf32>) {
  ^bb0(%x: bf16, %y: bf16, %z: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %m = arith.mulf %xf, %yf : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A pair product whose B (768 x 768 bf16, 1.1 MiB) is more than 512 KiB:
// cache tiles of 96 rows, as @large_b's, rather than 64; unlike
// @prefetch_next_b's, its register tiles fetch nothing ahead.
// AVX512-LABEL: func @large_pair_product
// AVX512: scf.for %{{.*}} = %c0 to %c192 step %c96
// AVX512-NOT: memref.prefetch
// AVX512: x86vector.avx512.dot
#a = affine_map<(m, n, k) -> (m, k)>
#pairs = affine_map<(m, n, k) -> (n floordiv 32, k floordiv 2, n mod 32, k mod 2)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @large_pair_product(%a: memref<192x768xbf16>, %b: memref<24x384x32x2xbf16>, %c: memref<192x768xf32>) {
  linalg.generic {indexing_maps = [#a, #pairs, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<192x768xbf16>, memref<24x384x32x2xbf16>) outs(%c : memref<192x768xf32>) {
  ^bb0(%x: bf16, %y: bf16, %z: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %m = arith.mulf %xf, %yf : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A pair product whose A is read down its columns (A [k, m]): a pair of A
// is not two consecutive values, so it stays a generic, with a warning.
// WARN512: warning: dlc-cpu-vectorize-contractions: a bf16 product whose weight is packed in pairs was left as scalar loops (its tile shape takes no dot products): slow but correct
// WARN512-NEXT: linalg.generic
// WARN512-NOT: warning:
// AVX512-LABEL: func @negative_pair_product_a_columns
// AVX512: linalg.generic
// AVX512-NOT: x86vector
#a = affine_map<(m, n, k) -> (k, m)>
#pairs = affine_map<(m, n, k) -> (n floordiv 32, k floordiv 2, n mod 32, k mod 2)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @negative_pair_product_a_columns(%a: memref<8x10xbf16>, %b: memref<2x4x32x2xbf16>, %c: memref<10x64xf32>) {
  linalg.generic {indexing_maps = [#a, #pairs, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x10xbf16>, memref<2x4x32x2xbf16>) outs(%c : memref<10x64xf32>) {
  ^bb0(%x: bf16, %y: bf16, %z: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %m = arith.mulf %xf, %yf : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A product whose output a fill of a constant wrote just before it, whole
// reduction in each cache tile: every register tile, the peeled partial
// ones too, starts its accumulator from the constant instead of reading C,
// and the fill goes (the only such one in this file).
// CHECK-LABEL: func @filled
// CHECK-NOT: linalg.fill
// CHECK-NOT: vector.transfer_read %arg2
// CHECK: arith.constant dense<0.000000e+00> : vector<6x16xf32>
// CHECK-NOT: linalg.fill
// CHECK-NOT: vector.transfer_read %arg2
// CHECK: return
// AVX512-LABEL: func @filled
// AVX512-NOT: linalg.fill
// AVX512-NOT: vector.transfer_read %arg2
// AVX512: return
// STATS: fills-folded 1,
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @filled(%a: memref<8x16xf32>, %b: memref<16x20xf32>, %c: memref<8x20xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<8x20xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x16xf32>, memref<16x20xf32>) outs(%c : memref<8x20xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Fills left: one whose reduction spans cache tiles (the second reads what
// the first wrote), one of a value not a constant, one with an op between.
// CHECK-LABEL: func @negative_filled
// CHECK: linalg.fill
// CHECK: vector.transfer_read %arg3
// CHECK: linalg.fill
// CHECK: vector.transfer_read %arg4
// CHECK: linalg.fill
// CHECK: memref.store
// CHECK: vector.transfer_read %arg5
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @negative_filled(%a: memref<8x512xf32>, %b: memref<512x16xf32>, %v: f32,
                       %c: memref<8x16xf32>, %d: memref<8x16xf32>, %e: memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %i = arith.constant 0 : index
  linalg.fill ins(%zero : f32) outs(%c : memref<8x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x512xf32>, memref<512x16xf32>) outs(%c : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  %a2 = memref.subview %a[0, 0] [8, 16] [1, 1] : memref<8x512xf32> to memref<8x16xf32, strided<[512, 1]>>
  %b2 = memref.subview %b[0, 0] [16, 16] [1, 1] : memref<512x16xf32> to memref<16x16xf32>
  linalg.fill ins(%v : f32) outs(%d : memref<8x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a2, %b2 : memref<8x16xf32, strided<[512, 1]>>, memref<16x16xf32>) outs(%d : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%zero : f32) outs(%e : memref<8x16xf32>)
  memref.store %v, %e[%i, %i] : memref<8x16xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a2, %b2 : memref<8x16xf32, strided<[512, 1]>>, memref<16x16xf32>) outs(%e : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Empty products stay loops (no tile divides a loop of size 0): one with
// nothing to sum (C keeps its value), one with no columns.
// CHECK-LABEL: func @negative_empty
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: vector.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @negative_empty(%a: memref<8x0xf32>, %b: memref<0x16xf32>, %c: memref<8x16xf32>,
                          %a2: memref<8x4xf32>, %b2: memref<4x0xf32>, %c2: memref<8x0xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x0xf32>, memref<0x16xf32>) outs(%c : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a2, %b2 : memref<8x4xf32>, memref<4x0xf32>) outs(%c2 : memref<8x0xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A product whose packed B (24 panels of 768 x 32 floats, 2.25 MiB) is
// more than 512 KiB: its cache tiles go through B's k, then its panels,
// and the register tiles of each fetch the next cache tile's rows of B,
// the last tile's the first. With AVX-512 each register tile fetches, at
// every step, the two 64-byte lines of its 32 columns of one row of the
// next tile; each of the 16 rows of register tiles takes 16 of the next
// tile's 256 rows, a new one every 16 steps. With AVX2 (register tiles of
// 6 rows x 16 columns, one line) the 22 rows of register tiles take 12 rows
// each, the peeled last one, of 2 rows, too (its share clamped to the
// tile's last row). No fetches: @negative_small_packed_b's B (64 KiB)
// stays in the cache; @negative_one_row_of_tiles's 8 rows, one register
// tile's, read B once; @negative_blocked_panels's 352 columns go in blocks
// of 256 with AVX-512 (with AVX2, tiles of 176 divide them: it fetches).
// AVX512: #[[LANE0:map[0-9]*]] = affine_map<(d0) -> (d0 mod 32)>
// AVX512: #[[LANE16:map[0-9]*]] = affine_map<(d0) -> (d0 mod 32 + 16)>
// AVX512: #[[SHARE:map[0-9]*]] = affine_map<(d0, d1) -> ((d0 floordiv 8) * 16 + d1 floordiv 16, 255)>
// AVX512-LABEL: func @prefetch_next_b
// AVX512: scf.for %[[N:.*]] = %c0 to %c768 step %c256
// AVX512: %[[FIRST:.*]] = affine.apply #[[PANEL:.*]](%[[N]])
// AVX512: %[[AFTER:.*]] = arith.addi %[[FIRST]], %c8
// AVX512: scf.for %[[K:.*]] = %c0 to %c768 step %c256
// AVX512: %[[K1:.*]] = arith.addi %[[K]], %c256
// AVX512: %[[WRAPK:.*]] = arith.cmpi sge, %[[K1]], %c768
// AVX512: %[[NEXTK:.*]] = arith.select %[[WRAPK]], %c0, %[[K1]]
// AVX512: %[[P1:.*]] = arith.select %[[WRAPK]], %[[AFTER]], %[[FIRST]]
// AVX512: %[[WRAPP:.*]] = arith.cmpi sge, %[[P1]], %c24
// AVX512: %[[NEXTP:.*]] = arith.select %[[WRAPP]], %c0, %[[P1]]
// AVX512: scf.for %[[M:.*]] = %c0 to %c128 step %c8
// AVX512: scf.for %[[COL:.*]] = %c0 to %c256 step %c32
// AVX512: %[[Q:.*]] = affine.apply #[[PANEL]](%[[COL]])
// AVX512: %[[P:.*]] = arith.addi %[[NEXTP]], %[[Q]]
// AVX512: %[[L0:.*]] = affine.apply #[[LANE0]](%[[COL]])
// AVX512: %[[L16:.*]] = affine.apply #[[LANE16]](%[[COL]])
// AVX512: scf.for %[[STEP:.*]] = %c0 to %c256 step %c1{{ }}
// AVX512: %[[J:.*]] = affine.min #[[SHARE]](%[[M]], %[[STEP]])
// AVX512: %[[ROW:.*]] = arith.addi %[[NEXTK]], %[[J]]
// AVX512: memref.prefetch %arg1[%[[P]], %[[ROW]], %[[L0]]], read, locality<2>, data : memref<24x768x32xf32>
// AVX512: memref.prefetch %arg1[%[[P]], %[[ROW]], %[[L16]]], read, locality<2>, data : memref<24x768x32xf32>
// AVX512-NOT: memref.prefetch
// AVX512-COUNT-8: vector.fma
// AVX512-NOT: memref.prefetch
// AVX512-LABEL: func @negative_small_packed_b
// AVX512-NOT: memref.prefetch
// AVX512: return
// AVX512-LABEL: func @negative_one_row_of_tiles
// AVX512-NOT: memref.prefetch
// AVX512: return
// AVX512-LABEL: func @negative_blocked_panels
// AVX512-NOT: memref.prefetch
// AVX512: return
// CHECK: #[[SHARE6:map[0-9]*]] = affine_map<(d0, d1) -> ((d0 floordiv 6) * 12 + (d1 * 3) floordiv 64, 255)>
// CHECK-LABEL: func @prefetch_next_b
// CHECK: scf.for %[[M6:.*]] = %c0 to %c126 step %c6
// CHECK: scf.for %[[STEP6:.*]] = %c0 to %c256 step %c1{{ }}
// CHECK: affine.min #[[SHARE6]](%[[M6]], %[[STEP6]])
// CHECK: memref.prefetch %arg1[{{.*}}], read, locality<2>, data : memref<24x768x32xf32>
// CHECK-NOT: memref.prefetch
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c1{{ }}
// CHECK: affine.min #{{.*}}(%{{.*}})
// CHECK: memref.prefetch %arg1[{{.*}}], read, locality<2>, data : memref<24x768x32xf32>
// CHECK-LABEL: func @negative_small_packed_b
// CHECK-NOT: memref.prefetch
// CHECK: return
// STATS512: prefetched 1,
#a = affine_map<(m, n, k) -> (m, k)>
#panels = affine_map<(m, n, k) -> (n floordiv 32, k, n mod 32)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @prefetch_next_b(%a: memref<128x768xf32>, %b: memref<24x768x32xf32>, %c: memref<128x768xf32>) {
  linalg.generic {indexing_maps = [#a, #panels, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x768xf32>, memref<24x768x32xf32>) outs(%c : memref<128x768xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @negative_small_packed_b(%a: memref<128x128xf32>, %b: memref<4x128x32xf32>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [#a, #panels, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x128xf32>, memref<4x128x32xf32>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @negative_one_row_of_tiles(%a: memref<8x768xf32>, %b: memref<24x768x32xf32>, %c: memref<8x768xf32>) {
  linalg.generic {indexing_maps = [#a, #panels, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x768xf32>, memref<24x768x32xf32>) outs(%c : memref<8x768xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @negative_blocked_panels(%a: memref<128x768xf32>, %b: memref<11x768x32xf32>, %c: memref<128x352xf32>) {
  linalg.generic {indexing_maps = [#a, #panels, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x768xf32>, memref<11x768x32xf32>) outs(%c : memref<128x352xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}
