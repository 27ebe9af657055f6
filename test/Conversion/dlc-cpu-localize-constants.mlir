// RUN: dlc-opt %s --dlc-cpu-localize-constants | FileCheck %s
// RUN: dlc-opt %s --dlc-cpu-localize-constants --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// The forall body gets its own copies of the constants it uses; other
// values from outside (the scale) are still captured.
// CHECK-LABEL: func @body
// CHECK: scf.forall
// CHECK-DAG: %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<8xf32>
// CHECK: arith.minimumf %{{.*}}, %[[SIX]]
// CHECK: arith.addf %{{.*}}, %[[ONE]]
// CHECK: arith.mulf %{{.*}}, %arg1
// STATS: dlc-cpu-localize-constants: copied 2{{$}}
func.func @body(%buf: memref<64xf32>, %scale: f32) {
  %six = arith.constant 6.0 : f32
  %one = arith.constant dense<1.0> : vector<8xf32>
  scf.forall (%i) in (64) {
    %x = memref.load %buf[%i] : memref<64xf32>
    %y = arith.minimumf %x, %six : f32
    %v = vector.broadcast %y : f32 to vector<8xf32>
    %w = arith.addf %v, %one : vector<8xf32>
    %e = vector.extract %w[0] : f32 from vector<8xf32>
    %z = arith.mulf %e, %scale : f32
    memref.store %z, %buf[%i] : memref<64xf32>
  }
  return
}
