// Data movement: transpose, reshapes, concat, split, slice, pad, cast,
// gather, gather_elements, resize, layout_transform.
// RUN: dlc-run %s --entry=movement --print-output | FileCheck %s --check-prefix=MOVE
// RUN: dlc-run %s --entry=slicing --print-output | FileCheck %s --check-prefix=SLICE
// RUN: dlc-run %s --entry=padding --print-output | FileCheck %s --check-prefix=PAD
// RUN: dlc-run %s --entry=casts --print-output | FileCheck %s --check-prefix=CAST
// RUN: dlc-run %s --entry=gather --print-output | FileCheck %s --check-prefix=GATHER
// RUN: dlc-run %s --entry=gather_elements --print-output | FileCheck %s --check-prefix=GEL
// RUN: dlc-run %s --entry=gather_elements --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=GEL
// RUN: dlc-run %s --entry=resize --print-output | FileCheck %s --check-prefix=RESIZE
// RUN: dlc-run %s --entry=bf16_to_f16 --print-output | FileCheck %s --check-prefix=HALF
// RUN: dlc-run %s --entry=bf16_to_f16 --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=HALF
// RUN: dlc-run %s --entry=resize --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=RESIZE
// RUN: dlc-run %s --entry=layouts --print-output | FileCheck %s --check-prefix=LAYOUT
// RUN: dlc-run %s --entry=dynamic --print-output | FileCheck %s --check-prefix=DYN
// RUN: dlc-run %s --entry=gather_out_of_range --print-output | FileCheck %s --check-prefix=OOR
// RUN: not dlc-run %s --entry=dynamic_mismatch 2>&1 | FileCheck %s --check-prefix=DYNBAD

