// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true tile-depth=16}))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true}))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" | FileCheck %s --check-prefix=F32
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true}))" | FileCheck %s --check-prefix=DEPTH32

// Products of f16 values, as a mixed-precision graph lowers them: each
// input widened to f32 (arith.extf) into a buffer of its own, then the f32
// product. The kernel reads the f16 inputs through the conversions, carries
// the elements it loads a step ahead as f16 and stages them in pairs of
// reduction steps (the first in the low half of a 32-bit word): A, along
// the reduction, row-major (rows of 8 words padded by 4), B pair-major (8
// rows of 64 words padded by 8), so that a warp's stores and fragment
// loads fall in different banks. Then, on tensor cores, per step of 16: one
// A fragment (4 words a lane) and, per 8-column tile, a B fragment (2
// words) and an mma.sync m16n8k16 on f16 with f32 accumulators. Each of
// the 8 warps computes 16 rows by 32 columns of the 64 x 64 tile: 4 mma a
// step.
// CHECK-LABEL: func.func @f16_product
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch {{.*}} workgroup(%[[LHS:.*]] : memref<64x12xi32, #gpu.address_space<workgroup>>, %[[RHS:.*]] : memref<8x72xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.load %arg0{{.*}} : memref<512x64xf16>
// CHECK: memref.load %arg1{{.*}} : memref<64x1024xf16>
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f16, f16, f16, f16, f16, f16, f16, f16)
// CHECK: %[[HIGH:.*]] = arith.shli %{{.*}}, %c16_i32 : i32
// CHECK: %[[LOW:.*]] = arith.bitcast %{{.*}} : f16 to i16
// CHECK: %[[WIDE:.*]] = arith.extui %[[LOW]] : i16 to i32
// CHECK: %[[WORD:.*]] = arith.ori %[[WIDE]], %[[HIGH]] : i32
// CHECK: memref.store %[[WORD]], %[[LHS]]
// CHECK: gpu.barrier
// CHECK: %[[A:.*]] = memref.load %[[LHS]]
// CHECK: llvm.bitcast %[[A]] : i32 to vector<2xf16>
// CHECK-COUNT-4: nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}] B[{{.*}}, {{.*}}] C[{{.*}}, {{.*}}, {{.*}}, {{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK-COUNT-16: scf.if
// Products of narrow values stage 32 reduction elements a step unless
// tile-depth says otherwise (the checks above: 16): A's rows of 16
// words (padded by 4), B's 16 rows of pairs, 16 f16 values carried, the
// loop stepping by 32, and two k16 slices a step: 8 mma, the second
// slice's fragments 8 pairs on.
// DEPTH32-LABEL: func.func @f16_product
// DEPTH32: gpu.launch {{.*}} workgroup(%{{.*}} : memref<64x20xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x72xi32, #gpu.address_space<workgroup>>)
// DEPTH32: scf.for {{.*}} step %c32{{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16)
// DEPTH32: gpu.barrier
// DEPTH32-COUNT-4: nvvm.mma.sync
// DEPTH32: arith.addi %{{.*}}, %c8
// DEPTH32-COUNT-4: nvvm.mma.sync
// DEPTH32-NOT: nvvm.mma.sync
// DEPTH32: gpu.barrier
// Without narrow-mma (sm_75), the same kernel reads through the
// conversions and multiplies in f32 on each thread.
// F32-LABEL: func.func @f16_product
// F32-NOT: memref.alloc
// F32: gpu.launch {{.*}} workgroup(%{{.*}} : memref<16x65xf32, #gpu.address_space<workgroup>>
// F32: memref.load %arg0{{.*}} : memref<512x64xf16>
// F32: arith.extf
// F32-NOT: nvvm.mma.sync
// F32: math.fma
func.func @f16_product(%a: memref<512x64xf16>, %b: memref<64x1024xf16>,
                       %c: memref<512x1024xf32>) {
  %wa = memref.alloc() : memref<512x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<512x64xf16>) outs(%wa : memref<512x64xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %wb = memref.alloc() : memref<64x1024xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<64x1024xf16>) outs(%wb : memref<64x1024xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  linalg.matmul ins(%wa, %wb : memref<512x64xf32>, memref<64x1024xf32>)
                outs(%c : memref<512x1024xf32>)
  memref.dealloc %wa : memref<512x64xf32>
  memref.dealloc %wb : memref<64x1024xf32>
  return
}

