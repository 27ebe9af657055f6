// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{tf32=true copy-stages=3}))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{tf32=true copy-stages=3 ldmatrix=true}))" | FileCheck %s --check-prefix=LDM
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{tf32=true copy-stages=3}))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{tf32=true}))" | FileCheck %s --check-prefix=NONE
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{copy-stages=3}))" | FileCheck %s --check-prefix=FMA

// A dense layer in TF32 (x: [rows, in], w: [out, in] in f32 buffers), both
// inputs contiguous along the reduction: with copy-stages, each step's
// tiles are copied from the buffers themselves (no producer fused) into
// shared memory with cp.async, 16 bytes (4 values) a copy, into a ring of
// 3 stages per input in dynamic shared memory. Their tiles hold each row's
// 16 steps consecutively, padded by 4 (3 x 32 rows x 20 f32 each). Their
// values are rounded to TF32 where the fragments are loaded, each word of
// an A fragment (4) and of a B fragment (2) before its mma.sync, instead
// of where they are stored: no thread stages values through registers,
// the loop carries the accumulators only and has one barrier. A step's
// copies are made only where it is one of the reduction's (%c128): past
// its end, its group is empty.
// CHECK-LABEL: func.func @tf32_dense
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c15360_i32 {
// CHECK: %[[SHARED:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[X:.*]] = memref.view %[[SHARED]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x20xf32, #gpu.address_space<workgroup>>
// CHECK: %[[W:.*]] = memref.view %[[SHARED]][%c7680{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x20xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.load %arg0
// CHECK: memref.extract_aligned_pointer_as_index %arg0 : memref<256x128xf32>
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: memref.extract_aligned_pointer_as_index %arg1 : memref<512x128xf32>
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: memref.load %arg1
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[END:[^ ]*]] step {{.*}} -> (f32, f32, f32, f32) {
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvvm.convert.float.to.tf32
// CHECK: %[[NEXT:.*]] = arith.cmpi ult, %{{.*}}, %[[END]] : index
// CHECK-NEXT: scf.if %[[NEXT]] {
// CHECK-NOT: nvvm.convert.float.to.tf32
// CHECK: nvvm.cp.async.commit.group
// CHECK: %[[XS:.*]] = memref.subview %[[X]][%{{.*}}, 0, 0] [1, 32, 20] [1, 1, 1]
// CHECK: %[[WS:.*]] = memref.subview %[[W]][%{{.*}}, 0, 0] [1, 32, 20] [1, 1, 1]
// CHECK-COUNT-4: memref.load %[[XS]]
// CHECK-NOT: memref.store
// CHECK: %[[B0:.*]] = memref.load %[[WS]]
// CHECK-NEXT: nvvm.convert.float.to.tf32 %[[B0]] {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// With ldmatrix too: the words ldmatrix loads from the stages, rounded.
// LDM-LABEL: func.func @tf32_dense
// LDM: memref.view {{.*}} to memref<3x32x20xf32, #gpu.address_space<workgroup>>
// LDM: scf.for
// LDM: nvvm.ldmatrix {{.*}}num = 4
// LDM-COUNT-4: nvvm.convert.float.to.tf32
// LDM: nvvm.ldmatrix {{.*}}num = 2
// LDM-COUNT-2: nvvm.convert.float.to.tf32
// LDM: nvvm.mma.sync
// Without copy-stages, the tiles are reduction-major (16 steps x 32 + 8
// rows or columns), of the kernel's own, and rounded where each thread
// stores its elements, loaded a step ahead.
// NONE-LABEL: func.func @tf32_dense
// NONE-NOT: cp.async
// NONE: gpu.launch {{.*}} workgroup(%{{.*}} : memref<16x40xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x40xf32, #gpu.address_space<workgroup>>)
// NONE: memref.load %arg0
// NONE: scf.for
// NONE: nvvm.convert.float.to.tf32
// NONE: memref.store
// NONE-NOT: cp.async
// NONE: return
// Products on the threads' own FMAs (no tf32) are not copied.
// FMA-LABEL: func.func @tf32_dense
// FMA-NOT: cp.async
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

// A is contiguous along the reduction, B along its columns: both are
// copied, A in chunks along the reduction, B in chunks along the columns
// into a reduction-major ring (3 stages of 16 steps by 64 + 8 columns),
// its values rounded where the fragments are loaded. No thread stages
// values through registers: the loop carries the accumulators only and
// has one barrier.
// CHECK-LABEL: func.func @tf32_product
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c29184_i32 {
// CHECK: memref.view {{.*}} to memref<3x64x20xf32, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = memref.view {{.*}} to memref<3x16x72xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.load %arg1
// CHECK: memref.extract_aligned_pointer_as_index %arg1 : memref<64x1024xf32>
// CHECK: nvvm.cp.async.shared.global
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: %[[BS:.*]] = memref.subview %[[B]][%{{.*}}, 0, 0] [1, 16, 72] [1, 1, 1]
// CHECK: %[[B0:.*]] = memref.load %[[BS]]
// CHECK-NEXT: nvvm.convert.float.to.tf32 %[[B0]]
// CHECK: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// With ldmatrix, B's TF32 tile holds each column's steps consecutively
// (64 columns by 16 + 4 steps): not copied, staged through registers.
// LDM-LABEL: func.func @tf32_product
// LDM: memref.view {{.*}} to memref<3x64x20xf32, #gpu.address_space<workgroup>>
// LDM: memref.view {{.*}} to memref<64x20xf32, #gpu.address_space<workgroup>>
// LDM: memref.load %arg1
// LDM: return
func.func @tf32_product(%a: memref<512x64xf32>, %b: memref<64x1024xf32>,
                        %c: memref<512x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<512x64xf32>, memref<64x1024xf32>)
                outs(%c : memref<512x1024xf32>)
  return
}

// A reduction of 72 (not a whole number of 16-element steps) is not
// copied: a copy would read past a row's end.
// CHECK-LABEL: func.func @ragged
// CHECK-NOT: cp.async
// CHECK: return
func.func @ragged(%a: memref<64x72xf32>, %w: memref<64x72xf32>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<64x72xf32>, memref<64x72xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// A view of another layout (a subview's strides) is not copied: its rows
// are not where the identity layout puts them. It is staged through
// registers into a reduction-major tile of the kernel's own; W is copied.
// CHECK-LABEL: func.func @strided
// CHECK: %[[V:.*]] = memref.subview %arg0
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c7680_i32 workgroup(%{{.*}} : memref<16x40xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: memref.extract_aligned_pointer_as_index %[[V]]
// CHECK: memref.extract_aligned_pointer_as_index %arg1
// CHECK-NOT: memref.extract_aligned_pointer_as_index %[[V]]
// CHECK: memref.load %[[V]]
// CHECK-NOT: memref.extract_aligned_pointer_as_index %[[V]]
// CHECK: return
func.func @strided(%a: memref<64x256xf32>, %w: memref<64x128xf32>, %c: memref<64x64xf32>) {
  %v = memref.subview %a[0, 0] [64, 128] [1, 1] : memref<64x256xf32> to memref<64x128xf32, strided<[256, 1]>>
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%v, %w : memref<64x128xf32, strided<[256, 1]>>, memref<64x128xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// STATS: dlc-gpu-map-to-threads
// STATS-DAG: async-copied-inputs{{ +}}5
// STATS-DAG: tiled-products{{ +}}4
