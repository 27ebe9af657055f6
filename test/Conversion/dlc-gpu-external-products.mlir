// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-gpu-external-products)" 2>/dev/null | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-gpu-external-products)" 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-gpu-external-products{tf32=true})" 2>/dev/null | FileCheck %s --check-prefix=TF32
// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-gpu-external-products)" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// STATS: dlc-gpu-external-products: kept 2, products 5

#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#o = affine_map<(m, n, k) -> (m, n)>

// A dense of a cublas partition's kernel: the views [batch, rows, columns]
// of its buffers (the weight read as its transpose, [1, 16, 32] with
// strides [0, 1, 16]), the fill with zeros replaced by the call's beta = 0
// (flags 0; with tf32, 2).
// CHECK-LABEL: func.func private @dense
// CHECK-NOT: linalg
// CHECK: %[[X:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [1, 4, 16], strides: [0, 16, 1]
// CHECK: %[[XD:.*]] = memref.cast %[[X]] : memref<1x4x16xf32, strided<[0, 16, 1]>> to memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
// CHECK: %[[W:.*]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [1, 16, 32], strides: [0, 1, 16]
// CHECK: %[[WD:.*]] = memref.cast %[[W]]
// CHECK: %[[O:.*]] = memref.reinterpret_cast %arg2 to offset: [0], sizes: [1, 4, 32], strides: [0, 32, 1]
// CHECK: %[[OD:.*]] = memref.cast %[[O]]
// CHECK: %[[FLAGS:.*]] = arith.constant 0 : i32
// CHECK: call @dlc_cublas_gemm_f32_f32(%[[XD]], %[[WD]], %[[OD]], %[[FLAGS]])
// TF32-LABEL: func.func private @dense
// TF32: arith.constant 2 : i32
func.func private @dense(%x: memref<4x16xf32>, %w: memref<32x16xf32>, %out: memref<4x32xf32>)
    attributes {dlc.kernel = "graph.dense", dlc.backend = "cublas"} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<4x32xf32>)
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x16xf32>, memref<32x16xf32>) outs(%out : memref<4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// A batch of sequences (rows: batch and sequence, one strided dimension),
// f16 inputs accumulated in f32 outputs after their bias (flags 1: C += A B);
// the bias stays a loop of dlc's.
// CHECK-LABEL: func.func private @sequences
// CHECK: linalg.generic
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [1, 16, 8], strides: [0, 8, 1]
// CHECK: memref.reinterpret_cast %arg1 to offset: [0], sizes: [1, 8, 32], strides: [0, 1, 8]
// CHECK: memref.reinterpret_cast %arg3 to offset: [0], sizes: [1, 16, 32], strides: [0, 32, 1]
// CHECK: %[[ACC:.*]] = arith.constant 1 : i32
// CHECK: call @dlc_cublas_gemm_f16_f32({{.*}}, %[[ACC]])
func.func private @sequences(%x: memref<2x8x8xf16>, %w: memref<32x8xf16>, %bias: memref<32xf32>,
                             %out: memref<2x8x32xf32>)
    attributes {dlc.kernel = "graph.dense", dlc.backend = "cublas"} {
  linalg.generic {indexing_maps = [affine_map<(b, s, n) -> (n)>, affine_map<(b, s, n) -> (b, s, n)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<32xf32>) outs(%out : memref<2x8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [affine_map<(b, s, n, k) -> (b, s, k)>,
                                   affine_map<(b, s, n, k) -> (n, k)>,
                                   affine_map<(b, s, n, k) -> (b, s, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<2x8x8xf16>, memref<32x8xf16>) outs(%out : memref<2x8x32xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %ea = arith.extf %a : f16 to f32
    %eb = arith.extf %b : f16 to f32
    %p = arith.mulf %ea, %eb : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// Mixed precision: the product of f32 copies of f16 inputs, zeros to
// start with, narrowed to f16 after: the call reads and writes the f16
// buffers, and the copies, the fill and the narrowing go.
// CHECK-LABEL: func.func private @mixed
// CHECK-NOT: linalg
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [1, 4, 16], strides: [0, 16, 1] : memref<4x16xf16>
// CHECK: memref.reinterpret_cast %arg1 to offset: [0], sizes: [1, 16, 32], strides: [0, 1, 16] : memref<32x16xf16>
// CHECK: memref.reinterpret_cast %arg2 to offset: [0], sizes: [1, 4, 32], strides: [0, 32, 1] : memref<4x32xf16>
// CHECK: call @dlc_cublas_gemm_f16_f16
// CHECK-NOT: linalg
// CHECK: return
func.func private @mixed(%x: memref<4x16xf16>, %w: memref<32x16xf16>, %out: memref<4x32xf16>)
    attributes {dlc.kernel = "graph.dense", dlc.backend = "cublas"} {
  %xw = memref.alloc() : memref<4x16xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x16xf16>) outs(%xw : memref<4x16xf32>) {
  ^bb0(%v: f16, %o: f32):
    %e = arith.extf %v : f16 to f32
    linalg.yield %e : f32
  }
  %ww = memref.alloc() : memref<32x16xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<32x16xf16>) outs(%ww : memref<32x16xf32>) {
  ^bb0(%v: f16, %o: f32):
    %e = arith.extf %v : f16 to f32
    linalg.yield %e : f32
  }
  %acc = memref.alloc() : memref<4x32xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%acc : memref<4x32xf32>)
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xw, %ww : memref<4x16xf32>, memref<32x16xf32>) outs(%acc : memref<4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<4x32xf32>) outs(%out : memref<4x32xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// The same with a bias, which the narrow output then starts from (the
// call adds to it, flags 1).
// CHECK-LABEL: func.func private @mixed_bias
// CHECK: linalg.generic {{.*}} ins(%arg2 : memref<32xf16>) outs(%arg3 : memref<4x32xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: linalg.yield %[[IN]] : f16
// CHECK: %[[ACC:.*]] = arith.constant 1 : i32
// CHECK: call @dlc_cublas_gemm_f16_f16({{.*}}, %[[ACC]])
// CHECK-NOT: linalg
// CHECK: return
func.func private @mixed_bias(%x: memref<4x16xf16>, %w: memref<32x16xf16>, %bias: memref<32xf16>,
                              %out: memref<4x32xf16>)
    attributes {dlc.kernel = "graph.dense", dlc.backend = "cublas"} {
  %xw = memref.alloc() : memref<4x16xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x16xf16>) outs(%xw : memref<4x16xf32>) {
  ^bb0(%v: f16, %o: f32):
    %e = arith.extf %v : f16 to f32
    linalg.yield %e : f32
  }
  %ww = memref.alloc() : memref<32x16xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<32x16xf16>) outs(%ww : memref<32x16xf32>) {
  ^bb0(%v: f16, %o: f32):
    %e = arith.extf %v : f16 to f32
    linalg.yield %e : f32
  }
  %acc = memref.alloc() : memref<4x32xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<32xf16>) outs(%acc : memref<4x32xf32>) {
  ^bb0(%v: f16, %o: f32):
    %e = arith.extf %v : f16 to f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xw, %ww : memref<4x16xf32>, memref<32x16xf32>) outs(%acc : memref<4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<4x32xf32>) outs(%out : memref<4x32xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// Batched, the batch one strided dimension in every operand.
// CHECK-LABEL: func.func private @batched
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [3, 4, 8], strides: [32, 8, 1]
// CHECK: call @dlc_cublas_gemm_f32_f32
func.func private @batched(%l: memref<3x4x8xf32>, %r: memref<3x8x5xf32>, %out: memref<3x4x5xf32>)
    attributes {dlc.kernel = "graph.batch_matmul", dlc.backend = "cublas"} {
  linalg.batch_matmul ins(%l, %r : memref<3x4x8xf32>, memref<3x8x5xf32>)
                      outs(%out : memref<3x4x5xf32>)
  return
}

// Kept as dlc's own kernels, with a warning: an operand whose columns are
// two elements apart (neither dimension contiguous), and integers.
// CHECK-LABEL: func.func private @strided
// WARN: warning: dlc-gpu-external-products: this product stays dlc's own kernel: an operand has neither its rows nor its columns contiguous
// CHECK: linalg.generic
func.func private @strided(%x: memref<4x16xf32, strided<[32, 2]>>, %w: memref<32x16xf32>,
                           %out: memref<4x32xf32>)
    attributes {dlc.kernel = "graph.dense", dlc.backend = "cublas"} {
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x16xf32, strided<[32, 2]>>, memref<32x16xf32>) outs(%out : memref<4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func private @integers
// WARN: warning: dlc-gpu-external-products: this product stays dlc's own kernel: not a matrix product
// CHECK: linalg.matmul
func.func private @integers(%a: memref<4x8xi32>, %b: memref<8x4xi32>, %out: memref<4x4xi32>)
    attributes {dlc.kernel = "graph.matmul", dlc.backend = "cublas"} {
  linalg.matmul ins(%a, %b : memref<4x8xi32>, memref<8x4xi32>) outs(%out : memref<4x4xi32>)
  return
}

// A kernel of no partition: dlc's own.
// CHECK-LABEL: func.func private @own
// CHECK: linalg.matmul
func.func private @own(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %out: memref<4x4xf32>)
    attributes {dlc.kernel = "graph.matmul"} {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%out : memref<4x4xf32>)
  return
}

// CHECK: func.func private @dlc_cublas_gemm_f32_f32(memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, i32) attributes {llvm.emit_c_interface}
// CHECK: func.func private @dlc_cublas_gemm_f16_f32(
// CHECK: func.func private @dlc_cublas_gemm_f16_f16(
