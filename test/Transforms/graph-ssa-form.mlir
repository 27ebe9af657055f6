// ToANormalForm, ToGraphNormalForm and FirstOrderGradient leave an SSA
// inference graph unchanged, and say so in the ledger.
// RUN: dlc-opt %s --dlc-pipeline=list:ToANormalForm,ToGraphNormalForm,FirstOrderGradient --dlc-pass-stats 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(graph-ssa-form{tvm-name=Inline})" 2>&1 | FileCheck %s --check-prefix=BAD

// STATS: graph-ssa-form: FirstOrderGradient (no effect in SSA form) 1, ToANormalForm (no effect in SSA form) 1, ToGraphNormalForm (no effect in SSA form) 1
// BAD: graph-ssa-form: unknown tvm-name 'Inline'

// CHECK-LABEL: func @unchanged
// CHECK-NEXT: %[[R:.*]] = graph.relu %arg0
// CHECK-NEXT: %[[E:.*]] = graph.exp %[[R]]
// CHECK-NEXT: return %[[E]]
func.func @unchanged(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x : tensor<4xf32>
  %e = graph.exp %r : tensor<4xf32>
  return %e : tensor<4xf32>
}
