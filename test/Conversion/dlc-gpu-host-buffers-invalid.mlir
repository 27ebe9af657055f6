// RUN: not dlc-opt %s --split-input-file --pass-pipeline="builtin.module(dlc-gpu-host-buffers)" 2>&1 -o /dev/null | FileCheck %s

func.func @in_region(%cond: i1) {
  scf.if %cond {
    // CHECK: error: a buffer allocated inside a region cannot be put in device memory
    %tmp = memref.alloc() : memref<4xf32>
  }
  return
}

// -----

func.func @zeroed_in_region(%cond: i1) {
  scf.if %cond {
    // CHECK: error: a buffer allocated inside a region cannot be put in device memory
    %counts = memref.alloc() {dlc.gpu.zeroed} : memref<4xi32>
  }
  return
}

// -----

memref.global "private" constant @c : memref<2xcomplex<f32>> = dense<[(1.0, 2.0), (3.0, 4.0)]>
func.func @complex_constant() {
  // CHECK: error: a constant of element type complex<f32> cannot be put in device memory
  %g = memref.get_global @c : memref<2xcomplex<f32>>
  return
}
