// RUN: dlc-opt %s --pass-pipeline="builtin.module(gpu.module(dlc-gpu-extern-dynamic-shared))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(gpu.module(dlc-gpu-extern-dynamic-shared))" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// convert-gpu-to-nvvm's symbol for gpu.dynamic_shared_memory (no elements,
// address space 3) is declared external: NVPTX then declares it
// `.extern .shared .align 16 .b8 __dynamic_shmem__0[]`, the launch's dynamic
// shared memory, instead of a one-byte variable of each kernel. A
// workgroup buffer of the kernel's own (elements) and a global of no
// elements elsewhere (address space 1) stay as they are.
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<64 x i32>
// CHECK: llvm.mlir.global internal @empty_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
gpu.module @kernels {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<64 x i32>
  llvm.mlir.global internal @empty_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
}

// STATS: dlc-gpu-extern-dynamic-shared
// STATS-DAG: declared-external{{ +}}1
