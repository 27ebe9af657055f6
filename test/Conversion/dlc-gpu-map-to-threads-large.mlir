// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{max-tile=64}))" | FileCheck %s --check-prefix=MAX64
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{tf32=true}))" | FileCheck %s --check-prefix=TF32
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{narrow-mma=true}))" | FileCheck %s --check-prefix=NARROW
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{split-blocks=512}))" | FileCheck %s --check-prefix=SPLIT512
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{max-tile=48}))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{split-blocks=16}))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSPLIT

// Products of columns along one loop large enough for 128 blocks of 128 x
// 128 outputs (a dense layer at batch 32: 4096 rows) take those tiles: each thread accumulates 8 x 8
// outputs, 16 rows and columns apart, and stages 8 elements of each input
// per step of 16 (rows of 129 in shared memory); 1024 fused multiply-adds a
// step. With max-tile=64 the same product takes 64 x 64 tiles (1024 blocks).
// CHECK-LABEL: func.func @large_product
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c16{{.*}}, {{.*}} = %c32{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}) workgroup(%[[LHS:.*]] : memref<16x129xf32, #gpu.address_space<workgroup>>, %[[RHS:.*]] : memref<16x129xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-64: memref.load %arg2
// CHECK-COUNT-8: memref.load %arg0
// CHECK-COUNT-8: memref.load %arg1
// CHECK: scf.for
// CHECK-COUNT-8: memref.store {{.*}}, %[[LHS]]
// CHECK-COUNT-8: memref.store {{.*}}, %[[RHS]]
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-1024: math.fma
// CHECK-NOT: math.fma
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK-COUNT-64: scf.if
// CHECK: gpu.terminator
// MAX64-LABEL: func.func @large_product
// MAX64: gpu.launch blocks({{.*}}) in ({{.*}} = %c32{{.*}}, {{.*}} = %c64{{.*}}, {{.*}} = %c1{{.*}}) {{.*}} workgroup({{.*}} : memref<16x65xf32, {{.*}}>, {{.*}} : memref<16x65xf32, {{.*}}>)
// On TF32 tensor cores each warp computes 32 rows by 64 columns: per step
// two k8 slices, each loading two A fragments (4 elements each) and per
// 8-column tile a B fragment (2 elements) for two mma.sync, 16 a slice.
// TF32-LABEL: func.func @large_product
// TF32: gpu.launch {{.*}} workgroup(%[[LHS:.*]] : memref<16x136xf32, {{.*}}>, %[[RHS:.*]] : memref<16x136xf32, {{.*}}>)
// TF32: gpu.barrier
// TF32-COUNT-8: memref.load %[[LHS]]
// TF32-NOT: nvvm.mma.sync
// TF32-COUNT-2: memref.load %[[RHS]]
// TF32-NOT: memref.load %[[LHS]]
// TF32-COUNT-2: nvvm.mma.sync
// TF32-NOT: memref.load %[[LHS]]
// TF32-COUNT-14: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 8>
// TF32-COUNT-8: memref.load %[[LHS]]
// TF32-COUNT-16: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 8>
// TF32-NOT: nvvm.mma.sync
// TF32: gpu.barrier
// TF32-COUNT-64: scf.if
func.func @large_product(%a: memref<4096x64xf32>, %b: memref<64x2048xf32>,
                         %c: memref<4096x2048xf32>) {
  linalg.matmul ins(%a, %b : memref<4096x64xf32>, memref<64x2048xf32>)
                outs(%c : memref<4096x2048xf32>)
  return
}

// A product whose columns span several loops (a convolution at batch 32,
// after im2col: image and position) takes 64 x 64 tiles in f32 and TF32,
// where 128 x 128 measured slower.
// CHECK-LABEL: func.func @batched_product
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c4{{.*}}, {{.*}} = %c1{{.*}}) {{.*}} workgroup({{.*}} : memref<16x65xf32, {{.*}}>, {{.*}} : memref<16x65xf32, {{.*}}>)
// TF32-LABEL: func.func @batched_product
// TF32: gpu.launch {{.*}} workgroup({{.*}} : memref<16x72xf32, {{.*}}>, {{.*}} : memref<16x72xf32, {{.*}}>)
func.func @batched_product(%w: memref<256x576xf32>, %x: memref<32x576x512xf32>,
                           %y: memref<32x256x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>,
                                   affine_map<(b, m, n, k) -> (b, k, n)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x : memref<256x576xf32>, memref<32x576x512xf32>) outs(%y : memref<32x256x512xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// The same on f16 values widened to f32 (a mixed-precision graph), 32
// reduction elements a step: narrow tiles of 128 rows of 16 words (padded
// by 4) and 16 rows of 128 words (padded by 8); per step two k16 slices of
// two A fragments and 16 mma.sync m16n8k16 a warp.
// NARROW-LABEL: func.func @large_f16_product
// NARROW: gpu.launch {{.*}} workgroup({{.*}} : memref<128x20xi32, {{.*}}>, {{.*}} : memref<16x136xi32, {{.*}}>)
// NARROW: scf.for
// NARROW-COUNT-32: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>
// NARROW-NOT: nvvm.mma.sync
// NARROW: gpu.barrier
// NARROW-COUNT-64: scf.if
func.func @large_f16_product(%a: memref<4096x64xf16>, %b: memref<64x2048xf16>,
                             %c: memref<4096x2048xf32>) {
  %wa = memref.alloc() : memref<4096x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4096x64xf16>) outs(%wa : memref<4096x64xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %wb = memref.alloc() : memref<64x2048xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<64x2048xf16>) outs(%wb : memref<64x2048xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  linalg.matmul ins(%wa, %wb : memref<4096x64xf32>, memref<64x2048xf32>)
                outs(%c : memref<4096x2048xf32>)
  memref.dealloc %wa : memref<4096x64xf32>
  memref.dealloc %wb : memref<64x2048xf32>
  return
}

// A dense layer over few rows (BERT-base's feed-forward at batch 1: 128
// rows, 3072 columns, 768 products each) fills 192 blocks of 32 x 64
// tiles, enough for its threads' own FMAs; on tensor cores (split towards
// 512 blocks by default) or with split-blocks=512 its reduction is split in
// 3 slices of 256, summed by a second kernel.
// CHECK-LABEL: func.func @few_rows
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c48{{.*}}, {{.*}} = %c4{{.*}}, {{.*}} = %c1{{.*}})
// CHECK-NOT: gpu.launch
// CHECK: return
// SPLIT512-LABEL: func.func @few_rows
// SPLIT512: memref.alloc() : memref<3x1x128x3072xf32>
// SPLIT512: gpu.launch blocks({{.*}}) in ({{.*}} = %c48{{.*}}, {{.*}} = %c4{{.*}}, {{.*}} = %c3{{.*}})
// SPLIT512: arith.muli {{.*}}, %c256
// SPLIT512: gpu.launch
// SPLIT512: scf.for {{.*}} = %c0{{.*}} to %c3{{.*}} step %c1
// TF32-LABEL: func.func @few_rows
// TF32: memref.alloc() : memref<3x1x128x3072xf32>
// TF32: gpu.launch blocks({{.*}}) in ({{.*}} = %c48{{.*}}, {{.*}} = %c4{{.*}}, {{.*}} = %c3{{.*}})
func.func @few_rows(%a: memref<128x768xf32>, %b: memref<768x3072xf32>,
                    %c: memref<128x3072xf32>) {
  linalg.matmul ins(%a, %b : memref<128x768xf32>, memref<768x3072xf32>)
                outs(%c : memref<128x3072xf32>)
  return
}

// BAD: error: dlc-gpu-map-to-threads: max-tile=48 is not a tile side (128, 64 or 32)
// BADSPLIT: error: dlc-gpu-map-to-threads: split-blocks=16 is not between 32 and 4096 (or 0: chosen)
