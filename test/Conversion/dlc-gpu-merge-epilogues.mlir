// RUN: dlc-opt %s --dlc-gpu-merge-epilogues | FileCheck %s
// RUN: dlc-opt %s --dlc-gpu-merge-epilogues --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-gpu-merge-epilogues, func.func(dlc-gpu-map-to-threads))" | FileCheck %s --check-prefix=LAUNCH

#x = affine_map<(b, m, n, k) -> (b, m, k)>
#w = affine_map<(b, m, n, k) -> (n, k)>
#o = affine_map<(b, m, n, k) -> (b, m, n)>
#bias = affine_map<(b, m, n) -> (n)>
#id3 = affine_map<(b, m, n) -> (b, m, n)>
#rows = affine_map<(b, m, n) -> (b, m)>

// BERT's query dense as bufferization leaves FuseOps' groups: the dense
// (bias, product) writes a buffer of its own copied into its caller's, and
// the heads' permute (a group of its own: FuseOps fuses no transpose into a
// product's group) reads it through a reshape. The two calls become one of
// a new function running both bodies; the buffer between them is its own
// (the caller's allocation goes), the copies are forwarded, and the
// transpose is the product's epilogue.
// CHECK-LABEL: func.func private @dense_epilogue(
// CHECK-SAME: %[[X:.*]]: memref<1x128x128xf32>, %[[W:.*]]: memref<128x128xf32>, %[[B:.*]]: memref<128xf32>, %[[R:.*]]: memref<2x128x64xf32>)
// CHECK-SAME: attributes {dlc.distinct_arguments, dlc.kernel = "out_elemwise_fusable"}
// CHECK: %[[Q:.*]] = memref.alloc() : memref<1x128x128xf32>
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[B]] : memref<128xf32>) outs(%[[Q]] :
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[Q]] :
// CHECK: %[[HEADS:.*]] = memref.expand_shape %[[R]]
// CHECK: %[[E:.*]] = memref.expand_shape %[[Q]]
// CHECK: linalg.transpose ins(%[[E]] : {{.*}}) outs(%[[HEADS]] :
// CHECK-NOT: memref.copy
// CHECK: return
// CHECK-NOT: func.func private @dense(
// CHECK-NOT: func.func private @permute(
// CHECK-LABEL: func.func @query
// CHECK-NOT: memref.alloc
// CHECK: call @dense_epilogue(%arg0, %arg1, %arg2, %arg3)
// CHECK-NOT: call
// CHECK: return
// STATS: dlc-gpu-merge-epilogues: epilogue-functions 3, merged-calls 7
// One kernel, storing each result at its place in the heads' layout:
// nothing stored into the buffer between the two calls.
// LAUNCH-LABEL: func.func private @dense_epilogue(
// LAUNCH-NOT: memref.alloc
// LAUNCH: gpu.launch
// LAUNCH-NOT: memref.store {{.*}} : memref<1x128x128xf32>
// LAUNCH: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x2x128x64xf32>
// LAUNCH-NOT: gpu.launch
// LAUNCH: return
func.func private @dense(%x: memref<1x128x128xf32>, %w: memref<128x128xf32>, %b: memref<128xf32>,
                         %out: memref<1x128x128xf32>) attributes {dlc.kernel = "out_elemwise_fusable"} {
  %acc = memref.alloc() {alignment = 64 : i64} : memref<1x128x128xf32>
  linalg.generic {indexing_maps = [#bias, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b : memref<128xf32>) outs(%acc : memref<1x128x128xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x128x128xf32>, memref<128x128xf32>) outs(%acc : memref<1x128x128xf32>) {
  ^bb0(%in: f32, %in_0: f32, %a: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %a, %m : f32
    linalg.yield %s : f32
  }
  memref.copy %acc, %out : memref<1x128x128xf32> to memref<1x128x128xf32>
  return
}

func.func private @permute(%in: memref<1x128x128xf32>, %out: memref<1x2x128x64xf32>)
    attributes {dlc.kernel = "injective"} {
  %e = memref.expand_shape %in [[0], [1], [2, 3]] output_shape [1, 128, 2, 64]
      : memref<1x128x128xf32> into memref<1x128x2x64xf32>
  %t = memref.alloc() {alignment = 64 : i64} : memref<1x2x128x64xf32>
  linalg.transpose ins(%e : memref<1x128x2x64xf32>) outs(%t : memref<1x2x128x64xf32>)
      permutation = [0, 2, 1, 3]
  memref.copy %t, %out : memref<1x2x128x64xf32> to memref<1x2x128x64xf32>
  return
}

func.func @query(%x: memref<1x128x128xf32>, %w: memref<128x128xf32>, %b: memref<128xf32>,
                 %r: memref<2x128x64xf32>) {
  %q = memref.alloc() : memref<1x128x128xf32>
  call @dense(%x, %w, %b, %q) : (memref<1x128x128xf32>, memref<128x128xf32>, memref<128xf32>, memref<1x128x128xf32>) -> ()
  %heads = memref.expand_shape %r [[0, 1], [2], [3]] output_shape [1, 2, 128, 64]
      : memref<2x128x64xf32> into memref<1x2x128x64xf32>
  call @permute(%q, %heads) : (memref<1x128x128xf32>, memref<1x2x128x64xf32>) -> ()
  return
}

// A 2 x 2 window's maximum (a pooling), then the output into NHWC: the
// window kernel computes both.
// CHECK-LABEL: func.func private @pool_epilogue(
// CHECK: linalg.pooling_nchw_max
// CHECK: linalg.transpose
// CHECK-NOT: func.func private @pool(
// CHECK-NOT: func.func private @to_nhwc(
// CHECK-LABEL: func.func @pooled
// CHECK: call @pool_epilogue(%arg0, %arg1)
// CHECK-NOT: call
// LAUNCH-LABEL: func.func private @pool_epilogue(
// LAUNCH: gpu.launch
// LAUNCH-NOT: memref.store {{.*}} : memref<1x8x8x8xf32>
// LAUNCH: memref.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x8x8x8xf32>
// LAUNCH-NOT: gpu.launch
// LAUNCH: return
func.func private @pool(%x: memref<1x8x9x9xf32>, %out: memref<1x8x8x8xf32>)
    attributes {dlc.kernel = "out_elemwise_fusable"} {
  %lowest = arith.constant -3.40282347E+38 : f32
  linalg.fill ins(%lowest : f32) outs(%out : memref<1x8x8x8xf32>)
  %window = memref.alloc() : memref<2x2xf32>
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %window : memref<1x8x9x9xf32>, memref<2x2xf32>) outs(%out : memref<1x8x8x8xf32>)
  return
}

func.func private @to_nhwc(%in: memref<1x8x8x8xf32>, %out: memref<1x8x8x8xf32>)
    attributes {dlc.kernel = "injective"} {
  linalg.transpose ins(%in : memref<1x8x8x8xf32>) outs(%out : memref<1x8x8x8xf32>)
      permutation = [0, 2, 3, 1]
  return
}

func.func @pooled(%x: memref<1x8x9x9xf32>, %r: memref<1x8x8x8xf32>) {
  %p = memref.alloc() : memref<1x8x8x8xf32>
  call @pool(%x, %p) : (memref<1x8x9x9xf32>, memref<1x8x8x8xf32>) -> ()
  call @to_nhwc(%p, %r) : (memref<1x8x8x8xf32>, memref<1x8x8x8xf32>) -> ()
  return
}

// A product of f16 values, then its conversion to f16 and the permute, each
// a group of its own: the merged call takes the call after it too, and
// the function's kernel computes a chain of two epilogues.
// CHECK-LABEL: func.func private @dense_f16_epilogue{{.*}}(
// CHECK: arith.truncf
// CHECK: linalg.transpose
// CHECK-NOT: func.func private @permute_f16(
// CHECK-LABEL: func.func @query_f16
// CHECK: call @dense_f16_epilogue{{.*}}(
// CHECK-NOT: call
// CHECK: return
// LAUNCH-LABEL: func.func private @dense_f16_epilogue{{.*}}(
// LAUNCH: gpu.launch
// LAUNCH-NOT: memref.store {{.*}} : memref<1x128x128xf
// LAUNCH: arith.truncf
// LAUNCH: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x2x128x64xf16>
// LAUNCH-NOT: gpu.launch
// LAUNCH: return
func.func private @dense_f16(%x: memref<1x128x128xf16>, %w: memref<128x128xf16>,
                             %out: memref<1x128x128xf32>) attributes {dlc.kernel = "out_elemwise_fusable"} {
  %zero = arith.constant 0.0 : f32
  %xf = memref.alloc() : memref<1x128x128xf32>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<1x128x128xf16>) outs(%xf : memref<1x128x128xf32>) {
  ^bb0(%in: f16, %o: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %wf = memref.alloc() : memref<128x128xf32>
  linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n, k)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<128x128xf16>) outs(%wf : memref<128x128xf32>) {
  ^bb0(%in: f16, %o: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%out : memref<1x128x128xf32>)
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%xf, %wf : memref<1x128x128xf32>, memref<128x128xf32>) outs(%out : memref<1x128x128xf32>) {
  ^bb0(%in: f32, %in_0: f32, %a: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %a, %m : f32
    linalg.yield %s : f32
  }
  return
}

func.func private @to_f16(%in: memref<1x128x128xf32>, %out: memref<1x128x128xf16>)
    attributes {dlc.kernel = "elemwise"} {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%in : memref<1x128x128xf32>) outs(%out : memref<1x128x128xf16>) {
  ^bb0(%i: f32, %o: f16):
    %t = arith.truncf %i : f32 to f16
    linalg.yield %t : f16
  }
  return
}

