// RUN: dlc-opt %s -split-input-file --dlc-cpu-pad-borders | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-pad-borders --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s -split-input-file --dlc-cpu-pad-borders | mlir-opt -split-input-file --one-shot-bufferize="bufferize-function-boundaries" --cse --canonicalize | FileCheck %s --check-prefix=BUF

// STATS: dlc-cpu-pad-borders: borders 2, left 0{{$}}

// A plane padded by 1 above and left, 2 right, none below: the fills cover
// the rows above (all columns), then the left and right columns of the
// source's rows only, and the source goes into the rest.
// CHECK-LABEL: func @plane
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x5x7x16xf32>
// CHECK-NEXT: %[[S0:.*]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 1, 7, 16] [1, 1, 1, 1]
// CHECK-NEXT: %[[F0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S0]] : tensor<1x1x7x16xf32>)
// CHECK-NEXT: %[[R0:.*]] = tensor.insert_slice %[[F0]] into %[[E]][0, 0, 0, 0] [1, 1, 7, 16] [1, 1, 1, 1]
// CHECK-NEXT: %[[S1:.*]] = tensor.extract_slice %[[R0]][0, 1, 0, 0] [1, 4, 1, 16] [1, 1, 1, 1]
// CHECK-NEXT: %[[F1:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S1]] : tensor<1x4x1x16xf32>)
// CHECK-NEXT: %[[R1:.*]] = tensor.insert_slice %[[F1]] into %[[R0]][0, 1, 0, 0] [1, 4, 1, 16] [1, 1, 1, 1]
// CHECK-NEXT: %[[S2:.*]] = tensor.extract_slice %[[R1]][0, 1, 5, 0] [1, 4, 2, 16] [1, 1, 1, 1]
// CHECK-NEXT: %[[F2:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S2]] : tensor<1x4x2x16xf32>)
// CHECK-NEXT: %[[R2:.*]] = tensor.insert_slice %[[F2]] into %[[R1]][0, 1, 5, 0] [1, 4, 2, 16] [1, 1, 1, 1]
// CHECK-NEXT: %[[R:.*]] = tensor.insert_slice %arg0 into %[[R2]][0, 1, 1, 0] [1, 4, 4, 16] [1, 1, 1, 1]
// CHECK-NOT: tensor.pad
// CHECK: return %[[R]]
// In place once bufferized: one buffer, three fills of its views, one copy
// (bufferization copies each filled view onto itself, which CSE and
// canonicalization erase, as in the CPU pipeline). The pads left alone are
// in dlc-cpu-pad-borders-negative.mlir: upstream bufferization rejects a crop.
// BUF-LABEL: func @plane
// BUF: memref.alloc() {{.*}} : memref<1x5x7x16xf32>
// BUF-NOT: memref.alloc
// BUF-COUNT-3: linalg.fill
// BUF-NOT: linalg.fill
// BUF: memref.copy
// BUF-NOT: memref.copy
func.func @plane(%x: tensor<1x4x4x16xf32>) -> tensor<1x5x7x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 0, 2, 0] {
  ^bb0(%n: index, %h: index, %w: index, %c: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x16xf32> to tensor<1x5x7x16xf32>
  return %p : tensor<1x5x7x16xf32>
}

// -----

// A pooling's padding with the lowest value, in a thread's tile: below
// the rows as well.
// CHECK-LABEL: func @lowest
// CHECK-DAG: %[[LOW:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[LOW]] : f32) outs({{.*}} : tensor<1x3xf32>)
// CHECK: linalg.fill ins(%[[LOW]] : f32) outs({{.*}} : tensor<1x3xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[1, 0] [2, 3] [1, 1]
// CHECK-NOT: tensor.pad
// BUF-LABEL: func @lowest
func.func @lowest(%x: tensor<8x3xf32>, %i: index) -> tensor<4x3xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %s = tensor.extract_slice %x[%i, 0] [2, 3] [1, 1] : tensor<8x3xf32> to tensor<2x3xf32>
  %p = tensor.pad %s low[1, 0] high[1, 0] {
  ^bb0(%a: index, %b: index):
    tensor.yield %lowest : f32
  } : tensor<2x3xf32> to tensor<4x3xf32>
  return %p : tensor<4x3xf32>
}
