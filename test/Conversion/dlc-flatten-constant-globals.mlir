// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-flatten-constant-globals)" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-flatten-constant-globals)" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// What memref.get_global lowers to: the global's address and a
// getelementptr of zeros through its type. Nested constant arrays of
// scalars become one flat array of the same values, and the zero
// getelementptrs go.
// CHECK: llvm.mlir.global private constant @weights(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<6 x f32>
// CHECK: llvm.mlir.global private constant @splat(dense<7> : tensor<24xi8>) {addr_space = 0 : i32} : !llvm.array<24 x i8>
// CHECK: llvm.mlir.global private constant @blob(dense_resource<blob> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
// A global indexed elsewhere is flattened too: its getelementptrs name
// the old type, so they compute the same addresses. Those not constant,
// without a value or flat already keep their types.
// CHECK: llvm.mlir.global private constant @indexed(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
// CHECK: llvm.mlir.global private @written(dense<0.000000e+00> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>
// CHECK: llvm.mlir.global private constant @flat(dense<1.000000e+00> : tensor<8xf32>) {addr_space = 0 : i32} : !llvm.array<8 x f32>
// CHECK: llvm.mlir.global external constant @declared() {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>
// CHECK-LABEL: llvm.func @use
// CHECK-NEXT: %[[W:.*]] = llvm.mlir.addressof @weights : !llvm.ptr
// CHECK-NEXT: llvm.load %[[W]] : !llvm.ptr -> f32
// CHECK-NEXT: %[[S:.*]] = llvm.mlir.addressof @splat : !llvm.ptr
// CHECK-NEXT: llvm.load %[[S]] : !llvm.ptr -> i8
// CHECK-NEXT: %[[B:.*]] = llvm.mlir.addressof @blob : !llvm.ptr
// CHECK-NEXT: llvm.load %[[B]] : !llvm.ptr -> f32
// CHECK-NEXT: %[[I:.*]] = llvm.mlir.addressof @indexed : !llvm.ptr
// CHECK-NEXT: llvm.getelementptr %[[I]][0, 1, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<2 x f32>>
// STATS: dlc-flatten-constant-globals: flattened 4
module {
  llvm.mlir.global private constant @weights(dense<[[[1.0, 2.0]], [[3.0, 4.0]], [[5.0, 6.0]]]> : tensor<3x1x2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<3 x array<1 x array<2 x f32>>>
  llvm.mlir.global private constant @splat(dense<7> : tensor<2x3x4xi8>) {addr_space = 0 : i32} : !llvm.array<2 x array<3 x array<4 x i8>>>
  llvm.mlir.global private constant @blob(dense_resource<blob> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>
  llvm.mlir.global private constant @indexed(dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>
  llvm.mlir.global private @written(dense<0.0> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>
  llvm.mlir.global private constant @flat(dense<1.0> : tensor<8xf32>) {addr_space = 0 : i32} : !llvm.array<8 x f32>
  llvm.mlir.global external constant @declared() {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>
  llvm.func @use() {
    %0 = llvm.mlir.addressof @weights : !llvm.ptr
    %1 = llvm.getelementptr %0[0, 0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<3 x array<1 x array<2 x f32>>>
    %2 = llvm.load %1 : !llvm.ptr -> f32
    %3 = llvm.mlir.addressof @splat : !llvm.ptr
    %4 = llvm.getelementptr %3[0, 0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<3 x array<4 x i8>>>
    %5 = llvm.load %4 : !llvm.ptr -> i8
    %6 = llvm.mlir.addressof @blob : !llvm.ptr
    %7 = llvm.getelementptr %6[0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<2 x f32>>
    %8 = llvm.load %7 : !llvm.ptr -> f32
    %9 = llvm.mlir.addressof @indexed : !llvm.ptr
    %10 = llvm.getelementptr %9[0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<2 x f32>>
    %11 = llvm.getelementptr %9[0, 1, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<2 x f32>>
    llvm.return
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
