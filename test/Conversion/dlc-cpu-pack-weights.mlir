// RUN: dlc-opt %s -split-input-file --dlc-cpu-pack-weights='vector-bits=256' | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-pack-weights='vector-bits=256' --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s -split-input-file --dlc-cpu-pack-weights='vector-bits=512' | FileCheck %s --check-prefix=AVX512
// RUN: not dlc-opt %s -split-input-file --dlc-cpu-pack-weights='vector-bits=128' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: dlc-opt %s -split-input-file --dlc-cpu-pack-weights='vector-bits=512 bf16-dots=true' | FileCheck %s --check-prefix=PAIRS
// RUN: dlc-opt %s -split-input-file --dlc-cpu-pack-weights='vector-bits=512 bf16-dots=true' --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=PAIRS-STATS
// RUN: not dlc-opt %s -split-input-file --dlc-cpu-pack-weights='vector-bits=256 bf16-dots=true' 2>&1 | FileCheck %s --check-prefix=BAD-PAIRS

// BAD: dlc-cpu-pack-weights: vector-bits must be 256 or 512, got 128
// BAD-PAIRS: dlc-cpu-pack-weights: bf16-dots needs vector-bits=512 (AVX512-BF16), got 256

// Over the cases below: six f32 kernel arguments packed and two
// transposed (one of each a batch), and six bf16 ones and an f16 one widened
// once into f32 forms (panels, or [k, n] for a dense weight of 20 columns),
// an f16 convolution weight, the [k, n] bf16 weight of 20 columns and a
// batch of bf16 weights of 20 columns widened as they are, nineteen weights
// written, all into new payloads (only the CPU compiler names payloads the
// pass may overwrite: dlc-run-cpu.test).
// STATS: dlc-cpu-pack-weights: in-place 0, in-place-bytes 0, packed 12, pairs 0, transposed 3, weights 19, widened 10
// With bf16 dot products, three of the bf16 weights become panels of pairs
// instead, and so do the two of 20 columns (@pairs_padded*); the two that
// cannot, the f16 one and the batch are widened.
// PAIRS-STATS: dlc-cpu-pack-weights: in-place 0, in-place-bytes 0, packed 9, pairs 5, transposed 2, weights 19, widened 5

// A constant B [2, 32] of a kernel's product, with 256-bit vectors (panels
// of 16 columns), becomes panels [2][2][16]: element [p][k][j] is
// W[k][16 p + j], W[k][n] = 32 k + n. The kernel takes the panels and its
// product reads them through (n floordiv 16, k, n mod 16). With 512-bit
// vectors the panels are 32 wide: [1][2][32], the same order as W.
// CHECK-DAG: #[[PANELS:.*]] = affine_map<(d0, d1, d2) -> (d1 floordiv 16, d2, d1 mod 16)>
// CHECK-LABEL: func @main
// CHECK: %[[W:.*]] = arith.constant dense_resource<packed_weight> : tensor<2x2x16xf32>
// CHECK: call @kernel(%arg0, %[[W]]) : (tensor<4x2xf32>, tensor<2x2x16xf32>)
// CHECK: func.func private @kernel(%arg0: tensor<4x2xf32>, %arg1: tensor<2x2x16xf32>)
// CHECK: linalg.generic {{.*}}#[[PANELS]]{{.*}} ins(%arg0, %arg1 : tensor<4x2xf32>, tensor<2x2x16xf32>)
// CHECK: packed_weight: "0x40000000000000000000803F0000004000004040000080400000A0400000C0400000E040000000410000104100002041000030410000404100005041000060410000704100000042000004420000084200000C4200001042000014420000184200001C4200002042000024420000284200002C4200003042000034420000384200003C42000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E8410000F0410000F84100004042000044420000484200004C4200005042000054420000584200005C4200006042000064420000684200006C4200007042000074420000784200007C42"
// AVX512: arith.constant dense_resource<packed_weight> : tensor<1x2x32xf32>
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @main(%x: tensor<4x2xf32>) -> tensor<4x32xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0]]> : tensor<2x32xf32>
  %y = call @kernel(%x, %w) : (tensor<4x2xf32>, tensor<2x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
func.func private @kernel(%a: tensor<4x2xf32>, %b: tensor<2x32xf32>) -> tensor<4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x2xf32>, tensor<2x32xf32>) outs(%c : tensor<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// One kernel called with two weights: each packed once, the kernel's
// argument once.
// CHECK-LABEL: func @two_calls
// CHECK: %[[W1:.*]] = arith.constant dense_resource<packed_weight{{.*}}> : tensor<2x2x16xf32>
// CHECK: %[[W2:.*]] = arith.constant dense_resource<packed_weight{{.*}}> : tensor<2x2x16xf32>
// CHECK: call @kernel(%arg0, %[[W1]])
// CHECK: call @kernel(%arg0, %[[W2]])
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @two_calls(%x: tensor<4x2xf32>) -> (tensor<4x32xf32>, tensor<4x32xf32>) {
  %w1 = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0]]> : tensor<2x32xf32>
  %w2 = arith.constant dense<[[100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0], [132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0, 140.0, 141.0, 142.0, 143.0, 144.0, 145.0, 146.0, 147.0, 148.0, 149.0, 150.0, 151.0, 152.0, 153.0, 154.0, 155.0, 156.0, 157.0, 158.0, 159.0, 160.0, 161.0, 162.0, 163.0]]> : tensor<2x32xf32>
  %y1 = call @kernel(%x, %w1) : (tensor<4x2xf32>, tensor<2x32xf32>) -> tensor<4x32xf32>
  %y2 = call @kernel(%x, %w2) : (tensor<4x2xf32>, tensor<2x32xf32>) -> tensor<4x32xf32>
  return %y1, %y2 : tensor<4x32xf32>, tensor<4x32xf32>
}
func.func private @kernel(%a: tensor<4x2xf32>, %b: tensor<2x32xf32>) -> tensor<4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x2xf32>, tensor<2x32xf32>) outs(%c : tensor<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// Left alone: a weight computed at run time by one of the calls.
// CHECK-LABEL: func @negative_computed
// CHECK-NOT: packed_weight
// CHECK: func.func private @kernel(%arg0: tensor<4x2xf32>, %arg1: tensor<2x32xf32>)
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @negative_computed(%x: tensor<4x2xf32>, %v: tensor<2x32xf32>) -> (tensor<4x32xf32>, tensor<4x32xf32>) {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0]]> : tensor<2x32xf32>
  %y1 = call @kernel(%x, %w) : (tensor<4x2xf32>, tensor<2x32xf32>) -> tensor<4x32xf32>
  %y2 = call @kernel(%x, %v) : (tensor<4x2xf32>, tensor<2x32xf32>) -> tensor<4x32xf32>
  return %y1, %y2 : tensor<4x32xf32>, tensor<4x32xf32>
}
func.func private @kernel(%a: tensor<4x2xf32>, %b: tensor<2x32xf32>) -> tensor<4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x2xf32>, tensor<2x32xf32>) outs(%c : tensor<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// n = 16, fewer columns than two 512-bit vectors: with AVX-512 its register
// tile is one vector wide (CPUSchedules), and so are its panels; with AVX2
// two vectors are 16 columns. One panel either way.
// CHECK-LABEL: func @narrow
// CHECK: call @kernel(%arg0, %{{.*}}) : (tensor<4x2xf32>, tensor<1x2x16xf32>)
// AVX512-DAG: #[[NARROW:.*]] = affine_map<(d0, d1, d2) -> (d1 floordiv 16, d2, d1 mod 16)>
// AVX512-LABEL: func @narrow
// AVX512: call @kernel(%arg0, %{{.*}}) : (tensor<4x2xf32>, tensor<1x2x16xf32>)
// AVX512: linalg.generic {{.*}}#[[NARROW]]{{.*}} ins(%arg0, %arg1 : tensor<4x2xf32>, tensor<1x2x16xf32>)
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @narrow(%x: tensor<4x2xf32>) -> tensor<4x16xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]]> : tensor<2x16xf32>
  %y = call @kernel(%x, %w) : (tensor<4x2xf32>, tensor<2x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
func.func private @kernel(%a: tensor<4x2xf32>, %b: tensor<2x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x2xf32>, tensor<2x16xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Left alone: n = 24 is not a multiple of a panel's width.
// CHECK-LABEL: func @negative_width
// CHECK: call @kernel(%arg0, %{{.*}}) : (tensor<4x2xf32>, tensor<2x24xf32>)
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @negative_width(%x: tensor<4x2xf32>) -> tensor<4x24xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0], [24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0]]> : tensor<2x24xf32>
  %y = call @kernel(%x, %w) : (tensor<4x2xf32>, tensor<2x24xf32>) -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}
