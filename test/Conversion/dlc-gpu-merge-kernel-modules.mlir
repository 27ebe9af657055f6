// RUN: dlc-opt %s --dlc-gpu-merge-kernel-modules | FileCheck %s
// RUN: dlc-opt %s --dlc-gpu-merge-kernel-modules --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// Two outlined kernel modules become one, @dlc_kernels; the launches refer
// to the kernels there.
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @dlc_kernels::@a blocks
// CHECK: gpu.launch_func @dlc_kernels::@b blocks
// CHECK-NOT: gpu.module
// A helper both kernels call (cloned into both modules) is kept once.
// CHECK: gpu.module @dlc_kernels {
// CHECK: gpu.func @a(
// CHECK: call @helper
// CHECK: func.func private @helper
// CHECK: gpu.func @b(
// CHECK: call @helper
// CHECK-NOT: func.func private @helper
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @main(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @b::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
  gpu.module @a {
    gpu.func @a(%x: memref<4xf32>) kernel {
      %0 = func.call @helper() : () -> i32
      gpu.return
    }
    func.func private @helper() -> i32 {
      %0 = arith.constant 1 : i32
      return %0 : i32
    }
  }
  gpu.module @b {
    gpu.func @b(%x: memref<4xf32>) kernel {
      %0 = func.call @helper() : () -> i32
      gpu.return
    }
    func.func private @helper() -> i32 {
      %0 = arith.constant 1 : i32
      return %0 : i32
    }
  }
}

// STATS: dlc-gpu-merge-kernel-modules: kernels 2
