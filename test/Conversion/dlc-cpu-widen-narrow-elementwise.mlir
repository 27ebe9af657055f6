// RUN: dlc-opt %s -split-input-file --dlc-cpu-widen-narrow-elementwise | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-widen-narrow-elementwise --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// Over the cases below: two generics rewritten, with seven ops that computed
// in bf16 or f16 between them; the others are left alone.
// STATS: dlc-cpu-widen-narrow-elementwise: ops 7, widened 2

// A product's bf16 epilogue (bias, clip): its f32 result is no longer
// rounded before the bias is added; the bias is widened once, the add and
// the clip compute in f32, and the result is rounded once where yielded.
// (Constants defined outside the body are widened where used; later
// canonicalizations fold those widenings.)
// CHECK-LABEL: func @epilogue
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK-DAG: %[[SIX:.*]] = arith.constant 6.000000e+00 : bf16
// CHECK: ^bb0(%[[P:.*]]: f32, %[[B:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT: %[[BF:.*]] = arith.extf %[[B]] : bf16 to f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[P]], %[[BF]] : f32
// CHECK-NEXT: %[[ZF:.*]] = arith.extf %[[ZERO]] : bf16 to f32
// CHECK-NEXT: %[[LO:.*]] = arith.maximumf %[[S]], %[[ZF]] : f32
// CHECK-NEXT: %[[SF:.*]] = arith.extf %[[SIX]] : bf16 to f32
// CHECK-NEXT: %[[HI:.*]] = arith.minimumf %[[LO]], %[[SF]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.truncf %[[HI]] : f32 to bf16
// CHECK-NEXT: linalg.yield %[[R]] : bf16
#map = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @epilogue(%p: tensor<4x16xf32>, %b: tensor<16xbf16>) -> tensor<4x16xbf16> {
  %zero = arith.constant 0.0 : bf16
  %six = arith.constant 6.0 : bf16
  %e = tensor.empty() : tensor<4x16xbf16>
  %r = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : tensor<4x16xf32>, tensor<16xbf16>) outs(%e : tensor<4x16xbf16>) {
  ^bb0(%x: f32, %y: bf16, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    %s = arith.addf %t, %y : bf16
    %lo = arith.maximumf %s, %zero : bf16
    %hi = arith.minimumf %lo, %six : bf16
    linalg.yield %hi : bf16
  } -> tensor<4x16xbf16>
  return %r : tensor<4x16xbf16>
}

// -----

// An f16 chain with a constant of its own and two results: the constant is
// widened exactly, the f16 result rounded once, the f32 one computed in f32
// from the same widened inputs (the widening of its f16 value gone); a
// comparison and a select widen too.
// CHECK-LABEL: func @chain
// CHECK: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16, %{{.*}}: f32):
// CHECK-NEXT: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[XF:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[XF]], %[[HALF]] : f32
// CHECK-NEXT: %[[YF:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[M]], %[[YF]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.cmpf ogt, %[[A]], %[[XF]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.select %[[C]], %[[A]], %[[XF]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[R]], %[[A]] : f16, f32
#map = affine_map<(i) -> (i)>
func.func @chain(%x: tensor<8xf16>, %y: tensor<8xf16>) -> (tensor<8xf16>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf16>
  %f = tensor.empty() : tensor<8xf32>
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<8xf16>, tensor<8xf16>) outs(%e, %f : tensor<8xf16>, tensor<8xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f16, %p: f32):
    %half = arith.constant 0.5 : f16
    %m = arith.mulf %a, %half : f16
    %s = arith.addf %m, %b : f16
    %c = arith.cmpf ogt, %s, %a : f16
    %v = arith.select %c, %s, %a : f16
    %w = arith.extf %s : f16 to f32
    linalg.yield %v, %w : f16, f32
  } -> (tensor<8xf16>, tensor<8xf32>)
  return %r#0, %r#1 : tensor<8xf16>, tensor<8xf32>
}

// -----

// Left alone: a widening only (a product's operand), a reduction, a body
// that reads the bits (bitcast), and f32 arithmetic.
// CHECK-LABEL: func @negative
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT: linalg.yield
// CHECK: arith.addf %{{.*}}, %{{.*}} : bf16
// CHECK: arith.bitcast %{{.*}} : bf16 to i16
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
#map = affine_map<(i) -> (i)>
#none = affine_map<(i) -> ()>
func.func @negative(%x: tensor<8xbf16>, %z: tensor<8xf32>) -> (tensor<8xf32>, tensor<bf16>, tensor<8xi16>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %w = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<8xbf16>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %f = arith.extf %a : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<8xf32>
  %s0 = tensor.empty() : tensor<bf16>
  %sum = linalg.generic {indexing_maps = [#map, #none], iterator_types = ["reduction"]}
      ins(%x : tensor<8xbf16>) outs(%s0 : tensor<bf16>) {
  ^bb0(%a: bf16, %acc: bf16):
    %t = arith.addf %acc, %a : bf16
    linalg.yield %t : bf16
  } -> tensor<bf16>
  %i0 = tensor.empty() : tensor<8xi16>
  %bits = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<8xbf16>) outs(%i0 : tensor<8xi16>) {
  ^bb0(%a: bf16, %o: i16):
    %d = arith.addf %a, %a : bf16
    %i = arith.bitcast %d : bf16 to i16
    linalg.yield %i : i16
  } -> tensor<8xi16>
  %f0 = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%z : tensor<8xf32>) outs(%f0 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.addf %a, %a : f32
    linalg.yield %d : f32
  } -> tensor<8xf32>
  return %w, %sum, %bits, %g : tensor<8xf32>, tensor<bf16>, tensor<8xi16>, tensor<8xf32>
}
