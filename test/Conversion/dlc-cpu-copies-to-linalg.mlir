// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-copies-to-linalg))" | FileCheck %s

// A padded tensor's interior is written through a strided view: a linalg.copy
// (loops LLVM vectorizes) instead of the element-wise memrefCopy runtime.
// CHECK-LABEL: func @pad_interior
// CHECK: %[[VIEW:.*]] = memref.subview
// CHECK: linalg.copy ins(%arg0 : memref<1x2x4x4xf32>) outs(%[[VIEW]] : memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>)
// CHECK-NOT: memref.copy
func.func @pad_interior(%x: memref<1x2x4x4xf32>, %padded: memref<1x2x6x6xf32>) {
  %v = memref.subview %padded[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x2x6x6xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  memref.copy %x, %v : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  return
}

// -----

// Contiguous copies stay: they become memcpy. So do copies with dynamic shapes.
// CHECK-LABEL: func @negative_contiguous
// CHECK: memref.copy %arg0, %arg1
// CHECK: memref.copy %[[A:.*]], %[[B:.*]] : memref<1x8xf32, strided<[16, 1], offset: 8>>
// CHECK: memref.copy %arg2, %arg3 : memref<?xf32>
// CHECK-NOT: linalg.copy
func.func @negative_contiguous(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<?xf32>, %d: memref<?xf32>, %e: memref<2x16xf32>) {
  memref.copy %a, %b : memref<4x4xf32> to memref<4x4xf32>
  %row = memref.subview %e[0, 8] [1, 8] [1, 1] : memref<2x16xf32> to memref<1x8xf32, strided<[16, 1], offset: 8>>
  %row2 = memref.subview %e[1, 8] [1, 8] [1, 1] : memref<2x16xf32> to memref<1x8xf32, strided<[16, 1], offset: 24>>
  memref.copy %row, %row2 : memref<1x8xf32, strided<[16, 1], offset: 8>> to memref<1x8xf32, strided<[16, 1], offset: 24>>
  memref.copy %c, %d : memref<?xf32> to memref<?xf32>
  return
}
