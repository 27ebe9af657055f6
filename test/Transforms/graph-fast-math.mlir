// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fast-math))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fast-math))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// Only the fast forms get the cheap approximations on the CPU: a floor
// (fast_exp's range reduction) appears only with FastMath.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-fast-math,convert-graph-to-linalg))" | FileCheck %s --check-prefix=LOWERED
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(convert-graph-to-linalg))" | FileCheck %s --check-prefix=ACCURATE

// STATS: graph-fast-math: erf 1, exp 1, gelu 2, softmax 1, tanh 1

// CHECK-LABEL: func @functions
// CHECK: %[[E:.*]] = graph.fast_exp %arg0 : tensor<4xf32>
// CHECK: %[[R:.*]] = graph.fast_erf %[[E]] : tensor<4xf32>
// CHECK: %[[T:.*]] = graph.fast_tanh %[[R]] : tensor<4xf32>
// CHECK: %[[S:.*]] = graph.fast_softmax %[[T]] {axis = 0 : i64} : tensor<4xf32>
// CHECK: return %[[S]]
// LOWERED-LABEL: func @functions
// LOWERED: math.floor
// LOWERED-NOT: math.exp
// LOWERED-NOT: math.erf
// LOWERED-NOT: math.tanh
// LOWERED: return
// ACCURATE-LABEL: func @functions
// ACCURATE-NOT: math.floor
// ACCURATE: math.exp
// ACCURATE: math.erf
// ACCURATE: math.tanh
func.func @functions(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = graph.exp %x : tensor<4xf32>
  %r = graph.erf %e : tensor<4xf32>
  %t = graph.tanh %r : tensor<4xf32>
  %s = graph.softmax %t {axis = 0 : i64} : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// GELU hides an erf (or a tanh): it becomes its formula around the fast form.
// CHECK-LABEL: func @gelu
// CHECK: %[[K:.*]] = graph.constant dense<0.707106769> : tensor<f32>
// CHECK: %[[S:.*]] = graph.mul %arg0, %[[K]]
// CHECK: %[[E:.*]] = graph.fast_erf %[[S]]
// CHECK: graph.add %{{.*}}, %[[E]]
// CHECK: graph.fast_tanh
// CHECK-NOT: graph.gelu
func.func @gelu(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %g = graph.gelu %x : tensor<4xf32>
  %h = graph.gelu %x {approximate = "tanh"} : tensor<4xf32>
  return %g, %h : tensor<4xf32>, tensor<4xf32>
}

// -----

// Other ops, sigmoid included (its own op in TVM too), are left alone.
// CHECK-LABEL: func @negative_other_ops
// CHECK: graph.sigmoid
// CHECK: graph.log
// CHECK-NOT: graph.fast
func.func @negative_other_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = graph.sigmoid %x : tensor<4xf32>
  %l = graph.log %s : tensor<4xf32>
  return %l : tensor<4xf32>
}
