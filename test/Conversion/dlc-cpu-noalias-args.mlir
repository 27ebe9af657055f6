// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-noalias-args))" | FileCheck %s

// CHECK-LABEL: func @public
// CHECK-SAME: (%arg0: memref<4xf32> {llvm.noalias}, %arg1: index, %arg2: memref<4xf32> {llvm.noalias})
func.func @public(%a: memref<4xf32>, %i: index, %b: memref<4xf32>) {
  return
}

// -----

// Private functions can be called with aliasing buffers: left alone.
// CHECK-LABEL: func private @negative_private
// CHECK-SAME: (%arg0: memref<4xf32>, %arg1: memref<4xf32>)
func.func private @negative_private(%a: memref<4xf32>, %b: memref<4xf32>) {
  return
}
