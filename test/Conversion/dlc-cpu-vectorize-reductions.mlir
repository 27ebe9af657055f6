// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-vectorize-reductions{vector-bits=512}))" | FileCheck %s

// A row sum into a kept dimension: 16 lanes of partial sums over the 768
// elements, one horizontal reduction, then the output's value added.
// CHECK-LABEL: func @row_sum
// CHECK: scf.for %[[I:.*]] = %c0 to %c128 step %c1
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: %[[ACC:.*]] = scf.for %[[K:.*]] = %c0{{.*}} to %c768 step %c16 iter_args(%[[P:.*]] = %[[ZERO]]) -> (vector<16xf32>)
// CHECK: %[[X:.*]] = vector.transfer_read %arg0[%[[I]], %[[K]]]{{.*}} {in_bounds = [true]} {{.*}}, vector<16xf32>
// CHECK: %[[S:.*]] = arith.addf %[[P]], %[[X]] : vector<16xf32>
// CHECK: scf.yield %[[S]]
// CHECK: %[[R:.*]] = vector.reduction <add>, %[[ACC]] fastmath<reassoc> : vector<16xf32> into f32
// CHECK: %[[OLD:.*]] = memref.load %arg1[%[[I]], %c0{{.*}}]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[R]] : f32
// CHECK: memref.store %[[NEW]], %arg1[%[[I]], %c0{{.*}}]
// CHECK-NOT: linalg.generic
func.func @row_sum(%a: memref<128x768xf32>, %c: memref<128x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<128x768xf32>) outs(%c : memref<128x1xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %z, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A softmax's sum of exp(x - max): the row's values become vectors, the
// max read once per row and broadcast; 37 = 2 x 16 + 5: a scalar loop over
// the last five. Max from minus infinity.
// CHECK-LABEL: func @exp_sum_tail
// CHECK: scf.for %[[I:.*]] = %c0 to %c6 step %c1
// CHECK: %[[M:.*]] = memref.load %arg1[%[[I]]]
// CHECK: %[[MV:.*]] = vector.broadcast %[[M]] : f32 to vector<16xf32>
// CHECK: %[[D:.*]] = arith.subf %{{.*}}, %[[MV]] : vector<16xf32>
// CHECK: math.exp %[[D]] : vector<16xf32>
// CHECK: %[[R:.*]] = vector.reduction <add>
// CHECK: %[[T:.*]] = scf.for %{{.*}} = %c32{{.*}} to %c37 step %c1{{.*}} iter_args(%{{.*}} = %[[R]]) -> (f32)
// CHECK: memref.load %arg0
// CHECK: arith.subf %{{.*}}, %[[M]] : f32
// CHECK: math.exp %{{.*}} : f32
// CHECK: %[[OLD:.*]] = memref.load %arg2[%[[I]]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[T]] : f32
// CHECK: memref.store %[[NEW]], %arg2[%[[I]]]
func.func @exp_sum_tail(%a: memref<6x37xf32>, %m: memref<6xf32>, %c: memref<6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a, %m : memref<6x37xf32>, memref<6xf32>) outs(%c : memref<6xf32>) {
  ^bb0(%x: f32, %mx: f32, %z: f32):
    %d = arith.subf %x, %mx : f32
    %e = math.exp %d : f32
    %s = arith.addf %e, %z : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A row max on a tile's strided view: the partial maxima start at minus
// infinity; 8 elements: 8 lanes.
// CHECK-LABEL: func @row_max_view
// CHECK: arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK: vector.transfer_read {{.*}} vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: vector.reduction <maximumf>
func.func @row_max_view(%a: memref<4x8xf32, strided<[16, 1], offset: ?>>, %c: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x8xf32, strided<[16, 1], offset: ?>>) outs(%c : memref<4xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.maximumf %z, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: a reduction along a column (not contiguous), a row of three,
// a reduction that is not the last loop, and a body that is not a plain
// combination (the output read twice).
// CHECK-LABEL: func @negative
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: vector.reduction
func.func @negative(%a: memref<8x16xf32>, %b: memref<4x3xf32>, %c: memref<16xf32>, %d: memref<4xf32>, %e: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8x16xf32>) outs(%c : memref<16xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %z, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%b : memref<4x3xf32>) outs(%d : memref<4xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %z, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (i)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<8x16xf32>) outs(%e : memref<8xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %z, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8x16xf32>) outs(%e : memref<8xf32>) {
  ^bb0(%x: f32, %z: f32):
    %p = arith.mulf %z, %x : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}
