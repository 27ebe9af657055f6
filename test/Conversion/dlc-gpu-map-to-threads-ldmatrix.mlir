// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true tf32=true ldmatrix=true}))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true tf32=true ldmatrix=true}))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true ldmatrix=true copy-stages=3}))" | FileCheck %s --check-prefix=COPIES
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{ldmatrix=true}))" | FileCheck %s --check-prefix=OWN

// A dense layer of f16 values (x: [rows, in], w: [out, in]), both inputs
// contiguous along the reduction, with ldmatrix: both tiles (32 rows of 16
// pairs, padded to 20 words) in the block's dynamic shared memory, 16-byte
// aligned; per k16 slice each warp loads its A fragment with one ldmatrix
// of four 8 x 8 matrices and its one column tile's B fragment with one of
// two, from the tiles' addresses, and loads no fragment word by word.
// CHECK-LABEL: func.func @f16_dense
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c5120_i32 {
// CHECK: %[[SHARED:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[X:.*]] = memref.view %[[SHARED]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32x20xi32, #gpu.address_space<workgroup>>
// CHECK: %[[W:.*]] = memref.view %[[SHARED]][%c2560{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32x20xi32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[X]]
// CHECK: memref.store %{{.*}}, %[[W]]
// CHECK: gpu.barrier
// CHECK-NOT: memref.load %[[X]]
// CHECK-NOT: memref.load %[[W]]
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: nvvm.ldmatrix %{{.*}} {{{.*}}num = 2 : i32{{.*}}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK: nvvm.mma.sync
// CHECK-NOT: memref.load %[[X]]
// CHECK-NOT: memref.load %[[W]]
// CHECK: scf.yield
// With copy-stages, the fragments are loaded from the step's stage of each
// ring: at the ring's address.
// COPIES-LABEL: func.func @f16_dense
// COPIES: %[[X:.*]] = memref.view {{.*}} to memref<3x32x20xi32, #gpu.address_space<workgroup>>
// COPIES: %[[W:.*]] = memref.view {{.*}} to memref<3x32x20xi32, #gpu.address_space<workgroup>>
// COPIES: scf.for
// COPIES: nvvm.cp.async.commit.group
// COPIES: memref.subview %[[X]]
// COPIES: memref.extract_aligned_pointer_as_index %[[X]]
// COPIES: nvvm.ldmatrix {{.*}}num = 4 : i32
// COPIES: memref.extract_aligned_pointer_as_index %[[W]]
// COPIES: nvvm.ldmatrix {{.*}}num = 2 : i32
// COPIES: nvvm.mma.sync
func.func @f16_dense(%x: memref<256x128xf16>, %w: memref<512x128xf16>,
                     %y: memref<256x512xf32>) {
  %wx = memref.alloc() : memref<256x128xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<256x128xf16>) outs(%wx : memref<256x128xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %ww = memref.alloc() : memref<512x128xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<512x128xf16>) outs(%ww : memref<512x128xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%wx, %ww : memref<256x128xf32>, memref<512x128xf32>) outs(%y : memref<256x512xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %wx : memref<256x128xf32>
  memref.dealloc %ww : memref<512x128xf32>
  return
}

// Only A is contiguous along the reduction: its tile as above, loaded with
// ldmatrix; B's is staged as pairs of consecutive columns (32 steps of 32
// pairs, padded to 36 words), each thread storing its pairs of columns of
// a step, and loaded with ldmatrix.trans (layout col): per k16 slice four
// matrices, steps 0-7 and 8-15 of two column tiles.
// CHECK-LABEL: func.func @f16_product
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c9728_i32 {
// CHECK: memref.view {{.*}} to memref<64x20xi32, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = memref.view {{.*}} to memref<32x36xi32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK: gpu.barrier
// CHECK-NOT: memref.load %[[B]]
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK: memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 4 : i32
// CHECK: nvvm.mma.sync
// CHECK-NOT: memref.load %[[B]]
// CHECK: scf.yield
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

// On TF32, with ldmatrix, each input's tile holds its rows (columns) of 16
// steps consecutively, padded to 20 values (both 64 x 20 f32, in dynamic
// shared memory), the staged values rounded to TF32 as before, and each k8
// slice's fragments are four 8 x 8 matrices of 16-bit pairs, a TF32 value
// each: an A fragment per ldmatrix, two column tiles' B fragments per
// another.
// CHECK-LABEL: func.func @tf32
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c10240_i32 {
// CHECK: %[[A:.*]] = memref.view {{.*}} to memref<64x20xf32, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = memref.view {{.*}} to memref<64x20xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: nvvm.convert.float.to.tf32
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: gpu.barrier
// CHECK-NOT: memref.load %[[A]]
// CHECK-NOT: memref.load %[[B]]
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>
// CHECK-NOT: memref.load %[[A]]
// CHECK-NOT: memref.load %[[B]]
// CHECK: scf.yield
// Without tf32 the product runs on the threads' own FMAs: no ldmatrix, its
// tiles the kernel's own.
// OWN-LABEL: func.func @tf32
// OWN: gpu.launch {{.*}} workgroup(
// OWN-NOT: nvvm.ldmatrix
// OWN: return
func.func @tf32(%a: memref<512x64xf32>, %b: memref<64x1024xf32>, %c: memref<512x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<512x64xf32>, memref<64x1024xf32>)
                outs(%c : memref<512x1024xf32>)
  return
}

// STATS: dlc-gpu-map-to-threads: {{.*}}ldmatrix-inputs 6, {{.*}}tiled-products 3,
