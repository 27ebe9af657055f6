// RUN: dlc-opt %s --dlc-gpu-merge-row-kernels | FileCheck %s
// RUN: dlc-opt %s --dlc-gpu-merge-row-kernels --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-gpu-merge-row-kernels, func.func(dlc-gpu-map-to-threads{row-kernels=true}))" | FileCheck %s --check-prefix=LAUNCH

// A layer norm's mean and difference, as bufferization leaves FuseOps'
// kernels: calls of kernel functions writing their callers' buffers, a
// view between them, then a product. The two calls become one of a new
// function running both bodies on the buffers passed (the root of the
// view, the view made again inside; buffers that do not overlap, which
// the function's attribute says); the product's call stays, and so do
// the callees still called.
// CHECK-LABEL: func.func private @mean_rows{{.*}}(
// CHECK-SAME: %[[X:.*]]: memref<1x128x768xf32>, %[[M:.*]]: memref<1x128x1xf32>, %[[D:.*]]: memref<1x128x768xf32>)
// CHECK-SAME: attributes {dlc.distinct_arguments, dlc.kernel = "rows"}
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[M]]
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[X]], %[[FLAT]] :
// CHECK-SAME: outs(%[[D]] :
// CHECK: return
// CHECK-NOT: func.func private @mean(
// CHECK-NOT: func.func private @difference(
// CHECK: func.func private @product(
// CHECK-LABEL: func.func @main
// CHECK: call @mean_rows{{.*}}(%arg0, %{{.*}}, %{{.*}}) :
// CHECK: call @product(
// CHECK: call @product(
// CHECK: call @exp(
// CHECK: call @transpose(
// CHECK: call @sum(
// CHECK-NOT: call
// CHECK: return
// STATS: dlc-gpu-merge-row-kernels: merged-calls 2, row-functions 1
// The new function is one row kernel: a warp per row of 128.
// LAUNCH-LABEL: func.func private @mean_rows
// LAUNCH: gpu.launch blocks({{.*}}) in (%{{.*}} = %c128{{.*}}) threads({{.*}}) in (%{{.*}} = %c32
// LAUNCH-COUNT-2: nvvm.bar.warp.sync
// LAUNCH-NOT: nvvm.bar.warp.sync
// LAUNCH: return

func.func private @mean(%x: memref<1x128x768xf32>, %out: memref<1x128x1xf32>)
    attributes {dlc.kernel = "comm_reduce"} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x128x1xf32>)
  linalg.generic {indexing_maps = [affine_map<(a, r, c) -> (a, r, c)>,
                                   affine_map<(a, r, c) -> (a, r, 0)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<1x128x768xf32>) outs(%out : memref<1x128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  return
}

func.func private @difference(%x: memref<1x128x768xf32>, %mean: memref<128xf32>,
                              %out: memref<1x128x768xf32>) attributes {dlc.kernel = "broadcast"} {
  linalg.generic {indexing_maps = [affine_map<(a, r, c) -> (a, r, c)>,
                                   affine_map<(a, r, c) -> (r)>,
                                   affine_map<(a, r, c) -> (a, r, c)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mean : memref<1x128x768xf32>, memref<128xf32>)
      outs(%out : memref<1x128x768xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  }
  return
}

func.func private @product(%a: memref<128x768xf32>, %b: memref<768x128xf32>,
                           %c: memref<128x128xf32>) attributes {dlc.kernel = "out_elemwise_fusable"} {
  linalg.matmul ins(%a, %b : memref<128x768xf32>, memref<768x128xf32>)
                outs(%c : memref<128x128xf32>)
  return
}

// Exponentials, their transpose, a sum along the rows: the three would
// write the exponentials in one row and read them in another; not merged.
func.func private @exp(%x: memref<128x128xf32>, %out: memref<128x128xf32>)
    attributes {dlc.kernel = "elemwise"} {
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<128x128xf32>) outs(%out : memref<128x128xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

func.func private @transpose(%x: memref<128x128xf32>, %out: memref<128x128xf32>)
    attributes {dlc.kernel = "injective"} {
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (c, r)>, affine_map<(r, c) -> (r, c)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<128x128xf32>) outs(%out : memref<128x128xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  return
}

func.func private @sum(%x: memref<128x128xf32>, %out: memref<128x1xf32>)
    attributes {dlc.kernel = "comm_reduce"} {
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, 0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x128xf32>) outs(%out : memref<128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  return
}

func.func @main(%x: memref<1x128x768xf32>, %w: memref<768x128xf32>, %y: memref<128x1xf32>) {
  %mean = memref.alloc() : memref<1x128x1xf32>
  call @mean(%x, %mean) : (memref<1x128x768xf32>, memref<1x128x1xf32>) -> ()
  %flat = memref.collapse_shape %mean [[0, 1, 2]] : memref<1x128x1xf32> into memref<128xf32>
  %d = memref.alloc() : memref<1x128x768xf32>
  call @difference(%x, %flat, %d)
      : (memref<1x128x768xf32>, memref<128xf32>, memref<1x128x768xf32>) -> ()
  %rows = memref.collapse_shape %d [[0, 1], [2]] : memref<1x128x768xf32> into memref<128x768xf32>
  %p = memref.alloc() : memref<128x128xf32>
  call @product(%rows, %w, %p) : (memref<128x768xf32>, memref<768x128xf32>, memref<128x128xf32>) -> ()
  %q = memref.alloc() : memref<128x128xf32>
  call @product(%rows, %w, %q) : (memref<128x768xf32>, memref<768x128xf32>, memref<128x128xf32>) -> ()
  %e = memref.alloc() : memref<128x128xf32>
  call @exp(%q, %e) : (memref<128x128xf32>, memref<128x128xf32>) -> ()
  %t = memref.alloc() : memref<128x128xf32>
  call @transpose(%e, %t) : (memref<128x128xf32>, memref<128x128xf32>) -> ()
  call @sum(%t, %y) : (memref<128x128xf32>, memref<128x1xf32>) -> ()
  return
}