func.func private @kernel(%a: tensor<4x2xf32>, %b: tensor<2x24xf32>) -> tensor<4x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x24xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x24xf32>) -> tensor<4x24xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x2xf32>, tensor<2x24xf32>) outs(%c : tensor<4x24xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x24xf32>
  return %r : tensor<4x24xf32>
}

// -----

// Left alone: the kernel also reads the weight otherwise (here it returns it).
// CHECK-LABEL: func @negative_other_use
// CHECK-NOT: packed_weight
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @negative_other_use(%x: tensor<4x2xf32>) -> tensor<4x32xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0]]> : tensor<2x32xf32>
  %y:2 = call @kernel(%x, %w) : (tensor<4x2xf32>, tensor<2x32xf32>) -> (tensor<4x32xf32>, tensor<2x32xf32>)
  return %y#0 : tensor<4x32xf32>
}
func.func private @kernel(%a: tensor<4x2xf32>, %b: tensor<2x32xf32>) -> (tensor<4x32xf32>, tensor<2x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x2xf32>, tensor<2x32xf32>) outs(%c : tensor<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %r, %b : tensor<4x32xf32>, tensor<2x32xf32>
}

// -----

// A dense layer's weight W [n, k] = [32, 2], read (n, k), W[n][k] = 32 k + n
// (the first case's W transposed): packed from that layout into the same
// panels as the first case.
// CHECK-LABEL: func @dense_weight
// CHECK: %[[W:.*]] = arith.constant dense_resource<packed_weight{{.*}}> : tensor<2x2x16xf32>
// CHECK: call @kernel(%arg0, %[[W]]) : (tensor<4x2xf32>, tensor<2x2x16xf32>)
// CHECK: linalg.generic {{.*}}#[[PANELS]]{{.*}} ins(%arg0, %arg1 : tensor<4x2xf32>, tensor<2x2x16xf32>)
// CHECK: packed_weight{{.*}}: "0x40000000000000000000803F0000004000004040000080400000A0400000C0400000E040000000410000104100002041000030410000404100005041000060410000704100000042000004420000084200000C4200001042000014420000184200001C4200002042000024420000284200002C4200003042000034420000384200003C42000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E8410000F0410000F84100004042000044420000484200004C4200005042000054420000584200005C4200006042000064420000684200006C4200007042000074420000784200007C42"
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (n, k)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @dense_weight(%x: tensor<4x2xf32>) -> tensor<4x32xf32> {
  %w = arith.constant dense<[[0.0, 32.0], [1.0, 33.0], [2.0, 34.0], [3.0, 35.0], [4.0, 36.0], [5.0, 37.0], [6.0, 38.0], [7.0, 39.0], [8.0, 40.0], [9.0, 41.0], [10.0, 42.0], [11.0, 43.0], [12.0, 44.0], [13.0, 45.0], [14.0, 46.0], [15.0, 47.0], [16.0, 48.0], [17.0, 49.0], [18.0, 50.0], [19.0, 51.0], [20.0, 52.0], [21.0, 53.0], [22.0, 54.0], [23.0, 55.0], [24.0, 56.0], [25.0, 57.0], [26.0, 58.0], [27.0, 59.0], [28.0, 60.0], [29.0, 61.0], [30.0, 62.0], [31.0, 63.0]]> : tensor<32x2xf32>
  %y = call @kernel(%x, %w) : (tensor<4x2xf32>, tensor<32x2xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
func.func private @kernel(%a: tensor<4x2xf32>, %b: tensor<32x2xf32>) -> tensor<4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x2xf32>, tensor<32x2xf32>) outs(%c : tensor<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// A dense layer's weight whose n = 3 is no multiple of a panel's width:
// stored transposed, [k, n] = [2, 3], and read (k, n).
// CHECK-DAG: #[[KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func @dense_weight_transposed
// CHECK: %[[W:.*]] = arith.constant dense_resource<transposed_weight> : tensor<2x3xf32>
// CHECK: call @kernel(%arg0, %[[W]]) : (tensor<4x2xf32>, tensor<2x3xf32>)
// CHECK: linalg.generic {{.*}}#[[KN]]{{.*}} ins(%arg0, %arg1 : tensor<4x2xf32>, tensor<2x3xf32>)
// CHECK: transposed_weight: "0x400000000000803F000040400000A04000000040000080400000C040"
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (n, k)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @dense_weight_transposed(%x: tensor<4x2xf32>) -> tensor<4x3xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %y = call @kernel(%x, %w) : (tensor<4x2xf32>, tensor<3x2xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}
func.func private @kernel(%a: tensor<4x2xf32>, %b: tensor<3x2xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x2xf32>, tensor<3x2xf32>) outs(%c : tensor<4x3xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// Left alone: two products read the argument, one as [k, n] and one as
// [n, k] (square, so both are products).
// CHECK-LABEL: func @negative_mixed
// CHECK-NOT: _weight
#A = affine_map<(m, n, k) -> (m, k)>
#KN = affine_map<(m, n, k) -> (k, n)>
#NK = affine_map<(m, n, k) -> (n, k)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @negative_mixed(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0], [48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0], [64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0], [80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0], [96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0], [112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0], [128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0, 140.0, 141.0, 142.0, 143.0], [144.0, 145.0, 146.0, 147.0, 148.0, 149.0, 150.0, 151.0, 152.0, 153.0, 154.0, 155.0, 156.0, 157.0, 158.0, 159.0], [160.0, 161.0, 162.0, 163.0, 164.0, 165.0, 166.0, 167.0, 168.0, 169.0, 170.0, 171.0, 172.0, 173.0, 174.0, 175.0], [176.0, 177.0, 178.0, 179.0, 180.0, 181.0, 182.0, 183.0, 184.0, 185.0, 186.0, 187.0, 188.0, 189.0, 190.0, 191.0], [192.0, 193.0, 194.0, 195.0, 196.0, 197.0, 198.0, 199.0, 200.0, 201.0, 202.0, 203.0, 204.0, 205.0, 206.0, 207.0], [208.0, 209.0, 210.0, 211.0, 212.0, 213.0, 214.0, 215.0, 216.0, 217.0, 218.0, 219.0, 220.0, 221.0, 222.0, 223.0], [224.0, 225.0, 226.0, 227.0, 228.0, 229.0, 230.0, 231.0, 232.0, 233.0, 234.0, 235.0, 236.0, 237.0, 238.0, 239.0], [240.0, 241.0, 242.0, 243.0, 244.0, 245.0, 246.0, 247.0, 248.0, 249.0, 250.0, 251.0, 252.0, 253.0, 254.0, 255.0]]> : tensor<16x16xf32>
  %y:2 = call @kernel(%x, %w) : (tensor<4x16xf32>, tensor<16x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>)
  return %y#0, %y#1 : tensor<4x16xf32>, tensor<4x16xf32>
}
func.func private @kernel(%a: tensor<4x16xf32>, %b: tensor<16x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r1 = linalg.generic {indexing_maps = [#A, #KN, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x16xf32>, tensor<16x16xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %r2 = linalg.generic {indexing_maps = [#A, #NK, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x16xf32>, tensor<16x16xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r1, %r2 : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// An NHWC convolution's HWIO weight [1, 1, 2, 16], read by its product
// through a collapse into [2, 16]: packed as that matrix, [1][2][16] (the
// same order here), and the kernel takes the panels without the collapse.
// CHECK-LABEL: func @hwio
// CHECK: %[[W:.*]] = arith.constant dense_resource<packed_weight{{.*}}> : tensor<1x2x16xf32>
// CHECK: call @hwio_kernel(%arg0, %[[W]]) : (tensor<4x2xf32>, tensor<1x2x16xf32>)
// CHECK: func.func private @hwio_kernel(%arg0: tensor<4x2xf32>, %arg1: tensor<1x2x16xf32>)
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x2xf32>, tensor<1x2x16xf32>)
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @hwio(%x: tensor<4x2xf32>) -> tensor<4x16xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]]]]> : tensor<1x1x2x16xf32>
  %y = call @hwio_kernel(%x, %w) : (tensor<4x2xf32>, tensor<1x1x2x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
func.func private @hwio_kernel(%a: tensor<4x2xf32>, %b: tensor<1x1x2x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = tensor.collapse_shape %b [[0, 1, 2], [3]] : tensor<1x1x2x16xf32> into tensor<2x16xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %m : tensor<4x2xf32>, tensor<2x16xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %u = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %u : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// With bf16 dot products (PAIRS), a bf16 B [4, 32] that the kernel widens
// to f32 for a product whose A is widened from bf16 too, B[k][n] = 32 k + n,
// becomes panels of pairs [1][2][32][2]: element [0][i][j][h] is
// B[2 i + h][j], so the payload starts 0, 32, 1, 33 (bf16 0x0000, 0x4200,
// 0x3F80, 0x4204; after the resource's alignment, 0x40000000). The product
// takes the bf16 values themselves and widens them in its body; the
// widening of B is gone. Without bf16 dot products B is widened once here
// into f32 panels [2][4][16] (256-bit vectors), 0.0, 1.0, 2.0, ... in
// order, instead of at every run, and the kernel's widening of B is gone.
// PAIRS-DAG: #[[PAIRMAP:.*]] = affine_map<(d0, d1, d2) -> (d1 floordiv 32, d2 floordiv 2, d1 mod 32, d2 mod 2)>
// PAIRS-LABEL: func @pairs
// PAIRS: %[[W:.*]] = arith.constant dense_resource<packed_weight{{.*}}> : tensor<1x2x32x2xbf16>
// PAIRS: call @pairs_kernel(%arg0, %[[W]]) : (tensor<4x4xbf16>, tensor<1x2x32x2xbf16>)
// PAIRS: func.func private @pairs_kernel(%arg0: tensor<4x4xbf16>, %arg1: tensor<1x2x32x2xbf16>)
// PAIRS-NOT: ins(%arg1 :
// PAIRS: linalg.generic {{.*}}#[[PAIRMAP]]{{.*}} ins(%arg0, %arg1 : tensor<4x4xbf16>, tensor<1x2x32x2xbf16>)
// PAIRS-NEXT: ^bb0(%[[P:.*]]: bf16, %[[Q:.*]]: bf16, %[[ACC:.*]]: f32):
// PAIRS-NEXT: %[[PF:.*]] = arith.extf %[[P]] : bf16 to f32
// PAIRS-NEXT: %[[QF:.*]] = arith.extf %[[Q]] : bf16 to f32
// PAIRS-NEXT: arith.mulf %[[PF]], %[[QF]]
// PAIRS: packed_weight{{.*}}: "0x4000000000000042803F04420040084240400C42
// CHECK-LABEL: func @pairs
// CHECK: arith.constant dense_resource<packed_weight{{.*}}> : tensor<2x4x16xf32>
// CHECK: func.func private @pairs_kernel(%arg0: tensor<4x4xbf16>, %arg1: tensor<2x4x16xf32>)
// CHECK-NOT: ins(%arg1 :
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %arg1 : tensor<4x4xf32>, tensor<2x4x16xf32>)
// CHECK: packed_weight{{.*}}: "0x40000000000000000000803F0000004000004040
#id = affine_map<(i, j) -> (i, j)>
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#BT = affine_map<(m, n, k) -> (n, k)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @pairs(%x: tensor<4x4xbf16>) -> tensor<4x32xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0], [64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0, 80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0], [96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0]]> : tensor<4x32xbf16>
  %y = call @pairs_kernel(%x, %w) : (tensor<4x4xbf16>, tensor<4x32xbf16>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
func.func private @pairs_kernel(%a: tensor<4x4xbf16>, %b: tensor<4x32xbf16>) -> tensor<4x32xf32> {
  %ea = tensor.empty() : tensor<4x4xf32>
  %wa = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xbf16>) outs(%ea : tensor<4x4xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<4x4xf32>
  %eb = tensor.empty() : tensor<4x32xf32>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x32xbf16>) outs(%eb : tensor<4x32xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<4x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%wa, %wb : tensor<4x4xf32>, tensor<4x32xf32>) outs(%c : tensor<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %u = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %u : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// A bf16 B held [n, k] (a dense layer's weight, [32, 4]): the same panels
// of pairs, read through the same map.
// PAIRS-LABEL: func @pairs_nk
// PAIRS: call @pairs_nk_kernel(%arg0, %{{.*}}) : (tensor<4x4xbf16>, tensor<1x2x32x2xbf16>)
// PAIRS: linalg.generic {{.*}}#[[PAIRMAP]]{{.*}} ins(%arg0, %arg1 : tensor<4x4xbf16>, tensor<1x2x32x2xbf16>)
// PAIRS: packed_weight{{.*}}: "0x4000000000000042803F04420040084240400C42
#id = affine_map<(i, j) -> (i, j)>
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#BT = affine_map<(m, n, k) -> (n, k)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @pairs_nk(%x: tensor<4x4xbf16>) -> tensor<4x32xf32> {
  %w = arith.constant dense<[[0.0, 32.0, 64.0, 96.0], [1.0, 33.0, 65.0, 97.0], [2.0, 34.0, 66.0, 98.0], [3.0, 35.0, 67.0, 99.0], [4.0, 36.0, 68.0, 100.0], [5.0, 37.0, 69.0, 101.0], [6.0, 38.0, 70.0, 102.0], [7.0, 39.0, 71.0, 103.0], [8.0, 40.0, 72.0, 104.0], [9.0, 41.0, 73.0, 105.0], [10.0, 42.0, 74.0, 106.0], [11.0, 43.0, 75.0, 107.0], [12.0, 44.0, 76.0, 108.0], [13.0, 45.0, 77.0, 109.0], [14.0, 46.0, 78.0, 110.0], [15.0, 47.0, 79.0, 111.0], [16.0, 48.0, 80.0, 112.0], [17.0, 49.0, 81.0, 113.0], [18.0, 50.0, 82.0, 114.0], [19.0, 51.0, 83.0, 115.0], [20.0, 52.0, 84.0, 116.0], [21.0, 53.0, 85.0, 117.0], [22.0, 54.0, 86.0, 118.0], [23.0, 55.0, 87.0, 119.0], [24.0, 56.0, 88.0, 120.0], [25.0, 57.0, 89.0, 121.0], [26.0, 58.0, 90.0, 122.0], [27.0, 59.0, 91.0, 123.0], [28.0, 60.0, 92.0, 124.0], [29.0, 61.0, 93.0, 125.0], [30.0, 62.0, 94.0, 126.0], [31.0, 63.0, 95.0, 127.0]]> : tensor<32x4xbf16>
  %y = call @pairs_nk_kernel(%x, %w) : (tensor<4x4xbf16>, tensor<32x4xbf16>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
func.func private @pairs_nk_kernel(%a: tensor<4x4xbf16>, %b: tensor<32x4xbf16>) -> tensor<4x32xf32> {
  %ea = tensor.empty() : tensor<4x4xf32>
  %wa = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xbf16>) outs(%ea : tensor<4x4xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<4x4xf32>
  %eb = tensor.empty() : tensor<32x4xf32>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<32x4xbf16>) outs(%eb : tensor<32x4xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<32x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #BT, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%wa, %wb : tensor<4x4xf32>, tensor<32x4xf32>) outs(%c : tensor<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %u = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %u : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// An NHWC convolution's HWIO weight in bf16 ([1, 1, 4, 32], B[k][n] = 32 k
// + n as in @pairs), read through its collapse into [4, 32] and widened:
// the same panels of pairs; the collapse and the widening are gone.
// PAIRS-LABEL: func @pairs_hwio
// PAIRS: call @pairs_hwio_kernel(%arg0, %{{.*}}) : (tensor<4x4xbf16>, tensor<1x2x32x2xbf16>)
// PAIRS-NOT: tensor.collapse_shape
// PAIRS: linalg.generic {{.*}}#[[PAIRMAP]]{{.*}} ins(%arg0, %arg1 : tensor<4x4xbf16>, tensor<1x2x32x2xbf16>)
// PAIRS: packed_weight{{.*}}: "0x4000000000000042803F04420040084240400C42
#id = affine_map<(i, j) -> (i, j)>
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @pairs_hwio(%x: tensor<4x4xbf16>) -> tensor<4x32xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0], [64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0, 80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0], [96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0]]]]> : tensor<1x1x4x32xbf16>
  %y = call @pairs_hwio_kernel(%x, %w) : (tensor<4x4xbf16>, tensor<1x1x4x32xbf16>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
func.func private @pairs_hwio_kernel(%a: tensor<4x4xbf16>, %b: tensor<1x1x4x32xbf16>) -> tensor<4x32xf32> {
  %ea = tensor.empty() : tensor<4x4xf32>
  %wa = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xbf16>) outs(%ea : tensor<4x4xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<4x4xf32>
  %b2 = tensor.collapse_shape %b [[0, 1, 2], [3]] : tensor<1x1x4x32xbf16> into tensor<4x32xbf16>
  %eb = tensor.empty() : tensor<4x32xf32>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b2 : tensor<4x32xbf16>) outs(%eb : tensor<4x32xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<4x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%wa, %wb : tensor<4x4xf32>, tensor<4x32xf32>) outs(%c : tensor<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %u = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %u : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// No pairs for an odd reduction (k = 3), nor for an A that is f32: B is
// widened once into f32 panels (the kernel widens only A).
// PAIRS-LABEL: func @negative_pairs_odd_k
// PAIRS: func.func private @negative_pairs_odd_k_kernel(%arg0: tensor<4x3xbf16>, %arg1: tensor<1x3x32xf32>)
// PAIRS: arith.extf %{{.*}} : bf16 to f32
// PAIRS-NOT: arith.extf
#id = affine_map<(i, j) -> (i, j)>
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#BT = affine_map<(m, n, k) -> (n, k)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @negative_pairs_odd_k(%x: tensor<4x3xbf16>) -> tensor<4x32xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0], [64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0, 80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0]]> : tensor<3x32xbf16>
  %y = call @negative_pairs_odd_k_kernel(%x, %w) : (tensor<4x3xbf16>, tensor<3x32xbf16>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
func.func private @negative_pairs_odd_k_kernel(%a: tensor<4x3xbf16>, %b: tensor<3x32xbf16>) -> tensor<4x32xf32> {
  %ea = tensor.empty() : tensor<4x3xf32>
  %wa = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x3xbf16>) outs(%ea : tensor<4x3xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<4x3xf32>
  %eb = tensor.empty() : tensor<3x32xf32>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<3x32xbf16>) outs(%eb : tensor<3x32xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<3x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%wa, %wb : tensor<4x3xf32>, tensor<3x32xf32>) outs(%c : tensor<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %u = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %u : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// PAIRS-LABEL: func @negative_pairs_f32_a
// PAIRS: func.func private @negative_pairs_f32_a_kernel(%arg0: tensor<4x4xf32>, %arg1: tensor<1x4x32xf32>)
// PAIRS-NOT: arith.extf
#id = affine_map<(i, j) -> (i, j)>
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#BT = affine_map<(m, n, k) -> (n, k)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @negative_pairs_f32_a(%x: tensor<4x4xf32>) -> tensor<4x32xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0], [64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0, 80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0], [96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0]]> : tensor<4x32xbf16>
  %y = call @negative_pairs_f32_a_kernel(%x, %w) : (tensor<4x4xf32>, tensor<4x32xbf16>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
func.func private @negative_pairs_f32_a_kernel(%a: tensor<4x4xf32>, %b: tensor<4x32xbf16>) -> tensor<4x32xf32> {
  %eb = tensor.empty() : tensor<4x32xf32>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x32xbf16>) outs(%eb : tensor<4x32xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<4x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wb : tensor<4x4xf32>, tensor<4x32xf32>) outs(%c : tensor<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %u = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %u : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// An f16 B (a product of mixed=f16) is widened once too, exactly: row 0
// holds the smallest f16 subnormal (2^-24), the smallest normal (2^-14),
// -2, the largest f16 (65504) and 0.5, whose f32 bits are 0x33800000,
// 0x38800000, 0xC0000000, 0x477FE000 and 0x3F000000 (little-endian in the
// payload, after the resource's alignment).
// CHECK-LABEL: func @widened_f16
// CHECK: func.func private @widened_f16_kernel(%arg0: tensor<4x2xf16>, %arg1: tensor<1x2x16xf32>)
// CHECK-NOT: arith.extf %arg1
// CHECK: packed_weight{{.*}}: "0x400000000000803300008038000000C000E07F470000003F
// PAIRS-LABEL: func @widened_f16
// PAIRS: func.func private @widened_f16_kernel(%arg0: tensor<4x2xf16>, %arg1: tensor<1x2x16xf32>)
#id = affine_map<(i, j) -> (i, j)>
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (k, n)>
#C = affine_map<(m, n, k) -> (m, n)>
func.func @widened_f16(%x: tensor<4x2xf16>) -> tensor<4x16xf32> {
  %w = arith.constant dense<[[5.9604644775390625E-8, 6.103515625E-5, -2.0, 65504.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]]> : tensor<2x16xf16>
  %y = call @widened_f16_kernel(%x, %w) : (tensor<4x2xf16>, tensor<2x16xf16>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
func.func private @widened_f16_kernel(%a: tensor<4x2xf16>, %b: tensor<2x16xf16>) -> tensor<4x16xf32> {
  %ea = tensor.empty() : tensor<4x2xf32>
  %wa = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x2xf16>) outs(%ea : tensor<4x2xf32>) {
  ^bb0(%p: f16, %o: f32):
    %f = arith.extf %p : f16 to f32
    linalg.yield %f : f32
  } -> tensor<4x2xf32>
  %eb = tensor.empty() : tensor<2x16xf32>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<2x16xf16>) outs(%eb : tensor<2x16xf32>) {
  ^bb0(%p: f16, %o: f32):
    %f = arith.extf %p : f16 to f32
    linalg.yield %f : f32
  } -> tensor<2x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%wa, %wb : tensor<4x2xf32>, tensor<2x16xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %u = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %u : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Pairs for a B of 20 columns [2, 20] (k = 2): panels 16 wide, the second
// padded with zeros, [2][1][16][2]; the product fills an accumulator of 32
// columns and the kernel's result is its first 20. With a fill as the
// initial value, the wider accumulator starts from the same fill.
// PAIRS-LABEL: func @pairs_padded
// PAIRS: func.func private @pairs_padded_kernel(%arg0: tensor<3x2xbf16>, %arg1: tensor<2x1x16x2xbf16>)
// PAIRS: %[[E:.*]] = tensor.empty() : tensor<3x32xf32>
// PAIRS: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<3x32xf32>)
// PAIRS: %[[P:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<3x2xbf16>, tensor<2x1x16x2xbf16>) outs(%[[F]] : tensor<3x32xf32>)
// PAIRS: %[[S:.*]] = tensor.extract_slice %[[P]][0, 0] [3, 20] [1, 1] : tensor<3x32xf32> to tensor<3x20xf32>
// PAIRS-NEXT: return %[[S]]
// Panel 1 holds columns 16 to 19 (pairs (17, 37) ... (20, 40) as bf16),
// then 12 pairs of zeros.
// PAIRS: packed_weight{{.*}}: "0x40000000803FA8410040B0414040B8418040C041A040C841C040D041E040D8410041E0411041E8412041F0413041F84140410042504104426041084270410C4280411042884114429041184298411C42A0412042000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
// Without bf16 dot products the weight takes no f32 form (a [k, n] of 20
// columns): widened as it is.
// CHECK-LABEL: func @pairs_padded(
// CHECK: func.func private @pairs_padded_kernel(%arg0: tensor<3x2xbf16>, %arg1: tensor<2x20xf32>)
func.func @pairs_padded(%x: tensor<3x2xbf16>) -> tensor<3x20xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0]]> : tensor<2x20xbf16>
  %y = call @pairs_padded_kernel(%x, %w) : (tensor<3x2xbf16>, tensor<2x20xbf16>) -> tensor<3x20xf32>
  return %y : tensor<3x20xf32>
}
func.func private @pairs_padded_kernel(%a: tensor<3x2xbf16>, %b: tensor<2x20xbf16>) -> tensor<3x20xf32> {
  %ea = tensor.empty() : tensor<3x2xf32>
  %wa = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<3x2xbf16>) outs(%ea : tensor<3x2xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<3x2xf32>
  %eb = tensor.empty() : tensor<2x20xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<2x20xbf16>) outs(%eb : tensor<2x20xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<2x20xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x20xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x20xf32>) -> tensor<3x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%wa, %wb : tensor<3x2xf32>, tensor<2x20xf32>) outs(%c : tensor<3x20xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %u = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %u : f32
    linalg.yield %s : f32
  } -> tensor<3x20xf32>
  return %r : tensor<3x20xf32>
}

// -----

// The same with a bias as the initial value: the wider accumulator starts
// from zero and the bias is added to its slice.
// PAIRS-LABEL: func @pairs_padded_bias
// PAIRS: func.func private @pairs_padded_bias_kernel(%arg0: tensor<3x2xbf16>, %arg1: tensor<2x1x16x2xbf16>, %arg2: tensor<20xf32>)
// PAIRS: %[[BIAS:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<20xf32>) outs(%{{.*}} : tensor<3x20xf32>)
// PAIRS: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// PAIRS: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<3x32xf32>)
// PAIRS: %[[P:.*]] = linalg.generic {{.*}} outs(%[[F]] : tensor<3x32xf32>)
// PAIRS: %[[S:.*]] = tensor.extract_slice %[[P]][0, 0] [3, 20] [1, 1]
// PAIRS: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[S]], %[[BIAS]] : tensor<3x20xf32>, tensor<3x20xf32>)
// PAIRS: arith.addf
// PAIRS: return %[[SUM]]
// CHECK-LABEL: func @pairs_padded_bias
// CHECK: transposed_weight
func.func @pairs_padded_bias(%x: tensor<3x2xbf16>, %bias: tensor<20xf32>) -> tensor<3x20xf32> {
  %w = arith.constant dense<[[1.0, 21.0], [2.0, 22.0], [3.0, 23.0], [4.0, 24.0], [5.0, 25.0], [6.0, 26.0], [7.0, 27.0], [8.0, 28.0], [9.0, 29.0], [10.0, 30.0], [11.0, 31.0], [12.0, 32.0], [13.0, 33.0], [14.0, 34.0], [15.0, 35.0], [16.0, 36.0], [17.0, 37.0], [18.0, 38.0], [19.0, 39.0], [20.0, 40.0]]> : tensor<20x2xbf16>
  %y = call @pairs_padded_bias_kernel(%x, %w, %bias) : (tensor<3x2xbf16>, tensor<20x2xbf16>, tensor<20xf32>) -> tensor<3x20xf32>
  return %y : tensor<3x20xf32>
}
func.func private @pairs_padded_bias_kernel(%a: tensor<3x2xbf16>, %b: tensor<20x2xbf16>, %bias: tensor<20xf32>) -> tensor<3x20xf32> {
  %ea = tensor.empty() : tensor<3x2xf32>
  %wa = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<3x2xbf16>) outs(%ea : tensor<3x2xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<3x2xf32>
  %eb = tensor.empty() : tensor<20x2xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<20x2xbf16>) outs(%eb : tensor<20x2xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<20x2xf32>
  %e = tensor.empty() : tensor<3x20xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<20xf32>) outs(%e : tensor<3x20xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<3x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%wa, %wb : tensor<3x2xf32>, tensor<20x2xf32>) outs(%c : tensor<3x20xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %u = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %u : f32
    linalg.yield %s : f32
  } -> tensor<3x20xf32>
  return %r : tensor<3x20xf32>
}

// -----

// An f16 weight that is the product's A (an NCHW convolution's [O, C, KH,
// KW], widened, then collapsed into [O, C*KH*KW]): widened once here, as it
// is, instead of at every run; the kernel takes the f32 weight.
// CHECK-LABEL: func @widened_a
// CHECK: %[[W:.*]] = arith.constant dense_resource<packed_weight{{.*}}> : tensor<2x1x1x2xf32>
// CHECK: call @widened_a_kernel(%[[W]], %arg0) : (tensor<2x1x1x2xf32>, tensor<2x3xf32>)
// CHECK: func.func private @widened_a_kernel(%arg0: tensor<2x1x1x2xf32>, %arg1: tensor<2x3xf32>)
// CHECK-NOT: arith.extf
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0], [1, 2, 3]] : tensor<2x1x1x2xf32> into tensor<2x2xf32>
// 1.0, 2.0, -0.5, 65504.0 (f16's largest) in f32.
// CHECK: packed_weight{{.*}}: "0x400000000000803F00000040000000BF00E07F47"
func.func @widened_a(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0]]], [[[-0.5, 65504.0]]]]> : tensor<2x1x1x2xf16>
  %y = call @widened_a_kernel(%w, %x) : (tensor<2x1x1x2xf16>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
func.func private @widened_a_kernel(%a: tensor<2x1x1x2xf16>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %ea = tensor.empty() : tensor<2x1x1x2xf32>
  %wa = linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, j, k, l)>, affine_map<(i, j, k, l) -> (i, j, k, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<2x1x1x2xf16>) outs(%ea : tensor<2x1x1x2xf32>) {
  ^bb0(%p: f16, %o: f32):
    %f = arith.extf %p : f16 to f32
    linalg.yield %f : f32
  } -> tensor<2x1x1x2xf32>
  %m = tensor.collapse_shape %wa [[0], [1, 2, 3]] : tensor<2x1x1x2xf32> into tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%m, %b : tensor<2x2xf32>, tensor<2x3xf32>) outs(%c : tensor<2x3xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %u = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %u : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// A batch of weights, B [2, 2, 32] read (b, k, n) by a product whose loop
// b indexes A and C too (a Winograd product's points), W[b][k][n] = 64 b +
// 32 k + n: each matrix of the batch becomes its panels, [2][2][2][16],
// element [b][p][k][j] = W[b][k][16 p + j], read through (b, n floordiv 16,
// k, n mod 16). With 512-bit vectors: [2][1][2][32].
// CHECK-DAG: #[[BATCH_PANELS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 16, d3, d2 mod 16)>
// CHECK-LABEL: func @batched
// CHECK: %[[W:.*]] = arith.constant dense_resource<packed_weight{{.*}}> : tensor<2x2x2x16xf32>
// CHECK: call @batched_kernel(%arg0, %[[W]]) : (tensor<2x4x2xf32>, tensor<2x2x2x16xf32>)
// CHECK: linalg.generic {{.*}}#[[BATCH_PANELS]]{{.*}} ins(%arg0, %arg1 : tensor<2x4x2xf32>, tensor<2x2x2x16xf32>)
// CHECK: packed_weight{{.*}}: "0x40000000000000000000803F0000004000004040000080400000A0400000C0400000E040000000410000104100002041000030410000404100005041000060410000704100000042000004420000084200000C4200001042000014420000184200001C4200002042000024420000284200002C4200003042000034420000384200003C42000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E8410000F0410000F84100004042000044420000484200004C4200005042000054420000584200005C4200006042000064420000684200006C4200007042000074420000784200007C42000080420000824200008442000086420000884200008A4200008C4200008E42000090420000924200009442000096420000984200009A4200009C4200009E420000C0420000C2420000C4420000C6420000C8420000CA420000CC420000CE420000D0420000D2420000D4420000D6420000D8420000DA420000DC420000DE420000A0420000A2420000A4420000A6420000A8420000AA420000AC420000AE420000B0420000B2420000B4420000B6420000B8420000BA420000BC420000BE420000E0420000E2420000E4420000E6420000E8420000EA420000EC420000EE420000F0420000F2420000F4420000F6420000F8420000FA420000FC420000FE42"
// AVX512-LABEL: func @batched
// AVX512: arith.constant dense_resource<packed_weight{{.*}}> : tensor<2x1x2x32xf32>
#A = affine_map<(b, m, n, k) -> (b, m, k)>
#B = affine_map<(b, m, n, k) -> (b, k, n)>
#C = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batched(%x: tensor<2x4x2xf32>) -> tensor<2x4x32xf32> {
  %w = arith.constant dense<[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0]], [[64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0, 80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0], [96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0]]]> : tensor<2x2x32xf32>
  %y = call @batched_kernel(%x, %w) : (tensor<2x4x2xf32>, tensor<2x2x32xf32>) -> tensor<2x4x32xf32>
  return %y : tensor<2x4x32xf32>
}
func.func private @batched_kernel(%a: tensor<2x4x2xf32>, %b: tensor<2x2x32xf32>) -> tensor<2x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x4x2xf32>, tensor<2x2x32xf32>) outs(%c : tensor<2x4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x32xf32>
  return %r : tensor<2x4x32xf32>
}