// bf16 pairs go to the tensor cores as 32-bit words.
// CHECK-LABEL: func.func @bf16_product
// CHECK: gpu.launch
// CHECK-NOT: llvm.bitcast
// CHECK: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @bf16_product(%a: memref<128x64xbf16>, %b: memref<64x128xbf16>,
                        %c: memref<128x128xf32>) {
  %wa = memref.alloc() : memref<128x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<128x64xbf16>) outs(%wa : memref<128x64xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %e = arith.extf %in : bf16 to f32
    linalg.yield %e : f32
  }
  %wb = memref.alloc() : memref<64x128xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<64x128xbf16>) outs(%wb : memref<64x128xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %e = arith.extf %in : bf16 to f32
    linalg.yield %e : f32
  }
  linalg.matmul ins(%wa, %wb : memref<128x64xf32>, memref<64x128xf32>)
                outs(%c : memref<128x128xf32>)
  return
}

// A convolution of f16 values padded with zero (an f16 value): the padded
// input's elements are the conversion's, read through the padding and the
// im2col; the pad value, converted, replaces those outside the window when
// they are stored. The ragged reduction (72 = 4 steps of 16 and 8) stages
// f16 zeros past its end.
// CHECK-LABEL: func.func @f16_conv
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch {{.*}} workgroup({{.*}} : memref<32x12xi32, #gpu.address_space<workgroup>>
// CHECK: memref.load %arg0{{.*}} : memref<1x8x10x10xf16>
// CHECK: scf.for
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f16
// CHECK: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// Padded with a value no f16 holds, it stays in f32.
// CHECK-LABEL: func.func @f16_conv_inexact_padding
// CHECK-NOT: nvvm.mma.sync
// CHECK: return
func.func @f16_conv(%x: memref<1x8x10x10xf16>, %w: memref<32x72xf16>,
                   %y: memref<1x32x100xf32>) {
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant 0.0 : f32
  %wide = memref.alloc() : memref<1x8x10x10xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x8x10x10xf16>) outs(%wide : memref<1x8x10x10xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %padded = memref.alloc() : memref<1x8x12x12xf32>
  linalg.map outs(%padded : memref<1x8x12x12xf32>)
    (%init: f32) {
      linalg.yield %pad : f32
    }
  %window = memref.subview %padded[0, 0, 1, 1] [1, 8, 10, 10] [1, 1, 1, 1]
      : memref<1x8x12x12xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  memref.copy %wide, %window : memref<1x8x10x10xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  %cols = memref.alloc() : memref<1x8x3x3x10x10xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, kh, kw, oh, ow) -> (n, c, oh + kh, ow + kw)>,
                                   affine_map<(n, c, kh, kw, oh, ow) -> (n, c, kh, kw, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%padded : memref<1x8x12x12xf32>) outs(%cols : memref<1x8x3x3x10x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %cols2 = memref.collapse_shape %cols [[0], [1, 2, 3], [4, 5]] : memref<1x8x3x3x10x10xf32> into memref<1x72x100xf32>
  %ww = memref.alloc() : memref<32x72xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<32x72xf16>) outs(%ww : memref<32x72xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<1x32x100xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, o, p, k) -> (o, k)>,
                                   affine_map<(n, o, p, k) -> (n, k, p)>,
                                   affine_map<(n, o, p, k) -> (n, o, p)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ww, %cols2 : memref<32x72xf32>, memref<1x72x100xf32>) outs(%y : memref<1x32x100xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @f16_conv_inexact_padding(%x: memref<1x8x10x10xf16>, %w: memref<32x72xf16>,
                                   %y: memref<1x32x100xf32>) {
  %pad = arith.constant 1.0e-30 : f32
  %zero = arith.constant 0.0 : f32
  %wide = memref.alloc() : memref<1x8x10x10xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x8x10x10xf16>) outs(%wide : memref<1x8x10x10xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %padded = memref.alloc() : memref<1x8x12x12xf32>
  linalg.map outs(%padded : memref<1x8x12x12xf32>)
    (%init: f32) {
      linalg.yield %pad : f32
    }
  %window = memref.subview %padded[0, 0, 1, 1] [1, 8, 10, 10] [1, 1, 1, 1]
      : memref<1x8x12x12xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  memref.copy %wide, %window : memref<1x8x10x10xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  %cols = memref.alloc() : memref<1x8x3x3x10x10xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, kh, kw, oh, ow) -> (n, c, oh + kh, ow + kw)>,
                                   affine_map<(n, c, kh, kw, oh, ow) -> (n, c, kh, kw, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%padded : memref<1x8x12x12xf32>) outs(%cols : memref<1x8x3x3x10x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %cols2 = memref.collapse_shape %cols [[0], [1, 2, 3], [4, 5]] : memref<1x8x3x3x10x10xf32> into memref<1x72x100xf32>
  %ww = memref.alloc() : memref<32x72xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<32x72xf16>) outs(%ww : memref<32x72xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<1x32x100xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, o, p, k) -> (o, k)>,
                                   affine_map<(n, o, p, k) -> (n, k, p)>,
                                   affine_map<(n, o, p, k) -> (n, o, p)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ww, %cols2 : memref<32x72xf32>, memref<1x72x100xf32>) outs(%y : memref<1x32x100xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}

