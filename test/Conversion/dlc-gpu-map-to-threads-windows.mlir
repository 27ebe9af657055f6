// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" -split-input-file | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" -split-input-file --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// The counters, over the four functions below: three window reductions
// (a kernel each, but the in-place transpose's second) and one product;
// the depthwise convolution's and the product's epilogues fused, and the
// initial values of all but the transposed case.
// STATS: copies-forwarded 0, fused-epilogues 2, fused-inits 3, fused-inputs 2, fused-reductions 0, kernels 5,
// STATS-SAME: tiled-products 1, vector-loaded-inputs 0, warp-reductions 0, window-reductions 3

// A depthwise convolution as the CPU's lowering leaves it: the input padded
// (a zero fill, the input copied into a window), the output zeroed, the
// window reduction, then the bias and ReLU6 updating its output in place.
// One kernel computes it all, a thread per output element: consecutive
// threads on consecutive columns (the thread's index split by 10 first),
// the 3x3 window's loops in the thread with the sum in a register from
// zero, the input read through the padding (clamped and replaced by zero
// outside), the bias and ReLU6 applied before the one store. No buffer is
// allocated.
// CHECK-LABEL: func.func @depthwise_bias_relu6
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c4{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c256
// CHECK-SAME: function(@k_features_1_conv_0)
// CHECK: %[[LIN32:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: arith.remui %[[LIN32]], %c10_i32
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO:.*]]) -> (f32)
// CHECK: scf.for
// CHECK: arith.subi %{{.*}}, %c1
// CHECK: arith.cmpi ult, %{{.*}}, %c10
// CHECK: %[[IN:.*]] = arith.andi
// CHECK: %[[X:.*]] = memref.load %arg0
// CHECK: arith.select %[[IN]], %[[X]], %[[ZERO]] : f32
// CHECK: memref.load %arg1
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.load %arg2
// CHECK: arith.addf %[[SUM]]
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK-NOT: memref.store
// CHECK: memref.store %{{.*}}, %arg3
// CHECK-NOT: memref.store
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @depthwise_bias_relu6(%x: memref<1x8x10x10xf32>, %w: memref<8x3x3xf32>,
                                %bias: memref<8x1x1xf32>, %y: memref<1x8x10x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %padded = memref.alloc() : memref<1x8x12x12xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x8x12x12xf32>)
  %window = memref.subview %padded[0, 0, 1, 1] [1, 8, 10, 10] [1, 1, 1, 1]
      : memref<1x8x12x12xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  memref.copy %x, %window : memref<1x8x10x10xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x10x10xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>,
                                     strides = dense<1> : vector<2xi64>}
      ins(%padded, %w : memref<1x8x12x12xf32>, memref<8x3x3xf32>)
      outs(%y : memref<1x8x10x10xf32>) loc("features.1.conv.0")
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c, 0, 0)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : memref<8x1x1xf32>) outs(%y : memref<1x8x10x10xf32>) {
  ^bb0(%b: f32, %acc: f32):
    %s = arith.addf %acc, %b : f32
    %lo = arith.maximumf %s, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  memref.dealloc %padded : memref<1x8x12x12xf32>
  return
}

// -----

// A max pooling of stride 2 padded with -inf (ResNet's first): one kernel,
// the maximum from -inf over the window, read through the padding; the
// window's shape operand is not read.
// CHECK: #[[ROWS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d2 * 2 + d4)>
// CHECK-LABEL: func.func @max_pool
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[NEGINF:.*]]) -> (f32)
// CHECK: affine.apply #[[ROWS]]
// CHECK: memref.load %arg0
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[NEGINF]] : f32
// CHECK: arith.maximumf
// CHECK-NOT: memref.load
// CHECK: memref.store %{{.*}}, %arg1
// CHECK-NOT: gpu.launch
func.func @max_pool(%x: memref<1x4x8x8xf32>, %y: memref<1x4x4x4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %padded = memref.alloc() : memref<1x4x10x10xf32>
  linalg.fill ins(%ninf : f32) outs(%padded : memref<1x4x10x10xf32>)
  %window = memref.subview %padded[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1]
      : memref<1x4x10x10xf32> to memref<1x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>
  memref.copy %x, %window : memref<1x4x8x8xf32> to memref<1x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>
  %shape = memref.alloc() : memref<3x3xf32>
  linalg.fill ins(%ninf : f32) outs(%y : memref<1x4x4x4xf32>)
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%padded, %shape : memref<1x4x10x10xf32>, memref<3x3xf32>)
      outs(%y : memref<1x4x4x4xf32>)
  return
}

// -----

// An op after the window reduction writing its output in place at other
// elements (a transpose) would race with the threads still reading them:
// it stays a kernel of its own. The output's initial values are loaded
// (no fill before it).
// CHECK-LABEL: func.func @in_place_elsewhere
// CHECK: gpu.launch
// CHECK: memref.load %arg2[
// CHECK: scf.for
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
func.func @in_place_elsewhere(%x: memref<1x4x10x10xf32>, %w: memref<4x3x3xf32>,
                              %y: memref<1x4x8x8xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>,
                                     strides = dense<1> : vector<2xi64>}
      ins(%x, %w : memref<1x4x10x10xf32>, memref<4x3x3xf32>)
      outs(%y : memref<1x4x8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, w, h)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x4x8x8xf32>) outs(%y : memref<1x4x8x8xf32>) {
  ^bb0(%t: f32, %acc: f32):
    linalg.yield %t : f32
  }
  return
}

// -----

// A dense layer's product and its GELU-like activation updating the
// product's output in place: the tiled kernel applies it and stores once.
// CHECK-LABEL: func.func @product_in_place_epilogue
// CHECK: gpu.launch
// CHECK: %[[R:.*]]:8 = scf.for
// CHECK: scf.if
// CHECK-NEXT: %[[T:.*]] = math.tanh %[[R]]#0
// CHECK-NEXT: %[[G:.*]] = arith.mulf %[[R]]#0, %[[T]]
// CHECK-NEXT: memref.store %[[G]], %arg2
// CHECK-NEXT: }
// CHECK-NOT: gpu.launch
func.func @product_in_place_epilogue(%a: memref<64x32xf32>, %b: memref<32x64xf32>,
                                     %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<64x64xf32>) {
  ^bb0(%v: f32):
    %t = math.tanh %v : f32
    %r = arith.mulf %v, %t : f32
    linalg.yield %r : f32
  }
  return
}