// -----

// A batch of weights [2, 3, 2] read (b, n, k), whose n = 3 is no multiple of
// a panel's width: each matrix stored transposed, [2][2][3], read (b, k, n).
// CHECK-DAG: #[[BATCH_KN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-LABEL: func @batched_transposed
// CHECK: %[[W:.*]] = arith.constant dense_resource<transposed_weight{{.*}}> : tensor<2x2x3xf32>
// CHECK: linalg.generic {{.*}}#[[BATCH_KN]]{{.*}} ins(%arg0, %arg1 : tensor<2x4x2xf32>, tensor<2x2x3xf32>)
// CHECK: transposed_weight{{.*}}: "0x400000000000803F000040400000A04000000040000080400000C040000030410000504100007041000040410000604100008041"
#A = affine_map<(b, m, n, k) -> (b, m, k)>
#B = affine_map<(b, m, n, k) -> (b, n, k)>
#C = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batched_transposed(%x: tensor<2x4x2xf32>) -> tensor<2x4x3xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[11.0, 12.0], [13.0, 14.0], [15.0, 16.0]]]> : tensor<2x3x2xf32>
  %y = call @batched_transposed_kernel(%x, %w) : (tensor<2x4x2xf32>, tensor<2x3x2xf32>) -> tensor<2x4x3xf32>
  return %y : tensor<2x4x3xf32>
}
func.func private @batched_transposed_kernel(%a: tensor<2x4x2xf32>, %b: tensor<2x3x2xf32>) -> tensor<2x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x3xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x4x2xf32>, tensor<2x3x2xf32>) outs(%c : tensor<2x4x3xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x3xf32>
  return %r : tensor<2x4x3xf32>
}

