// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{last-block-sums=true}))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{last-block-sums=true}))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" | FileCheck %s --check-prefix=TWO
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{last-block-sums=true}),dlc-gpu-host-buffers)" | FileCheck %s --check-prefix=HOST
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{last-block-sums=true}),dlc-gpu-host-buffers)" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST-STATS

// A 3x3 convolution of ResNet's last stage after im2col (64 x 49 outputs,
// 4608 products each) with its bias and ReLU: its reduction is split in 36
// slices of 128, and with last-block-sums one kernel adds them. Each block
// stores its slice, fences, and one thread counts it in the tile's count
// (an atomic add, then a fence); the block whose add returns 35 tells its
// threads through shared memory, sets the count back to zero, fences, and
// adds the 36 slices to the bias in order, its threads striding over the
// 64 x 64 tile, applying the ReLU as it stores into the caller's buffer.
// CHECK-LABEL: func.func @split_bias_relu
// CHECK: %[[PARTIAL:.*]] = memref.alloc() : memref<36x1x64x49xf32>
// CHECK: %[[COUNTS:.*]] = memref.alloc() {dlc.gpu.zeroed} : memref<1xi32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c36{{.*}}) {{.*}} function(@k_layer4_conv) workgroup({{.*}} : memref<16x65xf32, {{.*}}>, {{.*}} : memref<16x65xf32, {{.*}}>, %[[FLAG:.*]] : memref<1xi32, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK-COUNT-16: memref.store {{.*}}, %[[PARTIAL]]
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: %[[BEFORE:.*]] = memref.atomic_rmw addi %c1_i32{{.*}}, %[[COUNTS]][%{{.*}}] : (i32, memref<1xi32>) -> i32
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[BEFORE]], %c35_i32
// CHECK: %[[WORD:.*]] = arith.extui %[[LAST]] : i1 to i32
// CHECK: memref.store %[[WORD]], %[[FLAG]][%c0
// CHECK: scf.if %[[LAST]] {
// CHECK: memref.store %c0_i32{{.*}}, %[[COUNTS]][
// CHECK: gpu.barrier
// CHECK: %[[MINE:.*]] = memref.load %[[FLAG]][%c0
// CHECK: %[[AM:.*]] = arith.cmpi ne, %[[MINE]], %c0_i32
// CHECK: scf.if %[[AM]] {
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4096{{.*}} step %c256
// CHECK: %[[BIAS:.*]] = memref.load %arg2
// CHECK: scf.for {{.*}} = %c0{{.*}} to %c36{{.*}} step %c1{{.*}} iter_args(%[[SUM:.*]] = %[[BIAS]])
// CHECK: memref.load %[[PARTIAL]]
// CHECK: arith.addf %[[SUM]]
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %arg3
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: return

// STATS: dlc-gpu-map-to-threads: {{.*}}fused-epilogues 1, fused-inits 1, {{.*}}kernels 2, last-block-sums 2, ldmatrix-inputs 0, {{.*}}tiled-products 2,

// Without it, a second kernel adds the slices (and nothing counts them).
// TWO-LABEL: func.func @split_bias_relu
// TWO-NOT: dlc.gpu.zeroed
// TWO: function(@k_layer4_conv)
// TWO-NOT: memref.atomic_rmw
// TWO: function(@k_layer4_conv_sum)

// The counts persist, zeroed, from call to call: a zeroed global the
// runtime uploads once, as it does constants, and frees never; the
// partial sums are a buffer of the call.
// HOST: memref.global "private" @dlc_zeroed : memref<1xi32> = dense<0>
// HOST-LABEL: func.func @split_bias_relu
// HOST: %[[PARTIAL:.*]] = gpu.alloc () : memref<36x1x64x49xf32>
// HOST: %[[GLOBAL:.*]] = memref.get_global @dlc_zeroed : memref<1xi32>
// HOST: %[[FLAT:.*]] = memref.reinterpret_cast %[[GLOBAL]]
// HOST: %[[CAST:.*]] = memref.cast %[[FLAT]]
// HOST: %[[DEVICE:.*]] = call @dlc_cuda_constant_i32(%[[CAST]])
// HOST: %[[COUNTS:.*]] = memref.reinterpret_cast %[[DEVICE]]
// HOST: gpu.launch
// HOST: memref.atomic_rmw addi %{{.*}}, %[[COUNTS]]
// HOST: gpu.dealloc %[[PARTIAL]]
// HOST-NOT: gpu.dealloc
// HOST: return

// HOST-STATS: dlc-gpu-host-buffers: buffers 2, constants 0, zeroed-buffers 2
func.func @split_bias_relu(%w: memref<64x4608xf32>, %x: memref<1x4608x49xf32>,
                           %bias: memref<64xf32>, %y: memref<1x64x49xf32>) {
  %acc = memref.alloc() : memref<1x64x49xf32>
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (m)>,
                                   affine_map<(b, m, n) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<64xf32>) outs(%acc : memref<1x64x49xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>,
                                   affine_map<(b, m, n, k) -> (b, k, n)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x : memref<64x4608xf32>, memref<1x4608x49xf32>) outs(%acc : memref<1x64x49xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  } loc("layer4.conv")
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>,
                                   affine_map<(b, m, n) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc : memref<1x64x49xf32>) outs(%y : memref<1x64x49xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// A batch of 2 products of 128 x 128 outputs from 4096 products each,
// accumulated into the output (no fill): 2 x 2 tiles of 64 x 64 a batch,
// each split in 16 slices of 256. Each tile has its count, at (batch x 2 +
// tile row) x 2 + tile column; the last block's sums start from the
// output's values.
// CHECK-LABEL: func.func @batched_accumulate
// CHECK: %[[PARTIAL:.*]] = memref.alloc() : memref<16x2x128x128xf32>
// CHECK: %[[COUNTS:.*]] = memref.alloc() {dlc.gpu.zeroed} : memref<8xi32>
// CHECK: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %[[BZ:.*]]) in ({{.*}} = %c2{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c32{{.*}})
// CHECK: %[[BATCH:.*]] = arith.remui %[[BZ]], %c2
// CHECK: %[[T0:.*]] = arith.muli %[[BATCH]], %c2
// CHECK: %[[T1:.*]] = arith.addi %[[T0]], %[[BY]]
// CHECK: %[[T2:.*]] = arith.muli %[[T1]], %c2
// CHECK: %[[TILE:.*]] = arith.addi %[[T2]], %[[BX]]
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[COUNTS]][%[[TILE]]]
// CHECK: arith.cmpi eq, %{{.*}}, %c15_i32
// CHECK: memref.store %c0_i32{{.*}}, %[[COUNTS]][%[[TILE]]]
// CHECK: %[[INIT:.*]] = memref.load %arg2[%[[BATCH]],
// CHECK: scf.for {{.*}} = %c0{{.*}} to %c16{{.*}} step %c1{{.*}} iter_args(%[[SUM:.*]] = %[[INIT]])
// CHECK: memref.load %[[PARTIAL]][%{{.*}}, %[[BATCH]],
// CHECK: memref.store %{{.*}}, %arg2[%[[BATCH]],
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @batched_accumulate(%a: memref<2x128x4096xf32>, %b: memref<2x4096x128xf32>,
                              %c: memref<2x128x128xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x128x4096xf32>, memref<2x4096x128xf32>)
                      outs(%c : memref<2x128x128xf32>)
  return
}
