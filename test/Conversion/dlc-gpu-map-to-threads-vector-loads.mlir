// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{tf32=true vector-loads=true}))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{tf32=true vector-loads=true}))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{tf32=true vector-loads=true copy-stages=3}))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=ASYNC
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{vector-loads=true}))" | FileCheck %s --check-prefix=FMA

// A dense layer in TF32, both inputs contiguous along the reduction, with
// vector-loads and no copy stages: each thread loads its chunk of each
// step's tiles (32 rows x 16 steps: 128 chunks of 4 values, the block's
// first 128 threads one each, the others the last again) 16 bytes at a
// time a step ahead, carried by the loop as vector<4xi32>, and stores it
// after the loop's barrier into the one tile of each input, in dynamic
// shared memory, each row's steps consecutive (1 x 32 x 20 f32), where the
// copies would have put it (only the threads of a chunk of their own).
// The values are rounded to TF32 where the fragments are loaded.
// CHECK-LABEL: func.func @tf32_dense
// CHECK-NOT: cp.async
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c5120_i32 {
// CHECK: memref.view {{.*}} to memref<1x32x20xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view {{.*}} to memref<1x32x20xf32, #gpu.address_space<workgroup>>
// CHECK: memref.extract_aligned_pointer_as_index %arg0 : memref<256x128xf32>
// CHECK: %[[X0:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK: memref.extract_aligned_pointer_as_index %arg1 : memref<512x128xf32>
// CHECK: %[[W0:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK: scf.for {{.*}} iter_args({{.*}}%{{.*}} = %[[X0]], %{{.*}} = %[[W0]]) -> ({{.*}}vector<4xi32>, vector<4xi32>)
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: scf.if
// CHECK: llvm.store
// CHECK: gpu.barrier
// CHECK: llvm.load
// CHECK: llvm.load
// CHECK: nvvm.convert.float.to.tf32
// CHECK: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK-NOT: cp.async
// CHECK: return
// STATS: dlc-gpu-map-to-threads: async-copied-inputs 0,{{.*}} vector-loaded-inputs 2,
// With copy stages that fit, the copies take the inputs.
// ASYNC: dlc-gpu-map-to-threads: async-copied-inputs 2,{{.*}} vector-loaded-inputs 0,
// Products on the threads' own FMAs (no tf32) are staged an element at a
// time.
// FMA-LABEL: func.func @tf32_dense
// FMA-NOT: llvm.load
// FMA-NOT: dynamic_shared_memory
// FMA: return
func.func @tf32_dense(%x: memref<256x128xf32>, %w: memref<512x128xf32>,
                      %y: memref<256x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<256x128xf32>, memref<512x128xf32>) outs(%y : memref<256x512xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