// -----

// Two batch dimensions, B [2, 2, 1, 16]: left as it is.
// CHECK-LABEL: func @negative_two_batches
// CHECK: call @negative_two_batches_kernel(%arg0, %{{.*}}) : (tensor<2x2x4x1xf32>, tensor<2x2x1x16xf32>)
// CHECK: func.func private @negative_two_batches_kernel(%arg0: tensor<2x2x4x1xf32>, %arg1: tensor<2x2x1x16xf32>)
#A = affine_map<(a, b, m, n, k) -> (a, b, m, k)>
#B = affine_map<(a, b, m, n, k) -> (a, b, k, n)>
#C = affine_map<(a, b, m, n, k) -> (a, b, m, n)>
func.func @negative_two_batches(%x: tensor<2x2x4x1xf32>) -> tensor<2x2x4x16xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]], [[32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0]]], [[[64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0]], [[96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0]]]]> : tensor<2x2x1x16xf32>
  %y = call @negative_two_batches_kernel(%x, %w) : (tensor<2x2x4x1xf32>, tensor<2x2x1x16xf32>) -> tensor<2x2x4x16xf32>
  return %y : tensor<2x2x4x16xf32>
}
func.func private @negative_two_batches_kernel(%a: tensor<2x2x4x1xf32>, %b: tensor<2x2x1x16xf32>) -> tensor<2x2x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x4x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x4x16xf32>) -> tensor<2x2x4x16xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x2x4x1xf32>, tensor<2x2x1x16xf32>) outs(%c : tensor<2x2x4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x2x4x16xf32>
  return %r : tensor<2x2x4x16xf32>
}

