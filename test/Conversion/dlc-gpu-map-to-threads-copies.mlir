// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true copy-stages=3}))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true copy-stages=3}))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true}))" | FileCheck %s --check-prefix=NONE
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true copy-stages=3 ldmatrix=true}))" | FileCheck %s --check-prefix=LDM
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true copy-stages=1}))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true copy-stages=5}))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// A dense layer of f16 values (x: [rows, in], w: [out, in]), both inputs
// contiguous along the reduction: with copy-stages, each step's tiles are
// copied from the f16 buffers straight into shared memory with cp.async, 16
// bytes (8 values) a copy, into a ring of 3 stages per input in dynamic
// shared memory (3 x 32 rows x 20 words each; the kernel has no tile of its
// own). The first 2 steps' copies are in flight before the loop, a group
// each; each step waits for its own (1 group may stay in flight), then
// barriers, then copies the step 2 on into the stage the step before was
// multiplied from, and multiplies from its stage. No thread stages values
// through registers: the loop carries the accumulators only and has one
// barrier. 32 x 32 tiles: 128 chunks a step per input, copied by the first
// 128 threads; each warp's 16 x 8 outputs take 2 mma.sync a step.
// CHECK-LABEL: func.func @f16_dense
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c15360_i32 {
// CHECK: %[[SHARED:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[X:.*]] = memref.view %[[SHARED]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x20xi32, #gpu.address_space<workgroup>>
// CHECK: %[[W:.*]] = memref.view %[[SHARED]][%c7680{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x20xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.load %arg0
// CHECK: scf.if
// CHECK: memref.extract_aligned_pointer_as_index %arg0 : memref<256x128xf16>
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: scf.if
// CHECK: memref.extract_aligned_pointer_as_index %arg1 : memref<512x128xf16>
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-COUNT-2: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: memref.load %arg1
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32) {
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-2: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: memref.subview %[[X]][%{{.*}}, 0, 0] [1, 32, 20] [1, 1, 1]
// CHECK: memref.subview %[[W]][%{{.*}}, 0, 0] [1, 32, 20] [1, 1, 1]
// CHECK-COUNT-2: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// Without copy-stages, the same kernel loads the elements into registers
// a step ahead.
// NONE-LABEL: func.func @f16_dense
// NONE-NOT: cp.async
// NONE: gpu.launch {{.*}} workgroup(%{{.*}} : memref<32x20xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x20xi32, #gpu.address_space<workgroup>>)
// NONE-NOT: cp.async
// NONE: memref.load %arg0
// NONE-NOT: cp.async
// NONE: return
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

// Only A is contiguous along the reduction: A is copied (a ring of 3
// stages of 64 rows in dynamic shared memory), B staged through registers
// into a tile of the kernel's own as before, which the loop's second
// barrier guards.
// CHECK-LABEL: func.func @f16_product
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c15360_i32 workgroup(%[[B:.*]] : memref<16x72xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.view {{.*}} to memref<3x64x20xi32, #gpu.address_space<workgroup>>
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f16, f16, f16, f16, f16, f16, f16, f16) {
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: memref.load %arg1
// CHECK: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK: scf.yield
// With ldmatrix, B's tile holds pairs of consecutive columns, each step's
// columns consecutively (32 steps by 32 + 4 words): B is copied too, in
// chunks of 8 values along the columns, and loaded with ldmatrix.trans.
// LDM-LABEL: func.func @f16_product
// LDM: memref.view {{.*}} to memref<3x64x20xi32, #gpu.address_space<workgroup>>
// LDM: %[[B:.*]] = memref.view {{.*}} to memref<3x32x36xi32, #gpu.address_space<workgroup>>
// LDM-NOT: memref.load %arg1
// LDM: memref.extract_aligned_pointer_as_index %arg1 : memref<64x1024xf16>
// LDM: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// LDM: %[[BS:.*]] = memref.subview %[[B]]
// LDM: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
// LDM: nvvm.mma.sync
// LDM-NOT: gpu.barrier
// LDM: scf.yield
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

// A reduction of 72 (not a whole number of 32-element steps) is not
// copied: a copy would read past a row's end.
// CHECK-LABEL: func.func @ragged
// CHECK-NOT: cp.async
// CHECK: return
func.func @ragged(%a: memref<64x72xf16>, %w: memref<64x72xf16>, %c: memref<64x64xf32>) {
  %wa = memref.alloc() : memref<64x72xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x72xf16>) outs(%wa : memref<64x72xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %ww = memref.alloc() : memref<64x72xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<64x72xf16>) outs(%ww : memref<64x72xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%wa, %ww : memref<64x72xf32>, memref<64x72xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %wa : memref<64x72xf32>
  memref.dealloc %ww : memref<64x72xf32>
  return
}

// STATS: dlc-gpu-map-to-threads
// STATS-DAG: async-copied-inputs{{ +}}3
// STATS-DAG: tiled-products{{ +}}3
// BAD: error: dlc-gpu-map-to-threads: copy-stages={{1|5}} is not between 2 and 4 (or 0: none)
