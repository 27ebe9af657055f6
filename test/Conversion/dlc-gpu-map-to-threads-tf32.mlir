// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{tf32=true}))" | FileCheck %s

// On tensor cores (tf32): the same tiles, staged into shared memory rounded
// to TF32 (rows padded by 8, so that a warp's fragment loads, 4 rows by 8
// columns, hit 32 banks); each of the 8 warps computes 16 rows by 32
// columns of the 64 x 64 tile: per step of 16, two k8 slices, each one A
// fragment (4 elements a lane) and, per 8-column tile, a B fragment (2) and
// an mma.sync m16n8k8 on TF32 with f32 accumulators (4 a lane, 16 in all).
// The elements loaded a step ahead are rounded when they are stored.
// CHECK-LABEL: func.func @product
// CHECK: gpu.launch {{.*}} workgroup(%[[LHS:.*]] : memref<16x72xf32, #gpu.address_space<workgroup>>, %[[RHS:.*]] : memref<16x72xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: %[[T:.*]] = nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK: %[[F:.*]] = arith.bitcast %[[T]] : i32 to f32
// CHECK: memref.store %[[F]], %[[LHS]]
// CHECK: gpu.barrier
// CHECK-COUNT-8: nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}] B[{{.*}}, {{.*}}] C[{{.*}}, {{.*}}, {{.*}}, {{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: gpu.barrier
// CHECK-COUNT-16: scf.if
func.func @product(%a: memref<512x64xf32>, %b: memref<64x1024xf32>, %c: memref<512x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<512x64xf32>, memref<64x1024xf32>)
                outs(%c : memref<512x1024xf32>)
  return
}
