// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// A loop over blocks (dlc-tile-attention's, bufferized) is one kernel: a
// thread block per iteration (2 heads x 2 blocks of 4 rows), 128 threads,
// the buffers of its body in shared memory (their views too), each op run
// by the block's threads: a thread per output taking outputs 128 apart
// (256 scores), a warp per row for the 4 rows' maximum (fewer outputs than
// threads; shuffles), a barrier between two ops.
// CHECK-LABEL: func.func @blocks
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks(%[[H:.*]], %[[R:.*]], %{{.*}}) in (%{{.*}} = %[[C2]], %{{.*}} = %[[C2]], %{{.*}}) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]], {{.*}}) workgroup(%[[S:.*]] : memref<1x4x64xf32, #gpu.address_space<workgroup>>, %[[MAX:.*]] : memref<1x4x1xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[ROW:.*]] = arith.muli %[[R]], %c4
// CHECK: memref.subview %arg0[%[[H]], %[[ROW]], 0] [1, 4, 16]
// CHECK: scf.for %{{.*}} = %[[T]] to %[[C256]] step %[[C128]]
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %[[T]] to %[[C256]] step %[[C128]]
// CHECK: scf.for {{.*}} iter_args
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK: memref.collapse_shape %[[MAX]] {{.*}} into memref<1x4xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: %[[WARP:.*]] = arith.divui %[[T]], %c32
// CHECK: scf.for %{{.*}} = %[[WARP]] to %c4 step %c4
// CHECK: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: math.exp
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: return
#prod_a = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#prod_b = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#prod_c = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (d0, d1, 0)>

func.func @blocks(%q: memref<2x8x16xf32>, %kt: memref<2x16x64xf32>, %out: memref<2x8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  scf.forall (%h, %r) = (0, 0) to (2, 8) step (1, 4) {
    %qb = memref.subview %q[%h, %r, 0] [1, 4, 16] [1, 1, 1] : memref<2x8x16xf32> to memref<1x4x16xf32, strided<[128, 16, 1], offset: ?>>
    %kh = memref.subview %kt[%h, 0, 0] [1, 16, 64] [1, 1, 1] : memref<2x16x64xf32> to memref<1x16x64xf32, strided<[1024, 64, 1], offset: ?>>
    %s = memref.alloc() : memref<1x4x64xf32>
    linalg.fill ins(%zero : f32) outs(%s : memref<1x4x64xf32>)
    linalg.generic {indexing_maps = [#prod_a, #prod_b, #prod_c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%qb, %kh : memref<1x4x16xf32, strided<[128, 16, 1], offset: ?>>, memref<1x16x64xf32, strided<[1024, 64, 1], offset: ?>>) outs(%s : memref<1x4x64xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %t = arith.addf %c, %m : f32
      linalg.yield %t : f32
    }
    %max = memref.alloc() : memref<1x4x1xf32>
    %max2 = memref.collapse_shape %max [[0], [1, 2]] : memref<1x4x1xf32> into memref<1x4xf32>
    linalg.fill ins(%ninf : f32) outs(%max2 : memref<1x4xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%s : memref<1x4x64xf32>) outs(%max2 : memref<1x4xf32>) {
    ^bb0(%a: f32, %c: f32):
      %t = arith.maximumf %c, %a : f32
      linalg.yield %t : f32
    }
    %ob = memref.subview %out[%h, %r, 0] [1, 4, 64] [1, 1, 1] : memref<2x8x64xf32> to memref<1x4x64xf32, strided<[512, 64, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%s, %max : memref<1x4x64xf32>, memref<1x4x1xf32>) outs(%ob : memref<1x4x64xf32, strided<[512, 64, 1], offset: ?>>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %t = arith.subf %a, %b : f32
      %e = math.exp %t : f32
      linalg.yield %e : f32
    }
  }
  return
}

// -----

// Buffers of more than 48 KiB (64 KiB) in the kernel's dynamic shared
// memory, one view each.
// CHECK-LABEL: func.func @wide
// CHECK: %[[BYTES:.*]] = arith.constant 65536 : i32
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %[[BYTES]]
// CHECK-NOT: workgroup(
// CHECK: %[[SHARED:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SHARED]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x8192xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SHARED]][%c32768{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x8192xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
func.func @wide(%x: memref<4x8192xf32>, %out: memref<4x8192xf32>) {
  scf.forall (%r) in (4) {
    %xr = memref.subview %x[%r, 0] [1, 8192] [1, 1] : memref<4x8192xf32> to memref<1x8192xf32, strided<[8192, 1], offset: ?>>
    %t = memref.alloc() : memref<1x8192xf32>
    %u = memref.alloc() : memref<1x8192xf32>
    linalg.copy ins(%xr : memref<1x8192xf32, strided<[8192, 1], offset: ?>>) outs(%t : memref<1x8192xf32>)
    linalg.copy ins(%t : memref<1x8192xf32>) outs(%u : memref<1x8192xf32>)
    %or = memref.subview %out[%r, 0] [1, 8192] [1, 1] : memref<4x8192xf32> to memref<1x8192xf32, strided<[8192, 1], offset: ?>>
    linalg.copy ins(%u : memref<1x8192xf32>) outs(%or : memref<1x8192xf32, strided<[8192, 1], offset: ?>>)
  }
  return
}

// -----

// A loop of a dynamic bound that allocates nothing: a parallel loop like
// any other (of a dynamic bound: one thread runs it).
// CHECK-LABEL: func.func @dynamic
// CHECK: gpu.launch
// CHECK-NOT: workgroup(
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%dim) step (%c1)
func.func @dynamic(%x: memref<?x16xf32>, %out: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x16xf32>
  scf.forall (%r) in (%n) {
    %xr = memref.subview %x[%r, 0] [1, 16] [1, 1] : memref<?x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
    %or = memref.subview %out[%r, 0] [1, 16] [1, 1] : memref<?x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
    linalg.copy ins(%xr : memref<1x16xf32, strided<[16, 1], offset: ?>>) outs(%or : memref<1x16xf32, strided<[16, 1], offset: ?>>)
  }
  return
}

// (the counters summed over the two functions)
// STATS: dlc-gpu-map-to-threads: {{.*}}block-kernels 2, block-loops-on-threads 1, {{.*}}kernels 3,