func.func private @permute_f16(%in: memref<1x128x2x64xf16>, %out: memref<1x2x128x64xf16>)
    attributes {dlc.kernel = "injective"} {
  linalg.transpose ins(%in : memref<1x128x2x64xf16>) outs(%out : memref<1x2x128x64xf16>)
      permutation = [0, 2, 1, 3]
  return
}

func.func @query_f16(%x: memref<1x128x128xf16>, %w: memref<128x128xf16>,
                     %r: memref<1x2x128x64xf16>) {
  %q = memref.alloc() : memref<1x128x128xf32>
  call @dense_f16(%x, %w, %q) : (memref<1x128x128xf16>, memref<128x128xf16>, memref<1x128x128xf32>) -> ()
  %h = memref.alloc() : memref<1x128x128xf16>
  call @to_f16(%q, %h) : (memref<1x128x128xf32>, memref<1x128x128xf16>) -> ()
  %e = memref.expand_shape %h [[0], [1], [2, 3]] output_shape [1, 128, 2, 64]
      : memref<1x128x128xf16> into memref<1x128x2x64xf16>
  call @permute_f16(%e, %r) : (memref<1x128x2x64xf16>, memref<1x2x128x64xf16>) -> ()
  return
}

// Kept apart: a buffer between two calls that a third reads too; a
// conversion before a product (the product's kernel would compute it
// where it reads it, but not as an epilogue); a reduction after a
// product (a kernel of its own: its threads read other threads' results).
// CHECK-LABEL: func.func @kept
// CHECK: call @dense_f16(
// CHECK: call @to_f16(
// CHECK: call @to_f16(
// CHECK: call @to_f16(
// CHECK: call @dense_f16(
// CHECK: call @dense_f16(
// CHECK: call @row_sums(
// CHECK: return
func.func private @row_sums(%in: memref<1x128x128xf32>, %out: memref<1x128xf32>)
    attributes {dlc.kernel = "comm_reduce"} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x128xf32>)
  linalg.generic {indexing_maps = [#id3, #rows], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%in : memref<1x128x128xf32>) outs(%out : memref<1x128xf32>) {
  ^bb0(%i: f32, %a: f32):
    %s = arith.addf %a, %i : f32
    linalg.yield %s : f32
  }
  return
}