// Padded in f16 before the widening: the padding's value, deferred through
// the conversion, is widened with it (then narrowed again, exactly, when
// the element is staged). The same without narrow-mma, in f32.
// CHECK-LABEL: func.func @f16_padded_then_widened
// CHECK-NOT: memref.alloc
// CHECK: %[[PAD:.*]] = arith.extf %cst{{.*}} : f16 to f32
// CHECK: scf.for
// CHECK: arith.truncf %[[PAD]] : f32 to f16
// CHECK: nvvm.mma.sync
// F32-LABEL: func.func @f16_padded_then_widened
// F32-NOT: nvvm.mma.sync
// F32: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// F32: math.fma
func.func @f16_padded_then_widened(%x: memref<1x8x10x10xf16>, %w16: memref<32x72xf16>,
                                   %y: memref<1x32x100xf32>) {
  %zero16 = arith.constant 0.0 : f16
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<1x8x12x12xf16>
  linalg.map outs(%padded : memref<1x8x12x12xf16>)
    (%init: f16) {
      linalg.yield %zero16 : f16
    }
  %window = memref.subview %padded[0, 0, 1, 1] [1, 8, 10, 10] [1, 1, 1, 1]
      : memref<1x8x12x12xf16> to memref<1x8x10x10xf16, strided<[1152, 144, 12, 1], offset: 13>>
  memref.copy %x, %window : memref<1x8x10x10xf16> to memref<1x8x10x10xf16, strided<[1152, 144, 12, 1], offset: 13>>
  %wide = memref.alloc() : memref<1x8x12x12xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%padded : memref<1x8x12x12xf16>) outs(%wide : memref<1x8x12x12xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %cols = memref.alloc() : memref<1x8x3x3x10x10xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, kh, kw, oh, ow) -> (n, c, oh + kh, ow + kw)>,
                                   affine_map<(n, c, kh, kw, oh, ow) -> (n, c, kh, kw, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%wide : memref<1x8x12x12xf32>) outs(%cols : memref<1x8x3x3x10x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %cols2 = memref.collapse_shape %cols [[0], [1, 2, 3], [4, 5]] : memref<1x8x3x3x10x10xf32> into memref<1x72x100xf32>
  %w = memref.alloc() : memref<32x72xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w16 : memref<32x72xf16>) outs(%w : memref<32x72xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<1x32x100xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, o, p, k) -> (o, k)>,
                                   affine_map<(n, o, p, k) -> (n, k, p)>,
                                   affine_map<(n, o, p, k) -> (n, o, p)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %cols2 : memref<32x72xf32>, memref<1x72x100xf32>) outs(%y : memref<1x32x100xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}

// Bufferization reused the caller's buffer for the widened input, which
// the epilogue then overwrites: the input is still read through (its
// widened values are never seen), and the epilogue, which writes a buffer
// the kernel no longer reads, runs in it. One kernel.
// CHECK-LABEL: func.func @reused_argument
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: memref.load %arg0{{.*}} : memref<64x64xf16>
// CHECK: nvvm.mma.sync
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %arg2
// CHECK: return
// An epilogue that reads the buffer as well: the widening keeps its kernel.
// CHECK-LABEL: func.func @argument_read_after
// CHECK: gpu.launch
// CHECK: arith.extf
// CHECK: memref.store %{{.*}}, %arg2
// CHECK: gpu.launch
// CHECK: return
func.func @reused_argument(%a: memref<64x64xf16>, %w: memref<64x64xf16>,
                          %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x64xf16>) outs(%out : memref<64x64xf32>) {
  ^bb0(%in: f16, %o: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %ww = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<64x64xf16>) outs(%ww : memref<64x64xf32>) {
  ^bb0(%in: f16, %o: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %acc = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32>)
  linalg.matmul ins(%out, %ww : memref<64x64xf32>, memref<64x64xf32>)
                outs(%acc : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}
func.func @argument_read_after(%a: memref<64x64xf16>, %w: memref<64x64xf16>,
                              %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x64xf16>) outs(%out : memref<64x64xf32>) {
  ^bb0(%in: f16, %o: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %ww = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<64x64xf16>) outs(%ww : memref<64x64xf32>) {
  ^bb0(%in: f16, %o: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %acc = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32>)
  linalg.matmul ins(%out, %ww : memref<64x64xf32>, memref<64x64xf32>)
                outs(%acc : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%acc, %out : memref<64x64xf32>, memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32, %unused: f32):
    %r = arith.maximumf %x, %zero : f32
    %s = arith.addf %r, %o : f32
    linalg.yield %s : f32
  }
  return
}

// STATS: dlc-gpu-map-to-threads
// STATS-DAG: fused-inputs{{ +}}19
// STATS-DAG: tiled-products{{ +}}7
