// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" 2>&1 -o /dev/null | FileCheck %s

// A loop over blocks whose buffers (128 KiB) exceed a block's shared memory
// (96 KiB): its iterations a thread each would allocate them on the
// device's heap at every run, so it is refused, naming the loop.
func.func @too_large(%x: memref<4x16384xf32>, %out: memref<4x16384xf32>) {
  // CHECK: :[[@LINE+1]]:3: error: cannot run on the GPU: a loop over blocks whose body allocates buffers runs as one kernel, a block per iteration, only with static bounds, at most three dimensions, buffers of static shapes that fit in 96 KiB of shared memory, and views, linalg ops and arithmetic
  scf.forall (%r) in (4) {
    %xr = memref.subview %x[%r, 0] [1, 16384] [1, 1] : memref<4x16384xf32> to memref<1x16384xf32, strided<[16384, 1], offset: ?>>
    %t = memref.alloc() : memref<2x16384xf32>
    %t0 = memref.subview %t[0, 0] [1, 16384] [1, 1] : memref<2x16384xf32> to memref<1x16384xf32, strided<[16384, 1]>>
    linalg.copy ins(%xr : memref<1x16384xf32, strided<[16384, 1], offset: ?>>) outs(%t0 : memref<1x16384xf32, strided<[16384, 1]>>)
    %or = memref.subview %out[%r, 0] [1, 16384] [1, 1] : memref<4x16384xf32> to memref<1x16384xf32, strided<[16384, 1], offset: ?>>
    linalg.copy ins(%t0 : memref<1x16384xf32, strided<[16384, 1]>>) outs(%or : memref<1x16384xf32, strided<[16384, 1], offset: ?>>)
  }
  return
}