func.func @kept(%x: memref<1x128x128xf16>, %w: memref<128x128xf16>, %r: memref<1x128x128xf16>,
                %r2: memref<1x128x128xf16>, %z: memref<1x128x128xf32>, %y: memref<1x128x128xf32>,
                %sums: memref<1x128xf32>) {
  %q = memref.alloc() : memref<1x128x128xf32>
  call @dense_f16(%x, %w, %q) : (memref<1x128x128xf16>, memref<128x128xf16>, memref<1x128x128xf32>) -> ()
  call @to_f16(%q, %r) : (memref<1x128x128xf32>, memref<1x128x128xf16>) -> ()
  call @to_f16(%q, %r2) : (memref<1x128x128xf32>, memref<1x128x128xf16>) -> ()
  %h = memref.alloc() : memref<1x128x128xf16>
  call @to_f16(%z, %h) : (memref<1x128x128xf32>, memref<1x128x128xf16>) -> ()
  call @dense_f16(%h, %w, %y) : (memref<1x128x128xf16>, memref<128x128xf16>, memref<1x128x128xf32>) -> ()
  %p = memref.alloc() : memref<1x128x128xf32>
  call @dense_f16(%x, %w, %p) : (memref<1x128x128xf16>, memref<128x128xf16>, memref<1x128x128xf32>) -> ()
  call @row_sums(%p, %sums) : (memref<1x128x128xf32>, memref<1x128xf32>) -> ()
  return
}

// Kept apart: the calls pass a reshape of the buffer between them, and
// the permute reshapes it back. Made again inside, the two reshapes fold
// away: the transpose then reads the buffer itself, not the product's
// output, and is no epilogue of it.
// CHECK-LABEL: func.func @through_view
// CHECK: call @mm(
// CHECK: call @perm(
func.func private @mm(%x: memref<128x128xf32>, %w: memref<128x128xf32>, %out: memref<128x128xf32>)
    attributes {dlc.kernel = "out_elemwise_fusable"} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<128x128xf32>)
  linalg.matmul ins(%x, %w : memref<128x128xf32>, memref<128x128xf32>) outs(%out : memref<128x128xf32>)
  return
}

func.func private @perm(%in: memref<128x128xf32>, %out: memref<2x128x64xf32>)
    attributes {dlc.kernel = "injective"} {
  %e = memref.expand_shape %in [[0], [1, 2]] output_shape [128, 2, 64]
      : memref<128x128xf32> into memref<128x2x64xf32>
  linalg.transpose ins(%e : memref<128x2x64xf32>) outs(%out : memref<2x128x64xf32>)
      permutation = [1, 0, 2]
  return
}

func.func @through_view(%x: memref<128x128xf32>, %w: memref<128x128xf32>, %r: memref<2x128x64xf32>) {
  %heads = memref.alloc() : memref<128x2x64xf32>
  %flat = memref.collapse_shape %heads [[0], [1, 2]] : memref<128x2x64xf32> into memref<128x128xf32>
  call @mm(%x, %w, %flat) : (memref<128x128xf32>, memref<128x128xf32>, memref<128x128xf32>) -> ()
  call @perm(%flat, %r) : (memref<128x128xf32>, memref<2x128x64xf32>) -> ()
  return
}