// -----

// A batch of bf16 weights [2, 2, 20] read through their widening, whose
// n = 20 is no multiple of a panel's width and which never become pairs
// (a batch): widened as they are, once, here; the products read the f32
// argument.
// CHECK-LABEL: func @batched_widened
// CHECK: func.func private @batched_widened_kernel(%arg0: tensor<2x3x2xf32>, %arg1: tensor<2x2x20xf32>)
// CHECK-NOT: arith.extf
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x3x2xf32>, tensor<2x2x20xf32>)
// PAIRS-LABEL: func @batched_widened
// PAIRS: func.func private @batched_widened_kernel(%arg0: tensor<2x3x2xf32>, %arg1: tensor<2x2x20xf32>)
#id = affine_map<(b, i, j) -> (b, i, j)>
#A = affine_map<(b, m, n, k) -> (b, m, k)>
#B = affine_map<(b, m, n, k) -> (b, k, n)>
#C = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batched_widened(%x: tensor<2x3x2xf32>) -> tensor<2x3x20xf32> {
  %w = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0]], [[41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0], [61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0, 80.0]]]> : tensor<2x2x20xbf16>
  %y = call @batched_widened_kernel(%x, %w) : (tensor<2x3x2xf32>, tensor<2x2x20xbf16>) -> tensor<2x3x20xf32>
  return %y : tensor<2x3x20xf32>
}
func.func private @batched_widened_kernel(%a: tensor<2x3x2xf32>, %b: tensor<2x2x20xbf16>) -> tensor<2x3x20xf32> {
  %eb = tensor.empty() : tensor<2x2x20xf32>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<2x2x20xbf16>) outs(%eb : tensor<2x2x20xf32>) {
  ^bb0(%p: bf16, %o: f32):
    %f = arith.extf %p : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<2x2x20xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x20xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x20xf32>) -> tensor<2x3x20xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %wb : tensor<2x3x2xf32>, tensor<2x2x20xf32>) outs(%c : tensor<2x3x20xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %u = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %u : f32
    linalg.yield %s : f32
  } -> tensor<2x3x20xf32>
  return %r : tensor<2x3x20xf32>
}

