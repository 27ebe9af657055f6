// RUN: dlc-opt %s -split-input-file --dlc-cpu-tile-buffers | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-tile-buffers="max-bytes=1024" | FileCheck %s --check-prefix=SMALL
// RUN: dlc-opt %s -split-input-file --dlc-cpu-tile-buffers --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: dlc-cpu-tile-buffers: hoisted 1, stacked 1{{$}}

// A tile buffer in a parallel loop goes on the stack (one per thread).
// CHECK-LABEL: func @parallel
// CHECK: scf.forall
// CHECK-NEXT: memref.alloca() {alignment = 64 : i64} : memref<48x256xf32>
// CHECK-NOT: memref.alloc()
// Over max-bytes: left on the heap.
// SMALL-LABEL: func @parallel
// SMALL: scf.forall
// SMALL-NEXT: memref.alloc()
func.func @parallel(%out: memref<96x512xf32>) {
  scf.forall (%i, %j) = (0, 0) to (96, 512) step (48, 256) {
    %t = memref.alloc() {alignment = 64 : i64} : memref<48x256xf32>
    %v = memref.subview %out[%i, %j] [48, 256] [1, 1] : memref<96x512xf32> to memref<48x256xf32, strided<[512, 1], offset: ?>>
    memref.copy %t, %v : memref<48x256xf32> to memref<48x256xf32, strided<[512, 1], offset: ?>>
  }
  return
}

// -----

// In sequential loops, one buffer before the outermost loop serves every
// iteration; a buffer outside any loop stays where it is.
// CHECK-LABEL: func @sequential
// CHECK: memref.alloc() : memref<8xf32>
// CHECK: memref.alloc() : memref<16xf32>
// CHECK-NEXT: scf.for
// CHECK-NEXT: scf.for
// CHECK-NOT: memref.alloc
func.func @sequential(%out: memref<4x4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %outside = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %t = memref.alloc() : memref<16xf32>
      %v = memref.subview %out[%i, %j, 0] [1, 1, 16] [1, 1, 1] : memref<4x4x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      memref.copy %t, %v : memref<16xf32> to memref<16xf32, strided<[1], offset: ?>>
    }
  }
  memref.dealloc %outside : memref<8xf32>
  return
}
