// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-host-buffers))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-host-buffers))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

// Buffers in device memory, freed where the function returns; a constant
// copied into one; the function's own deallocation dropped.
// CHECK-LABEL: func.func @f
// CHECK: %[[T:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: %[[G:.*]] = memref.get_global @table
// CHECK: %[[C:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: gpu.memcpy %[[C]], %[[G]]
// CHECK: gpu.launch
// CHECK: memref.load %[[C]]
// CHECK: memref.store {{.*}}, %[[T]]
// CHECK-NOT: memref.dealloc
// CHECK: gpu.dealloc %[[T]]
// CHECK: gpu.dealloc %[[C]]
// CHECK-NEXT: return
func.func @f(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %tmp = memref.alloc() : memref<4xf32>
  %g = memref.get_global @table : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
    %v = memref.load %g[%tx] : memref<4xf32>
    memref.store %v, %tmp[%tx] : memref<4xf32>
    gpu.terminator
  }
  memref.dealloc %tmp : memref<4xf32>
  return
}

// STATS: dlc-gpu-host-buffers: buffers 1, constants 1
