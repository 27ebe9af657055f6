// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// An elementwise op: one thread per element, 256 per block (10 x 300 =
// 3000 elements: 12 blocks), guarded past the last; the thread's index
// split into the loops' in 32-bit arithmetic.
// CHECK-LABEL: func.func @elementwise
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C12]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[C256]],
// CHECK: %[[LIN:.*]] = arith.addi
// CHECK: arith.cmpi ult, %[[LIN]]
// CHECK: scf.if
// CHECK: %[[LIN32:.*]] = arith.index_castui %[[LIN]] : index to i32
// CHECK: arith.remui %[[LIN32]], %c300_i32
// CHECK: arith.divui %[[LIN32]], %c300_i32
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
// CHECK: arith.index_castui %[[WARP]] : index to i32
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

// A product of many outputs (512 x 1024, 128 tiles of 64 x 64): a block of
// 256 threads per tile, a thread computing 4 x 4 outputs from the output's
// values. Per step of 16 along the reduction each thread stores 4 elements
// of each input into shared memory (padded rows of 65), loads the next
// step's 4 + 4 (carried by the loop: in flight during the products), then
// does 16 x 16 fused multiply-adds, between barriers; it stores what is in
// range.
// CHECK-LABEL: func.func @product
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C16]], {{.*}} = %[[C8]], {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}) workgroup(%[[LHS:.*]] : memref<16x65xf32, #gpu.address_space<workgroup>>, %[[RHS:.*]] : memref<16x65xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-16: memref.load %arg2
// CHECK-COUNT-4: memref.load %arg0
// CHECK-COUNT-4: memref.load %arg1
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-4: memref.store {{.*}}, %[[LHS]]
// CHECK-COUNT-4: memref.store {{.*}}, %[[RHS]]
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: memref.load %arg0
// CHECK-COUNT-4: memref.load %arg1
// CHECK-COUNT-256: math.fma
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK-COUNT-16: scf.if
// CHECK: gpu.terminator
func.func @product(%a: memref<512x64xf32>, %b: memref<64x1024xf32>, %c: memref<512x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<512x64xf32>, memref<64x1024xf32>)
                outs(%c : memref<512x1024xf32>)
  return
}

// A product of few outputs and a long reduction (a 3x3 convolution of
// ResNet's last stage, after im2col: 64 x 49 outputs, 4608 products each)
// would occupy one block: its reduction is split in 36 slices of 128, each
// block summing one slice of a 64 x 64 tile into a buffer from zero; a
// second kernel adds the slices to the output in order.
// CHECK-LABEL: func.func @split_reduction
// CHECK: %[[PARTIAL:.*]] = memref.alloc() : memref<36x1x64x49xf32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c36{{.*}}) {{.*}} function(@k_layer4_conv) workgroup({{.*}} : memref<16x65xf32, {{.*}}>, {{.*}} : memref<16x65xf32, {{.*}}>)
// CHECK: %[[BEGIN:.*]] = arith.muli {{.*}}, %c128
// CHECK: %[[END:.*]] = arith.minui
// CHECK: scf.for {{.*}} = %[[BEGIN]] to %[[END]] step %c16{{.*}} iter_args({{.*}} = %cst{{.*}}, {{.*}} = %cst{{.*}}, {{.*}} = %cst{{.*}}, {{.*}} = %cst{{.*}}
// CHECK-COUNT-16: memref.store {{.*}}, %[[PARTIAL]]
// CHECK: gpu.launch {{.*}} function(@k_layer4_conv_sum)
// CHECK: %[[INIT:.*]] = memref.load %arg2
// CHECK: scf.for {{.*}} = %c0{{.*}} to %c36{{.*}} step %c1{{.*}} iter_args(%[[SUM:.*]] = %[[INIT]])
// CHECK: memref.load %[[PARTIAL]]
// CHECK: arith.addf %[[SUM]]
// CHECK: memref.store {{.*}}, %arg2
func.func @split_reduction(%w: memref<64x4608xf32>, %x: memref<1x4608x49xf32>, %y: memref<1x64x49xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>,
                                   affine_map<(b, m, n, k) -> (b, k, n)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x : memref<64x4608xf32>, memref<1x4608x49xf32>) outs(%y : memref<1x64x49xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } loc("layer4.conv")
  return
}