// MOVE: output 0: f32[3x2] = {{\[\[}}1, 4], [2, 5], [3, 6]]
// MOVE: output 1: f32[3x2] = {{\[\[}}1, 2], [3, 4], [5, 6]]
// MOVE: output 2: f32[2x5] = {{\[\[}}1, 2, 3, 10, 20], [4, 5, 6, 30, 40]]
// MOVE: output 3: f32[2x1] = {{\[\[}}1], [4]]
// MOVE: output 4: f32[2x2] = {{\[\[}}2, 3], [5, 6]]
// MOVE: output 5: f32[1x2x1x3] = {{\[\[\[\[}}1, 2, 3]], {{\[\[}}4, 5, 6]]]]
// MOVE: output 6: f32[2x3] = {{\[\[}}1, 2, 3], [4, 5, 6]]
func.func @movement() -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x5xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<1x2x1x3xf32>, tensor<2x3xf32>) {
  %x = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = graph.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %y = graph.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : tensor<2x2xf32>
  %2 = graph.concat %x, %y {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  %3:2 = graph.split %x {axis = -1 : i64} : (tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>)
  %4 = graph.expand_dims %x {axes = array<i64: 0, 2>} : (tensor<2x3xf32>) -> tensor<1x2x1x3xf32>
  %5 = graph.squeeze %4 : (tensor<1x2x1x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3#0, %3#1, %4, %5 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x5xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<1x2x1x3xf32>, tensor<2x3xf32>
}

// Backwards with step -3 from 6 down to (not including) -1: 6, 3, 0.
// SLICE: output 0: i32[3] = [6, 3, 0]
// SLICE: output 1: i32[2x2] = {{\[\[}}1, 3], [9, 11]]
func.func @slicing() -> (tensor<3xi32>, tensor<2x2xi32>) {
  %x = graph.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
  %0 = graph.slice %x {starts = array<i64: 6>, ends = array<i64: -1>, steps = array<i64: -3>} : (tensor<8xi32>) -> tensor<3xi32>
  %m = graph.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %1 = graph.slice %m {starts = array<i64: 0, 1>, ends = array<i64: 3, 4>, steps = array<i64: 2, 2>} : (tensor<3x4xi32>) -> tensor<2x2xi32>
  return %0, %1 : tensor<3xi32>, tensor<2x2xi32>
}

// PAD: output 0: f32[6] = [-1, -1, 1, 2, 3, -1]
// PAD: output 1: f32[6] = [3, 2, 1, 2, 3, 2]
// PAD: output 2: f32[6] = [1, 1, 1, 2, 3, 3]
// PAD: output 3: f32[2x4] = {{\[\[}}0, 1, 2, 0], [0, 0, 0, 0]]
func.func @padding() -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2x4xf32>) {
  %x = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = graph.pad %x {pad_before = array<i64: 2>, pad_after = array<i64: 1>, value = -1.0 : f64} : (tensor<3xf32>) -> tensor<6xf32>
  %1 = graph.pad %x {pad_before = array<i64: 2>, pad_after = array<i64: 1>, mode = "reflect"} : (tensor<3xf32>) -> tensor<6xf32>
  %2 = graph.pad %x {pad_before = array<i64: 2>, pad_after = array<i64: 1>, mode = "edge"} : (tensor<3xf32>) -> tensor<6xf32>
  %m = graph.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %3 = graph.pad %m {pad_before = array<i64: 0, 1>, pad_after = array<i64: 1, 1>} : (tensor<1x2xf32>) -> tensor<2x4xf32>
  return %0, %1, %2, %3 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2x4xf32>
}

// Float to integer truncates toward zero and wraps (300 -> 44 in i8);
// f16 and bf16 round to nearest even; anything to i1 is x != 0.
// CAST: output 0: i8[4] = [1, -1, 44, 0]
// CAST: output 1: f16[4] = [1.7002, -1.7002, 300, 0.0999756]
// CAST: output 2: bf16[4] = [1.70312, -1.70312, 300, 0.100098]
// CAST: output 3: i1[4] = [1, 1, 1, 1]
// CAST: output 4: f32[3] = [1, 0, -3]
func.func @casts() -> (tensor<4xi8>, tensor<4xf16>, tensor<4xbf16>, tensor<4xi1>, tensor<3xf32>) {
  %x = graph.constant dense<[1.7, -1.7, 300.0, 0.1]> : tensor<4xf32>
  %0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xi8>
  %1 = graph.cast %x : (tensor<4xf32>) -> tensor<4xf16>
  %2 = graph.cast %x : (tensor<4xf32>) -> tensor<4xbf16>
  %3 = graph.cast %x : (tensor<4xf32>) -> tensor<4xi1>
  %i = graph.constant dense<[1, 0, -3]> : tensor<3xi64>
  %4 = graph.cast %i : (tensor<3xi64>) -> tensor<3xf32>
  return %0, %1, %2, %3, %4 : tensor<4xi8>, tensor<4xf16>, tensor<4xbf16>, tensor<4xi1>, tensor<3xf32>
}

// Embedding lookup with a negative index, and gather along axis 1.
// GATHER: output 0: f32[3x2] = {{\[\[}}5, 6], [1, 2], [5, 6]]
// GATHER: output 1: f32[3x2x2] = {{\[\[\[}}2, 1], [2, 2]], {{\[\[}}4, 3], [4, 4]], {{\[\[}}6, 5], [6, 6]]]
func.func @gather() -> (tensor<3x2xf32>, tensor<3x2x2xf32>) {
  %t = graph.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %ids = graph.constant dense<[2, 0, -1]> : tensor<3xi64>
  %0 = graph.gather %t, %ids : (tensor<3x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  %cols = graph.constant dense<[[1, 0], [1, 1]]> : tensor<2x2xi32>
  %1 = graph.gather %t, %cols {axis = 1 : i64} : (tensor<3x2xf32>, tensor<2x2xi32>) -> tensor<3x2x2xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<3x2x2xf32>
}

// NCHW -> NCHW2c groups channels in pairs; NCHW -> NHWC moves C last; and
// back from the blocked layout gives the input again.
// LAYOUT: output 0: f32[1x2x1x1x2] = {{\[\[\[\[\[}}1, 2]]], {{\[\[\[}}3, 4]]]]]
// LAYOUT: output 1: f32[1x1x2x2] = {{\[\[\[\[}}1, 3], [2, 4]]]]
// LAYOUT: output 2: f32[1x4x1x1] = {{\[\[\[\[}}1]], {{\[\[}}2]], {{\[\[}}3]], {{\[\[}}4]]]]
func.func @layouts() -> (tensor<1x2x1x1x2xf32>, tensor<1x1x2x2xf32>, tensor<1x4x1x1xf32>) {
  %x = graph.constant dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]]> : tensor<1x4x1x1xf32>
  %0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW2c"} : (tensor<1x4x1x1xf32>) -> tensor<1x2x1x1x2xf32>
  %y = graph.constant dense<[[[[1.0, 2.0]], [[3.0, 4.0]]]]> : tensor<1x2x1x2xf32>
  %1 = graph.layout_transform %y {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x2x1x2xf32>) -> tensor<1x1x2x2xf32>
  %2 = graph.layout_transform %0 {src_layout = "NCHW2c", dst_layout = "NCHW"} : (tensor<1x2x1x1x2xf32>) -> tensor<1x4x1x1xf32>
  return %0, %1, %2 : tensor<1x2x1x1x2xf32>, tensor<1x1x2x2xf32>, tensor<1x4x1x1xf32>
}

