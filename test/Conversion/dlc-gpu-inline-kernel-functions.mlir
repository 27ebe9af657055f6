// RUN: dlc-opt %s --dlc-gpu-inline-kernel-functions | FileCheck %s
// RUN: dlc-opt %s --dlc-gpu-inline-kernel-functions --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// Calls of kernel functions become their bodies, and the functions go;
// other functions stay called.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[A:.*]] = memref.alloc
// CHECK-NEXT: linalg.copy ins(%arg0 : memref<4xf32>) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT: linalg.copy ins(%[[A]] : memref<4xf32>) outs(%arg1 : memref<4xf32>)
// CHECK-NEXT: call @helper
// CHECK-NOT: func.func private @k
// CHECK: func.func private @helper
func.func @main(%x: memref<4xf32>, %y: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  call @k(%x, %t) : (memref<4xf32>, memref<4xf32>) -> ()
  call @k(%t, %y) : (memref<4xf32>, memref<4xf32>) -> ()
  call @helper() : () -> ()
  return
}
func.func private @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {dlc.kernel = "graph.relu"} {
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}
func.func private @helper() {
  return
}

// STATS: dlc-gpu-inline-kernel-functions: inlined 2