// A reduction that is not a multiple of 16 long (a 7x7 convolution of 3
// channels: 147): loads clamp the reduction index to its end, and the last
// step stores zeros past it.
// CHECK-LABEL: func.func @ragged
// CHECK: arith.minui %{{.*}}, %c146{{(_[0-9]+)?}}
// CHECK: scf.for %[[STEP:[^ ]*]] =
// CHECK: %[[K:.*]] = arith.addi %[[STEP]], %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[K]], %c147{{(_[0-9]+)?}}
// CHECK: arith.select %[[IN]]
func.func @ragged(%w: memref<64x147xf32>, %x: memref<1x147x12544xf32>, %y: memref<1x64x12544xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>,
                                   affine_map<(b, m, n, k) -> (b, k, n)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x : memref<64x147xf32>, memref<1x147x12544xf32>) outs(%y : memref<1x64x12544xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// A reduction that is not a multiply-accumulate (max-plus) over many
// outputs: a thread each, the accumulator in a register (loaded before the
// reduction loop, stored once after it).
// CHECK-LABEL: func.func @max_plus
// CHECK: gpu.launch
// CHECK-NOT: workgroup
// CHECK: %[[INIT:.*]] = memref.load %arg2
// CHECK: %[[MAX:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK-NOT: memref.store
// CHECK: arith.maximumf %[[ACC]]
// CHECK: scf.yield
// CHECK: memref.store %[[MAX]], %arg2
func.func @max_plus(%a: memref<128x64xf32>, %b: memref<64x256xf32>, %c: memref<128x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x64xf32>, memref<64x256xf32>) outs(%c : memref<128x256xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %acc, %s : f32
    linalg.yield %r : f32
  }
  return
}

// A multiply-accumulate with a loop only one input indexes (r: a second
// reduction) is not a matrix product the tiles compute: loops, a thread
// per output.
// CHECK-LABEL: func.func @not_a_product
// CHECK: gpu.launch
// CHECK-NOT: workgroup
// CHECK: scf.for
// CHECK: scf.for
// CHECK: return
func.func @not_a_product(%a: memref<64x32x4xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k, r) -> (m, k, r)>,
                                   affine_map<(m, n, k, r) -> (k, n)>,
                                   affine_map<(m, n, k, r) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<64x32x4xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// A dense layer of few rows (8 x 4096 outputs, y[m, n] = sum_k x[m, k] *
// w[n, k]), too few to tile, reads both inputs along k only: a warp per
// output even for many outputs, so that a warp reads rows in order rather
// than a row apart.
// CHECK-LABEL: func.func @dense
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c4096{{(_[0-9]+)?}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c256
// CHECK: arith.divui {{.*}}, %c32
// CHECK: gpu.shuffle xor
func.func @dense(%x: memref<8x64xf32>, %w: memref<4096x64xf32>, %y: memref<8x4096xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<8x64xf32>, memref<4096x64xf32>) outs(%y : memref<8x4096xf32>) {
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

// An op of no loops (a 0-d output) is a load and a store: the whole body
// runs on one thread, not on the host.
// CHECK-LABEL: func.func @zero_dims
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{(_[0-9]+)?}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c1{{(_[0-9]+)?}},
// CHECK-NEXT: memref.load %arg0[]
// CHECK-NEXT: math.exp
// CHECK-NEXT: memref.store {{.*}}, %arg1[]
func.func @zero_dims(%a: memref<f32>, %b: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%a : memref<f32>) outs(%b : memref<f32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// A reduction over the middle dimension (a softmax over channels) has its
// loops reordered, the reduction innermost: a warp per output (4 x 300 of
// them, 150 blocks), not one thread running the parallel loops inside the
// reduction.
// CHECK-LABEL: func.func @middle_reduction
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c150{{(_[0-9]+)?}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c256
// CHECK: arith.remui {{.*}}, %c300_i32
// CHECK: scf.for {{.*}} to %c81
// CHECK: arith.maximumf
// CHECK: gpu.shuffle xor
func.func @middle_reduction(%a: memref<4x81x300xf32>, %m: memref<4x1x300xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, p) -> (n, c, p)>, affine_map<(n, c, p) -> (n, 0, p)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a : memref<4x81x300xf32>) outs(%m : memref<4x1x300xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
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

// Seventeen kernels (the elementwise op, the row sums, the copy, the tiled
// product, the split one and its sum, the ragged one, the max-plus product,
// the multiply-accumulate that is not a product, the dense layer, the short
// rows, the scalar reduction, the op of no loops, the middle reduction, the
// three single-thread bodies), five of one thread, three of a warp per
// output, three tiled products, one reduction moved innermost.
// STATS: dlc-gpu-map-to-threads: async-copied-inputs 0, block-kernels 0, block-loops-on-threads 0, copies-forwarded 0, fused-epilogues 0, fused-inits 0, fused-inputs 0, fused-reductions 0, kernels 17, last-block-sums 0, ldmatrix-inputs 0, reductions-moved-innermost 1, row-kernels 0, single-thread 5, tiled-products 3, vector-loaded-inputs 0, warp-reductions 3
