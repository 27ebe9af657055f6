// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-gpu-host-buffers)" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(dlc-gpu-host-buffers)" --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

// The zeroed buffers' globals (@counts below) come first.
// CHECK: memref.global "private" @dlc_zeroed_0 : memref<8xi32> = dense<0>
// CHECK: memref.global "private" @dlc_zeroed : memref<4xi32> = dense<0>

// Buffers in device memory, freed where the function returns; a constant
// uploaded once by the runtime and viewed with its own type; the function's
// own deallocation dropped.
// CHECK-LABEL: func.func @f
// CHECK: %[[T:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: %[[G:.*]] = memref.get_global @table
// CHECK: %[[F:.*]] = memref.reinterpret_cast %[[G]] to offset: [0], sizes: [4], strides: [1]
// CHECK: %[[D:.*]] = memref.cast %[[F]] : memref<4xf32> to memref<?xf32>
// CHECK: %[[U:.*]] = call @dlc_cuda_constant_f32(%[[D]]) : (memref<?xf32>) -> memref<?xf32>
// CHECK: %[[C:.*]] = memref.reinterpret_cast %[[U]] to offset: [0], sizes: [4], strides: [1] : memref<?xf32> to memref<4xf32>
// CHECK-NOT: gpu.memcpy
// CHECK: gpu.launch
// CHECK: memref.load %[[C]]
// CHECK: memref.store {{.*}}, %[[T]]
// CHECK-NOT: memref.dealloc
// CHECK: gpu.dealloc %[[T]]
// CHECK-NOT: gpu.dealloc
// CHECK: return
func.func @f(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %tmp = memref.alloc() : memref<4xf32>
  %g = memref.get_global @table : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
    %v = memref.load %g[%tx] : memref<4xf32>
    memref.store %v, %tmp[%tx] : memref<4xf32>
    gpu.terminator
  }
  memref.dealloc %tmp : memref<4xf32>
  return
}

// A rank-0 constant, and a second use of the same upload function.
memref.global "private" constant @scale : memref<f32> = dense<2.0>
// CHECK-LABEL: func.func @g
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [1], strides: [1] : memref<f32> to memref<1xf32>
// CHECK: call @dlc_cuda_constant_f32
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [], strides: [] : memref<?xf32> to memref<f32>
func.func @g(%out: memref<f32>) {
  %c1 = arith.constant 1 : index
  %s = memref.get_global @scale : memref<f32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
    %v = memref.load %s[] : memref<f32>
    memref.store %v, %out[] : memref<f32>
    gpu.terminator
  }
  return
}


// STATS: dlc-gpu-host-buffers: buffers 1, constants 2, zeroed-buffers 2

// Buffers the kernels leave zeroed (dlc.gpu.zeroed: split products' counts
// of finished slices) are zeroed globals of their own, each with its own
// name (at the module's start), uploaded once like constants and never
// freed.
// CHECK-LABEL: func.func @counts
// CHECK: %[[A:.*]] = memref.get_global @dlc_zeroed : memref<4xi32>
// CHECK: call @dlc_cuda_constant_i32
// CHECK: %[[B:.*]] = memref.get_global @dlc_zeroed_0 : memref<8xi32>
// CHECK: call @dlc_cuda_constant_i32
// CHECK-NOT: gpu.dealloc
// CHECK: return
func.func @counts() {
  %a = memref.alloc() {dlc.gpu.zeroed} : memref<4xi32>
  %b = memref.alloc() {dlc.gpu.zeroed} : memref<8xi32>
  call @use(%a, %b) : (memref<4xi32>, memref<8xi32>) -> ()
  return
}
func.func private @use(memref<4xi32>, memref<8xi32>)

// One declaration per element type, with a C interface.
// CHECK: func.func private @dlc_cuda_constant_f32(memref<?xf32>) -> memref<?xf32> attributes {llvm.emit_c_interface}
// CHECK-NOT: func.func private @dlc_cuda_constant_f32
