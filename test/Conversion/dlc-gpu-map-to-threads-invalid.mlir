// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads))" 2>&1 -o /dev/null | FileCheck %s
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-gpu-map-to-threads{tile-depth=8}))" 2>&1 -o /dev/null | FileCheck %s --check-prefix=DEPTH
// DEPTH: error: dlc-gpu-map-to-threads: tile-depth=8 is not a tile depth (16 or 32, or 0: chosen)

// A scalar computed on the GPU between two calls and used after the second
// would have to cross from one kernel to another.
func.func private @kernel_function(memref<4xf32>)
func.func @scalar_across_call(%a: memref<4xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  // CHECK: error: cannot run on the GPU: a value computed between kernel calls is used after the next one
  %x = memref.load %a[%c0] : memref<4xf32>
  call @kernel_function(%a) : (memref<4xf32>) -> ()
  memref.store %x, %out[] : memref<f32>
  return
}
