// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// A convolution as the CPU's lowering leaves it: the input padded (a zero
// fill, the input copied into a window) and unrolled into columns (im2col),
// the output zeroed, the product, then the bias and ReLU into the caller's
// buffer. One kernel computes it all: the columns' elements are read from
// the input where they are staged (their reduction index split into channel
// and kernel row and column in 32-bit arithmetic; outside the window,
// clamped and replaced by zero when they are stored, so that the load a
// step ahead is not waited for), the accumulators start at zero, and each
// result gets its bias and ReLU as it is stored. No buffer but the caller's
// is written.
// CHECK-LABEL: func.func @conv_bias_relu
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: arith.remui %{{.*}}, %c3_i32
// CHECK: %[[ROW:.*]] = arith.subi %{{.*}}, %c1
// CHECK: arith.cmpi ult, %[[ROW]], %c10
// CHECK: %[[COL:.*]] = arith.subi %{{.*}}, %c1
// CHECK: arith.cmpi ult, %[[COL]], %c10
// CHECK: %[[IN:.*]] = arith.andi
// CHECK: %[[X:.*]] = memref.load %arg0
// CHECK: scf.for {{.*}} iter_args({{.*}} = %[[X]], {{.*}} = %[[IN]], {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, i1, f32, i1)
// CHECK: memref.store
// CHECK: memref.store
// CHECK: arith.select %{{.*}}, %{{.*}}, %cst
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK: memref.load %arg0
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.load %arg2
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %arg3
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @conv_bias_relu(%x: memref<1x8x10x10xf32>, %w: memref<16x8x3x3xf32>,
                          %bias: memref<16x1x1xf32>, %y: memref<1x16x10x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<1x8x12x12xf32>
  linalg.map outs(%padded : memref<1x8x12x12xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %window = memref.subview %padded[0, 0, 1, 1] [1, 8, 10, 10] [1, 1, 1, 1]
      : memref<1x8x12x12xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  memref.copy %x, %window : memref<1x8x10x10xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  %cols = memref.alloc() : memref<1x8x3x3x10x10xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, kh, kw, oh, ow) -> (n, c, oh + kh, ow + kw)>,
                                   affine_map<(n, c, kh, kw, oh, ow) -> (n, c, kh, kw, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%padded : memref<1x8x12x12xf32>) outs(%cols : memref<1x8x3x3x10x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %cols2 = memref.collapse_shape %cols [[0], [1, 2, 3], [4, 5]] : memref<1x8x3x3x10x10xf32> into memref<1x72x100xf32>
  %w2 = memref.collapse_shape %w [[0], [1, 2, 3]] : memref<16x8x3x3xf32> into memref<16x72xf32>
  %acc = memref.alloc() : memref<1x16x100xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x16x100xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, o, p, k) -> (o, k)>,
                                   affine_map<(n, o, p, k) -> (n, k, p)>,
                                   affine_map<(n, o, p, k) -> (n, o, p)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w2, %cols2 : memref<16x72xf32>, memref<1x72x100xf32>) outs(%acc : memref<1x16x100xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  %acc4 = memref.expand_shape %acc [[0], [1], [2, 3]] output_shape [1, 16, 10, 10]
      : memref<1x16x100xf32> into memref<1x16x10x10xf32>
  %out = memref.alloc() : memref<1x16x10x10xf32>
  linalg.generic {indexing_maps = [affine_map<(n, o, h, w) -> (n, o, h, w)>,
                                   affine_map<(n, o, h, w) -> (o, 0, 0)>,
                                   affine_map<(n, o, h, w) -> (n, o, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%acc4, %bias : memref<1x16x10x10xf32>, memref<16x1x1xf32>) outs(%out : memref<1x16x10x10xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  // the result copied into the caller's buffer: written there instead
  memref.copy %out, %y : memref<1x16x10x10xf32> to memref<1x16x10x10xf32>
  return
}

// A dense layer whose output is read after its epilogue: the results are
// stored as well as the epilogue's. The bias broadcast gives the initial
// values (loaded from the bias, not from the output).
// CHECK-LABEL: func.func @dense_kept
// CHECK: gpu.launch
// CHECK: memref.load %arg2[
// CHECK: scf.for
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %arg3[
// CHECK: math.tanh
// CHECK: memref.store %{{.*}}, %arg4[
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: memref.load %arg3
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
func.func @dense_kept(%x: memref<32x64xf32>, %w: memref<64x48xf32>, %bias: memref<48xf32>,
                      %y: memref<32x48xf32>, %t: memref<32x48xf32>, %sum: memref<32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<48xf32>) outs(%y : memref<32x48xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  }
  linalg.matmul ins(%x, %w : memref<32x64xf32>, memref<64x48xf32>) outs(%y : memref<32x48xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<32x48xf32>) outs(%t : memref<32x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<32x48xf32>) outs(%sum : memref<32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %o, %v : f32
    linalg.yield %r : f32
  }
  return
}

// Not fused: an epilogue writing a buffer the product reads (other blocks
// would read elements it overwrote), and a copy of a buffer read after it.
// CHECK-LABEL: func.func @not_fused
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: math.tanh
// CHECK: memref.store %{{.*}}, %arg0
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: memref.load %[[TMP:.*]][
// CHECK: memref.store %{{.*}}, %arg4
func.func @not_fused(%x: memref<32x48xf32>, %w: memref<48x48xf32>, %y: memref<32x48xf32>,
                     %z: memref<32x48xf32>, %u: memref<32x48xf32>) {
  linalg.matmul ins(%x, %w : memref<32x48xf32>, memref<48x48xf32>) outs(%y : memref<32x48xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<32x48xf32>) outs(%x : memref<32x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  }
  %tmp = memref.alloc() : memref<32x48xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%z : memref<32x48xf32>) outs(%tmp : memref<32x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  }
  memref.copy %tmp, %u : memref<32x48xf32> to memref<32x48xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp : memref<32x48xf32>) outs(%u : memref<32x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  }
  return
}

// An epilogue of linalg.index (a causal mask on attention scores): its
// indices are the output element's. The transpose of keys freed before the
// product stays a kernel of its own, writing a buffer the product reads.
// CHECK-LABEL: func.func @masked_scores
// CHECK: gpu.launch
// CHECK: math.exp
// CHECK: gpu.terminator
// CHECK: %[[KT:.*]] = memref.alloc() : memref<64x32xf32>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[KT]][
// CHECK: gpu.terminator
// CHECK: memref.dealloc
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: memref.load %[[KT]]
// CHECK: scf.if
// CHECK: arith.cmpi ugt
// CHECK: arith.select
// CHECK: memref.store %{{.*}}, %arg2
// CHECK-NOT: gpu.launch
func.func @masked_scores(%q: memref<32x64xf32>, %k: memref<32x64xf32>, %s: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  %e = memref.alloc() : memref<32x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%k : memref<32x64xf32>) outs(%e : memref<32x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %x = math.exp %v : f32
    linalg.yield %x : f32
  }
  %kt = memref.alloc() : memref<64x32xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%e : memref<32x64xf32>) outs(%kt : memref<64x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  memref.dealloc %e : memref<32x64xf32>
  %acc = memref.alloc() : memref<32x32xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<32x32xf32>)
  linalg.matmul ins(%q, %kt : memref<32x64xf32>, memref<64x32xf32>) outs(%acc : memref<32x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<32x32xf32>) outs(%s : memref<32x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %future = arith.cmpi ugt, %j, %i : index
    %r = arith.select %future, %ninf, %v : f32
    linalg.yield %r : f32
  }
  return
}

