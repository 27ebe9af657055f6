// RUN: dlc-opt %s -split-input-file --dlc-cpu-approximate-math | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-approximate-math --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// The ledger adds up the whole file: 3 + 1 + 2, nothing from the negative
// case.
// STATS: dlc-cpu-approximate-math: approximated 6{{$}}

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

// bf16 and f16 ones are computed in f32 and rounded back (GELU's erf in a
// mixed-precision graph with FastMath), inline too.
// CHECK-LABEL: func @half_types
// CHECK: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
// CHECK-NOT: math.erf
// CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NOT: math.tanh
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @half_types(%x: vector<16xbf16>, %y: f16) -> (vector<16xbf16>, f16) {
  %0 = math.erf %x : vector<16xbf16>
  %1 = math.tanh %y : f16
  return %0, %1 : vector<16xbf16>, f16
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
