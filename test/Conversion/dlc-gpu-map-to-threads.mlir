// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// An elementwise op: one thread per element, 256 per block (10 x 300 =
// 3000 elements: 12 blocks), guarded past the last.
// CHECK-LABEL: func.func @elementwise
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C12]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[C256]],
// CHECK: %[[LIN:.*]] = arith.addi
// CHECK: arith.cmpi ult, %[[LIN]]
// CHECK: scf.if
// CHECK: affine.delinearize_index %[[LIN]] into (10, 300)
// CHECK: math.exp
// CHECK: gpu.terminator
// CHECK-NOT: linalg.
func.func @elementwise(%a: memref<10x300xf32>, %b: memref<10x300xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<10x300xf32>) outs(%b : memref<10x300xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// A row reduction of few rows: a warp per row (4 rows: 128 threads), lane l
// taking elements l, l + 32, ... from the neutral element (coalesced), a
// butterfly of shuffles, lane 0 adding the initial value and storing; a copy
// becomes a kernel as well.
// CHECK-LABEL: func.func @rows
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{(_[0-9]+)?}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c128,
// CHECK: %[[THREAD:.*]] = arith.addi
// CHECK: %[[WARP:.*]] = arith.divui %[[THREAD]], %c32
// CHECK: affine.delinearize_index %[[WARP]] into (4)
// CHECK: %[[LANE:.*]] = arith.remui %[[THREAD]], %c32
// CHECK: %[[INIT:.*]] = memref.load %arg1
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PART:.*]] = scf.for {{.*}} step %c32{{(_[0-9]+)?}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32)
// CHECK: gpu.shuffle xor %[[PART]], %c16_i32
// CHECK: gpu.shuffle xor {{.*}}, %c8_i32
// CHECK: gpu.shuffle xor {{.*}}, %c4_i32
// CHECK: gpu.shuffle xor {{.*}}, %c2_i32
// CHECK: gpu.shuffle xor {{.*}}, %c1_i32
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK: %[[TOTAL:.*]] = arith.addf {{.*}}%[[INIT]]
// CHECK: arith.cmpi eq, %[[LANE]]
// CHECK: scf.if
// CHECK-NEXT: memref.store %[[TOTAL]], %arg1
// CHECK: gpu.launch
// CHECK-NOT: memref.copy
func.func @rows(%a: memref<4x64xf32>, %s: memref<4xf32>, %c: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x64xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  }
  memref.copy %s, %c : memref<4xf32> to memref<4xf32>
  return
}

// A product of many outputs: a thread each, the accumulator in a register
// (loaded before the reduction loop, stored once after it).
// CHECK-LABEL: func.func @product
// CHECK: gpu.launch
// CHECK: %[[INIT:.*]] = memref.load %arg2
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK-NOT: memref.store
// CHECK: arith.addf %[[ACC]]
// CHECK: scf.yield
// CHECK: memref.store %[[SUM]], %arg2
func.func @product(%a: memref<128x256xf32>, %b: memref<256x256xf32>, %c: memref<128x256xf32>) {
  linalg.matmul ins(%a, %b : memref<128x256xf32>, memref<256x256xf32>)
                outs(%c : memref<128x256xf32>)
  return
}

// A dense layer (y[m, n] = sum_k x[m, k] * w[n, k]) reads both inputs along
// k only: a warp per output even for many outputs (128 x 256), so that a
// warp reads rows in order rather than a row apart.
// CHECK-LABEL: func.func @dense
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c4096, {{.*}}) threads({{.*}}) in ({{.*}} = %c256
// CHECK: arith.divui {{.*}}, %c32
// CHECK: gpu.shuffle xor
func.func @dense(%x: memref<128x64xf32>, %w: memref<256x64xf32>, %y: memref<128x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<128x64xf32>, memref<256x64xf32>) outs(%y : memref<128x256xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// A reduction of fewer iterations than a warp has lanes keeps a thread per
// output.
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @short_rows(%a: memref<4x16xf32>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x16xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// A reduction to a scalar has no parallel dimension: one thread.
// CHECK-LABEL: func.func @total
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{(_[0-9]+)?}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c1{{(_[0-9]+)?}}, 
// CHECK-NEXT: scf.for
func.func @total(%a: memref<64xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%a : memref<64xf32>) outs(%s : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// Scalars computed between loops (a loop's result, a load): the whole body
// but its buffers runs as one single-thread kernel.
// CHECK-LABEL: func.func @scalars
// CHECK: memref.alloc
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: memref.load
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK: memref.dealloc
// CHECK-NEXT: return
func.func @scalars(%a: memref<8xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<8xf32>
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  %first = memref.load %a[%c0] : memref<8xf32>
  %r = arith.subf %sum, %first : f32
  memref.store %r, %out[] : memref<f32>
  memref.dealloc %tmp : memref<8xf32>
  return
}

// A branch on the host (a region that is not a loop) runs in the
// single-thread kernel too; a nest of no iterations goes.
// CHECK-LABEL: func.func @branch
// CHECK: gpu.launch
// CHECK: memref.load
// CHECK: scf.if
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @branch(%flag: memref<i1>, %a: memref<4xf32>) {
  %b = memref.load %flag[] : memref<i1>
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  scf.if %b {
    memref.store %zero, %a[%c0] : memref<4xf32>
  }
  return
}
// CHECK-LABEL: func.func @empty
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @empty(%a: memref<0x4xf32>, %b: memref<0x4xf32>) {
  linalg.copy ins(%a : memref<0x4xf32>) outs(%b : memref<0x4xf32>)
  return
}

// Calls of kernel functions (which launch their own kernels) stay on the
// host and split the body: a single-thread kernel between each two calls.
// Views of buffers and constants stay on the host too, where later calls
// use them.
// CHECK-LABEL: func.func @calls
// CHECK: %[[T:.*]] = memref.alloc
// CHECK: call @producer(%[[T]])
// CHECK: %[[V:.*]] = memref.expand_shape %arg0
// CHECK: gpu.launch
// CHECK: memref.load %[[T]]
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK: call @consumer(%[[V]])
// CHECK-NEXT: return
func.func private @producer(memref<f32>)
func.func private @consumer(memref<1x4xf32>)
func.func @calls(%a: memref<4xf32>, %out: memref<f32>) {
  %t = memref.alloc() : memref<f32>
  call @producer(%t) : (memref<f32>) -> ()
  %v = memref.expand_shape %a [[0, 1]] output_shape [1, 4] : memref<4xf32> into memref<1x4xf32>
  %x = memref.load %t[] : memref<f32>
  memref.store %x, %out[] : memref<f32>
  call @consumer(%v) : (memref<1x4xf32>) -> ()
  return
}

// A function of scalars (math-to-funcs's integer power) is device code the
// kernels call: left alone.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: gpu.launch
// CHECK: return
func.func private @helper(%x: i32, %c: i1) -> i32 {
  %r = scf.if %c -> i32 {
    scf.yield %x : i32
  } else {
    %z = arith.constant 0 : i32
    scf.yield %z : i32
  }
  return %r : i32
}

// Ten kernels (the elementwise op, the row sums, the copy, the product, the
// dense layer, the short rows, the scalar reduction, the three
// single-thread bodies), four of one thread, two of a warp per output.
// STATS: dlc-gpu-map-to-threads: kernels 10, single-thread 4, warp-reductions 2
