// RUN: dlc-opt %s -split-input-file --dlc-cpu-approximate-math | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-approximate-math --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// The ledger adds up the whole file: 3 + 1, nothing from the negative case.
// STATS: dlc-cpu-approximate-math: approximated 4{{$}}

// f32 exp, erf and tanh become inline arithmetic (no libm call is left).
// CHECK-LABEL: func @f32_functions
// CHECK-NOT: math.exp
// CHECK-NOT: math.erf
// CHECK-NOT: math.tanh
// CHECK: arith.mulf
// CHECK: return
func.func @f32_functions(%x: f32) -> (f32, f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.erf %x : f32
  %2 = math.tanh %x : f32
  return %0, %1, %2 : f32, f32, f32
}

// -----

// Vectors of f32 too.
// CHECK-LABEL: func @vector
// CHECK-NOT: math.exp
// CHECK: return
func.func @vector(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.exp %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

// Other element types and other functions are left alone.
// CHECK-LABEL: func @negative_f64_and_log
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.log %{{.*}} : f32
func.func @negative_f64_and_log(%x: f64, %y: f32) -> (f64, f32) {
  %0 = math.exp %x : f64
  %1 = math.log %y : f32
  return %0, %1 : f64, f32
}