// Copies that stay: into a buffer read while the source is written (the
// reads would see the new values), and out of a buffer freed through a view
// (the destination would be freed).
// CHECK-LABEL: func.func @copies_kept
// CHECK: %[[A:.*]] = memref.alloc() : memref<64xf32>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: gpu.launch
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.*}}, %arg1
// CHECK: %[[B:.*]] = memref.alloc() : memref<64xf32>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK: gpu.launch
// CHECK: memref.load %[[B]]
// CHECK: memref.store %{{.*}}, %arg2
// CHECK-NOT: gpu.launch
func.func @copies_kept(%x: memref<64xf32>, %y: memref<64xf32>, %z: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%y : memref<64xf32>) outs(%a : memref<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  }
  memref.copy %a, %y : memref<64xf32> to memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<64xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  }
  memref.copy %b, %z : memref<64xf32> to memref<64xf32>
  %view = memref.cast %b : memref<64xf32> to memref<?xf32>
  memref.dealloc %view : memref<?xf32>
  return
}

// Fifteen kernels: the convolution's, the dense layer's and its row sums',
// five in @not_fused (the product, the two elementwise ops, the copy and
// the sum), three in @masked_scores (the exponential, the transpose, the
// product) and four in @copies_kept (two ops, two copies).
// STATS: dlc-gpu-map-to-threads: async-copied-inputs 0, block-kernels 0, block-loops-on-threads 0, copies-forwarded 2, fused-epilogues 6, fused-inits 6, fused-inputs 2, fused-reductions 0, kernels 20, last-block-sums 0, ldmatrix-inputs 0, reductions-moved-innermost 0, row-kernels 0, single-thread 0, tiled-products 7, vector-loaded-inputs 0, warp-reductions 1

