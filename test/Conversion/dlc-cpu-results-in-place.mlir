// RUN: dlc-opt %s -split-input-file --dlc-pass-stats \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-cpu-results-in-place))" \
// RUN:   2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats

// The result is computed in the out-parameter: no allocation, no copy.
// CHECK-LABEL: func @kernel
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK-NOT: memref.alloc
// CHECK: linalg.copy ins(%[[X]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @kernel(%x: memref<4xf32>, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A buffer returned twice fills the first out-parameter in place, which
// the second is copied from. A call's buffer (the model function's
// outputs) is replaced as well.
// CHECK-LABEL: func @twice
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[O1:.*]]: memref<4xf32>, %[[O2:.*]]: memref<4xf32>)
// CHECK-NEXT: call @kernel(%[[X]], %[[O1]])
// CHECK-NEXT: memref.copy %[[O1]], %[[O2]]
// CHECK-NEXT: return
func.func private @kernel(memref<4xf32>, memref<4xf32>)
func.func @twice(%x: memref<4xf32>, %o1: memref<4xf32>, %o2: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  call @kernel(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  memref.copy %a, %o1 : memref<4xf32> to memref<4xf32>
  memref.copy %a, %o2 : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Left alone: an out-parameter used before the copy, a copy followed by
// another op, a buffer of another type, and a copy of an argument.
// CHECK-LABEL: func @negatives
// CHECK-COUNT-3: memref.alloc
// CHECK-COUNT-4: memref.copy
func.func @negatives(%x: memref<4xf32>, %o1: memref<4xf32>, %o2: memref<4xf32>,
                     %o3: memref<2x2xf32>, %o4: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  linalg.copy ins(%o1 : memref<4xf32>) outs(%a : memref<4xf32>)
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  %c2 = memref.expand_shape %c [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
  memref.copy %a, %o1 : memref<4xf32> to memref<4xf32>
  memref.copy %c2, %o3 : memref<2x2xf32> to memref<2x2xf32>
  memref.copy %x, %o4 : memref<4xf32> to memref<4xf32>
  memref.copy %b, %o2 : memref<4xf32> to memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// STATS: dlc-cpu-results-in-place: in-place 2
