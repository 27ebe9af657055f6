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

// A band of rows of dynamic height copied into a padded band (a window
// tile's, dlc-cpu-tile-and-fuse): LLVM would call memrefCopy for any view
// of dynamic size, so a linalg.copy too.
// CHECK-LABEL: func @band_rows
// CHECK: %[[FROM:.*]] = memref.subview %arg0
// CHECK: %[[TO:.*]] = memref.subview %arg1
// CHECK: linalg.copy ins(%[[FROM]] : memref<1x?x8x4xf32, strided<[256, 32, 4, 1], offset: ?>>) outs(%[[TO]] : memref<1x?x8x4xf32, strided<[240, 40, 4, 1], offset: ?>>)
// CHECK-NOT: memref.copy
func.func @band_rows(%x: memref<1x8x8x4xf32>, %band: memref<1x6x10x4xf32>, %first: index, %rows: index, %at: index) {
  %from = memref.subview %x[0, %first, 0, 0] [1, %rows, 8, 4] [1, 1, 1, 1] : memref<1x8x8x4xf32> to memref<1x?x8x4xf32, strided<[256, 32, 4, 1], offset: ?>>
  %to = memref.subview %band[0, %at, 1, 0] [1, %rows, 8, 4] [1, 1, 1, 1] : memref<1x6x10x4xf32> to memref<1x?x8x4xf32, strided<[240, 40, 4, 1], offset: ?>>
  memref.copy %from, %to : memref<1x?x8x4xf32, strided<[256, 32, 4, 1], offset: ?>> to memref<1x?x8x4xf32, strided<[240, 40, 4, 1], offset: ?>>
  return
}

// -----

// Contiguous copies stay: they become memcpy. So do copies of dynamic shape
// without a layout.
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