// A chain of epilogues: the product's results through a tanh into a buffer
// of the function's own, then transposed into the caller's; each op reads
// the one buffer the one before writes, element for element. One kernel
// computes all three and stores only the transposed results.
// CHECK-LABEL: func.func @epilogue_chain
// CHECK: gpu.launch
// CHECK-NOT: memref.store {{.*}} : memref<32x48xf32>
// CHECK: math.tanh
// CHECK-NOT: memref.store {{.*}} : memref<32x48xf32>
// CHECK: memref.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}] : memref<48x32xf32>
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @epilogue_chain(%x: memref<32x64xf32>, %w: memref<64x48xf32>, %out: memref<48x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<32x48xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<32x48xf32>)
  linalg.matmul ins(%x, %w : memref<32x64xf32>, memref<64x48xf32>) outs(%y : memref<32x48xf32>)
  %t = memref.alloc() : memref<32x48xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<32x48xf32>) outs(%t : memref<32x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  }
  linalg.transpose ins(%t : memref<32x48xf32>) outs(%out : memref<48x32xf32>) permutation = [1, 0]
  return
}

// The chain stops at an op reading the product's output too (elements
// other threads compute): the tanh is the kernel's one epilogue, its
// results stored, and the sum a kernel of its own.
// CHECK-LABEL: func.func @epilogue_chain_cut
// CHECK: gpu.launch
// CHECK: math.tanh
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x48xf32>
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}} : memref<32x48xf32>
// CHECK: memref.load %{{.*}} : memref<32x48xf32>
// CHECK: arith.addf
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @epilogue_chain_cut(%x: memref<32x64xf32>, %w: memref<64x48xf32>, %out: memref<48x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<32x48xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<32x48xf32>)
  linalg.matmul ins(%x, %w : memref<32x64xf32>, memref<64x48xf32>) outs(%y : memref<32x48xf32>)
  %t = memref.alloc() : memref<32x48xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<32x48xf32>) outs(%t : memref<32x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (31 - j, i)>,
                                   affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t, %y : memref<32x48xf32>, memref<32x48xf32>) outs(%out : memref<48x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// The product's output a reshape of the caller's buffer (its copy into it
// forwarded), which the transpose reads through the reshape back: the two
// reshapes fold before fusions are looked for, the transpose then reads
// the caller's buffer itself and runs as a kernel of its own after the
// product's (folded after the product's fusion was found, the pair lost
// the epilogue's indices).
// CHECK-LABEL: func.func @epilogue_through_reshapes
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %arg2
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[FLAT]][%{{.*}}, %{{.*}}] : memref<128x128xf32>
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: memref.load %arg2[%{{.*}}, %{{.*}}, %{{.*}}] : memref<128x2x64xf32>
// CHECK: memref.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x128x64xf32>
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @epilogue_through_reshapes(%x: memref<128x128xf32>, %w: memref<128x128xf32>,
                                     %heads: memref<128x2x64xf32>, %r: memref<2x128x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %flat = memref.collapse_shape %heads [[0], [1, 2]] : memref<128x2x64xf32> into memref<128x128xf32>
  %t = memref.alloc() : memref<128x128xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<128x128xf32>)
  linalg.matmul ins(%x, %w : memref<128x128xf32>, memref<128x128xf32>) outs(%t : memref<128x128xf32>)
  %e = memref.expand_shape %t [[0], [1, 2]] output_shape [128, 2, 64]
      : memref<128x128xf32> into memref<128x2x64xf32>
  linalg.transpose ins(%e : memref<128x2x64xf32>) outs(%r : memref<2x128x64xf32>) permutation = [1, 0, 2]
  memref.copy %t, %flat : memref<128x128xf32> to memref<128x128xf32>
  return
}
