// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-host-buffers))" 2>&1 -o /dev/null | FileCheck %s


func.func @in_region(%cond: i1) {
  scf.if %cond {
    // CHECK: error: a buffer allocated inside a region cannot be put in device memory
    %tmp = memref.alloc() : memref<4xf32>
  }
  return
}