// Shape [3, -1]: -1 is inferred (2); [0, 6] copies dimension 0.
// DYN: output 0: f32[3x2] = {{\[\[}}1, 2], [3, 4], [5, 6]]
// DYN: output 1: f32[1x6] = {{\[\[}}1, 2, 3, 4, 5, 6]]
func.func @dynamic() -> (tensor<3x2xf32>, tensor<1x6xf32>) {
  %x = graph.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]> : tensor<1x6xf32>
  %s = graph.constant dense<[3, -1]> : tensor<2xi64>
  %0 = graph.dynamic_reshape %x, %s : (tensor<1x6xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %s2 = graph.constant dense<[0, 6]> : tensor<2xi32>
  %1 = graph.dynamic_reshape %x, %s2 : (tensor<1x6xf32>, tensor<2xi32>) -> tensor<1x6xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<1x6xf32>
}

// Indices out of range clamp (graph.gather), on every target.
// OOR: output 0: f32[3x2] = {{\[}}[5, 6], [1, 2], [5, 6]]
func.func @gather_out_of_range() -> tensor<3x2xf32> {
  %t = graph.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %ids = graph.constant dense<[3, -4, -1]> : tensor<3xi64>
  %0 = graph.gather %t, %ids : (tensor<3x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

func.func @dynamic_mismatch() -> tensor<3x2xf32> {
  %x = graph.constant dense<1.0> : tensor<1x6xf32>
  %s = graph.constant dense<[2, 3]> : tensor<2xi64>
  // DYNBAD: shapes.mlir:[[@LINE+1]]:8: error: dynamic_reshape: shape operand gives 2x3 but the result type is 3x2
  %0 = graph.dynamic_reshape %x, %s : (tensor<1x6xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// output[i][j] = x[i][idx[i][j]] along axis 1, x[idx[i][j]][j] along axis
// 0; -1 counts from the end, 9 is clamped to the last.
// GEL: output 0: f32[2x2] = {{\[\[}}3, 1], [5, 6]]
// GEL: output 1: f32[1x3] = {{\[\[}}4, 2, 6]]
func.func @gather_elements() -> (tensor<2x2xf32>, tensor<1x3xf32>) {
  %x = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %i = graph.constant dense<[[2, 0], [1, 9]]> : tensor<2x2xi64>
  %0 = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %j = graph.constant dense<[[1, 0, -1]]> : tensor<1x3xi32>
  %1 = graph.gather_elements %x, %j {axis = 0 : i64} : (tensor<2x3xf32>, tensor<1x3xi32>) -> tensor<1x3xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<1x3xf32>
}

// Nearest (asymmetric coordinates, rounding down) doubles each element;
// linear with half_pixel coordinates: x_original = (x + 0.5) / 2 - 0.5,
// clamped at the edges; align_corners maps the ends onto the ends. The
// ONNX node tests (conformance*.test) cover cubic and the other modes.
// RESIZE: output 0: f32[1x1x4x4] = {{\[\[\[\[}}1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4], [3, 3, 4, 4]]]]
// RESIZE: output 1: f32[1x8] = {{\[\[}}0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3]]
// RESIZE: output 2: f32[1x5] = {{\[\[}}0, 5, 10, 15, 20]]
// RESIZE: output 3: i32[4] = [7, 7, 8, 8]
func.func @resize() -> (tensor<1x1x4x4xf32>, tensor<1x8xf32>, tensor<1x5xf32>, tensor<4xi32>) {
  %x = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %0 = graph.resize %x {scales = array<f64: 1.0, 1.0, 2.0, 2.0>, coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  %r = graph.constant dense<[[0.0, 1.0, 2.0, 3.0]]> : tensor<1x4xf32>
  %1 = graph.resize %r {scales = array<f64: 1.0, 2.0>, mode = "linear"} : (tensor<1x4xf32>) -> tensor<1x8xf32>
  %t = graph.constant dense<[[0.0, 10.0, 20.0]]> : tensor<1x3xf32>
  %2 = graph.resize %t {scales = array<f64: 1.0, 1.6666666666666667>, mode = "linear", coordinate_transformation_mode = "align_corners"} : (tensor<1x3xf32>) -> tensor<1x5xf32>
  %i = graph.constant dense<[7, 8]> : tensor<2xi32>
  %3 = graph.resize %i {scales = array<f64: 2.0>} : (tensor<2xi32>) -> tensor<4xi32>
  return %0, %1, %2, %3 : tensor<1x1x4x4xf32>, tensor<1x8xf32>, tensor<1x5xf32>, tensor<4xi32>
}

// bf16 to f16 directly (what cast(cast(x, f32), f16) folds to): through f32,
// rounded once; found by the differential test (test/e2e/differential.test),
// where the lowering emitted an invalid same-width truncation.
// HALF: output 0: f16[3] = [1.70312, -300, 0.100098]
func.func @bf16_to_f16() -> tensor<3xf16> {
  %x = graph.constant dense<[1.703125, -300.0, 0.10009765625]> : tensor<3xbf16>
  %0 = graph.cast %x : (tensor<3xbf16>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}
