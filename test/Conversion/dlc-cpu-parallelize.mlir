// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-cpu-parallelize{threads=2 min-elements=16}))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(dlc-cpu-parallelize))" | FileCheck %s --check-prefix=ONE

// The first parallel dimension with at least 2 iterations is split in two.
// CHECK-LABEL: func @fill
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: linalg.fill
// ONE-NOT: scf.forall
func.func @fill(%t: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %c = arith.constant 1.0 : f32
  %0 = linalg.fill ins(%c : f32) outs(%t : tensor<1x64xf32>) -> tensor<1x64xf32>
  return %0 : tensor<1x64xf32>
}