// -----

// An empty batch, [0, 2, 32]: nothing to pack, left as it is.
// CHECK-LABEL: func @negative_empty_batch
// CHECK: func.func private @negative_empty_batch_kernel(%arg0: tensor<0x4x2xf32>, %arg1: tensor<0x2x32xf32>)
#A = affine_map<(b, m, n, k) -> (b, m, k)>
#B = affine_map<(b, m, n, k) -> (b, k, n)>
#C = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @negative_empty_batch(%x: tensor<0x4x2xf32>) -> tensor<0x4x32xf32> {
  %w = arith.constant dense<> : tensor<0x2x32xf32>
  %y = call @negative_empty_batch_kernel(%x, %w) : (tensor<0x4x2xf32>, tensor<0x2x32xf32>) -> tensor<0x4x32xf32>
  return %y : tensor<0x4x32xf32>
}
func.func private @negative_empty_batch_kernel(%a: tensor<0x4x2xf32>, %b: tensor<0x2x32xf32>) -> tensor<0x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<0x4x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<0x4x32xf32>) -> tensor<0x4x32xf32>
  %r = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<0x4x2xf32>, tensor<0x2x32xf32>) outs(%c : tensor<0x4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<0x4x32xf32>
  return %r : tensor<0x4x32xf32>
}
