// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-name-constants)" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-name-constants)" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// Bufferization named these in the order it happened to visit @second
// before @first: they are renamed by first use in the module (the unused
// one last), keep their type in the name, and move to the front in that
// order. Other globals keep their names.
// CHECK: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<1.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<2.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_2xi32 : memref<2xi32> = dense<3>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<4.000000e+00>
// CHECK: memref.global "private" constant @weights_0 : memref<4xf32>
// CHECK-LABEL: func.func @first
// CHECK: memref.get_global @__constant_4xf32 :
// CHECK-LABEL: func.func @second
// CHECK: memref.get_global @__constant_4xf32_0 :
// CHECK: memref.get_global @__constant_2xi32 :
// CHECK: memref.get_global @weights_0 :
// STATS: dlc-name-constants: globals 4
module {
  memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<4.0>
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<2.0>
  memref.global "private" constant @weights_0 : memref<4xf32> = dense<5.0>
  memref.global "private" constant @__constant_2xi32 : memref<2xi32> = dense<3>
  memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<1.0>
  func.func @first() -> memref<4xf32> {
    %0 = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    return %0 : memref<4xf32>
  }
  func.func @second() -> (memref<4xf32>, memref<2xi32>, memref<4xf32>) {
    %0 = memref.get_global @__constant_4xf32 : memref<4xf32>
    %1 = memref.get_global @__constant_2xi32 : memref<2xi32>
    %2 = memref.get_global @weights_0 : memref<4xf32>
    return %0, %1, %2 : memref<4xf32>, memref<2xi32>, memref<4xf32>
  }
}
