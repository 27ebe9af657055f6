// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-simplify-expr))" | FileCheck %s

// CHECK-LABEL: func @add_self
// CHECK: %[[TWO:.*]] = graph.constant dense<2.000000e+00> : tensor<f32>
// CHECK: graph.mul %arg0, %[[TWO]]
func.func @add_self(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @div_sqrt
// CHECK: %[[R:.*]] = graph.rsqrt %arg1
// CHECK: graph.mul %arg0, %[[R]]
func.func @div_sqrt(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %s = graph.sqrt %y : tensor<4xf32>
  %0 = graph.div %x, %s : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @identities
// CHECK-NEXT: return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0
func.func @identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %z = graph.constant dense<0.0> : tensor<4xf32>
  %o = graph.constant dense<1.0> : tensor<f32>
  %0 = graph.add %x, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.add %z, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.sub %x, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.mul %x, %o : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = graph.mul %o, %x : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = graph.div %x, %o : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// 0 - x and 1 / x are not identities; x + 0 that broadcasts x is not either.
// CHECK-LABEL: func @negative_identities
// CHECK: graph.sub
// CHECK: graph.div
// CHECK: graph.add
func.func @negative_identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>) {
  %z = graph.constant dense<0.0> : tensor<4xf32>
  %o = graph.constant dense<1.0> : tensor<4xf32>
  %zz = graph.constant dense<0.0> : tensor<2x4xf32>
  %0 = graph.sub %z, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.div %o, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.add %x, %zz : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func @reshapes
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<24xf32>
// CHECK-NEXT: return %[[R]], %arg0
func.func @reshapes(%x: tensor<2x3x4xf32>) -> (tensor<24xf32>, tensor<2x3x4xf32>) {
  %0 = graph.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = graph.expand_dims %0 {axes = array<i64: 0>} : (tensor<6x4xf32>) -> tensor<1x6x4xf32>
  %2 = graph.reshape %1 : (tensor<1x6x4xf32>) -> tensor<24xf32>
  %3 = graph.reshape %x : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %2, %3 : tensor<24xf32>, tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func @transposes
// CHECK-NEXT: %[[T:.*]] = graph.transpose %arg0 {perm = array<i64: 2, 0, 1>}
// CHECK-NEXT: return %arg0, %[[T]], %arg0
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = graph.transpose %0 {perm = array<i64: 1, 0, 2>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %2 = graph.transpose %0 {perm = array<i64: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %3 = graph.transpose %x {perm = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %1, %2, %3 : tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func @layout_round_trip
// CHECK-NEXT: return %arg0
func.func @layout_round_trip(%x: tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32> {
  %0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW8c"} : (tensor<1x16x7x7xf32>) -> tensor<1x2x7x7x8xf32>
  %1 = graph.layout_transform %0 {src_layout = "NCHW8c", dst_layout = "NCHW"} : (tensor<1x2x7x7x8xf32>) -> tensor<1x16x7x7xf32>
  return %1 : tensor<1x16x7x7xf32>
}

// -----

// CHECK-LABEL: func @negative_layout_chain
// CHECK: graph.layout_transform
// CHECK: graph.layout_transform
func.func @negative_layout_chain(%x: tensor<1x16x7x7xf32>) -> tensor<1x7x7x16xf32> {
  %0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW8c"} : (tensor<1x16x7x7xf32>) -> tensor<1x2x7x7x8xf32>
  %1 = graph.layout_transform %0 {src_layout = "NCHW8c", dst_layout = "NHWC"} : (tensor<1x2x7x7x8xf32>) -> tensor<1x7x7x16xf32>
  return %1 : tensor<1x7x7x16xf32>
}

// -----

// CHECK-LABEL: func @casts
// CHECK-NEXT: %[[C:.*]] = graph.cast %arg0 : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT: return %arg1, %[[C]]
func.func @casts(%i: tensor<4xi8>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.cast %i : (tensor<4xi8>) -> tensor<4xi32>
  %2 = graph.cast %1 : (tensor<4xi32>) -> tensor<4xf32>
  return %0, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// f32 -> i8 -> f32 loses values: both casts stay.
// CHECK-LABEL: func @negative_lossy_cast_chain
// CHECK: graph.cast %arg0 : (tensor<4xf32>) -> tensor<4xi8>
// CHECK: graph.cast %{{.*}} : (tensor<4xi8>) -> tensor<4xf32>
func.func @negative_lossy_cast_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xi8>
  %1 = graph.cast %0 : (tensor<4xi8>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @clips
// CHECK-NEXT: %[[C:.*]] = graph.clip %arg0 {max = 4.000000e+00 : f64, min = 1.000000e+00 : f64}
// CHECK-NEXT: return %[[C]], %arg1
func.func @clips(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>) {
  %0 = graph.clip %x {min = 0.0 : f64, max = 4.0 : f64} : tensor<4xf32>
  %1 = graph.clip %0 {min = 1.0 : f64, max = 6.0 : f64} : tensor<4xf32>
  %2 = graph.clip %i {min = -128.0 : f64, max = 127.0 : f64} : tensor<4xi8>
  return %1, %2 : tensor<4xf32>, tensor<4xi8>
}

// -----

// CHECK-LABEL: func @negative_disjoint_clips
// CHECK: graph.clip
// CHECK: graph.clip
func.func @negative_disjoint_clips(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.clip %x {min = 0.0 : f64, max = 1.0 : f64} : tensor<4xf32>
  %1 = graph.clip %0 {min = 2.0 : f64, max = 3.0 : f64} : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// (x + c1) * c2 -> x * c2 + c1 * c2
// CHECK-LABEL: func @switch_add_multiply
// CHECK: %[[XM:.*]] = graph.mul %arg0, %[[C2:.*]] :
// CHECK: %[[CM:.*]] = graph.mul %[[C1:.*]], %[[C2]] :
// CHECK: graph.add %[[XM]], %[[CM]]
func.func @switch_add_multiply(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = graph.constant dense<2.0> : tensor<4xf32>
  %c2 = graph.constant dense<3.0> : tensor<4xf32>
  %0 = graph.add %x, %c1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.mul %0, %c2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @adjacent
// CHECK: %[[M:.*]] = graph.mul %[[A:.*]], %[[B:.*]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: graph.mul %arg0, %[[M]]
// CHECK: %[[S:.*]] = graph.add %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: graph.add %arg0, %[[S]]
func.func @adjacent(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c1 = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %c2 = graph.constant dense<3.0> : tensor<f32>
  %0 = graph.mul %x, %c1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.mul %0, %c2 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = graph.add %x, %c1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.add %2, %c2 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %1, %3 : tensor<4xf32>, tensor<4xf32>
}

// -----

// The inner multiply has another use: merging would compute it twice.
// CHECK-LABEL: func @negative_adjacent_shared
// CHECK: %[[M:.*]] = graph.mul %arg0
// CHECK: graph.mul %[[M]]
func.func @negative_adjacent_shared(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c1 = graph.constant dense<2.0> : tensor<f32>
  %c2 = graph.constant dense<3.0> : tensor<f32>
  %0 = graph.mul %x, %c1 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = graph.mul %0, %c2 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
