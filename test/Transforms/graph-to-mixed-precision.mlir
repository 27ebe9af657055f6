// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-to-mixed-precision))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-to-mixed-precision))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-to-mixed-precision{type=bf16}))" | FileCheck %s --check-prefix=BF16
// RUN: dlc-opt %s -split-input-file --dlc-pipeline="list:ToMixedPrecision{accumulate-f32=true keep-orig-output-dtype=true}" | FileCheck %s --check-prefix=ACC
// A user's lists replace the defaults; ops in none of them follow, with one
// warning per op kind (or an error, or silently).
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-to-mixed-precision{lists=%S/Inputs/mixed-lists.txt}))" 2>%t.warnings | FileCheck %s --check-prefix=USER
// RUN: FileCheck %s --check-prefix=WARN < %t.warnings
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-to-mixed-precision{lists=%S/Inputs/mixed-lists.txt missing-op-mode=2}))" 2>&1 >/dev/null | count 0
// RUN: not dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-to-mixed-precision{lists=%S/Inputs/mixed-lists.txt missing-op-mode=0}))" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-to-mixed-precision{lists=%S/Inputs/mixed-lists-malformed.txt}))" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-to-mixed-precision{type=f8}))" 2>&1 | FileCheck %s --check-prefix=TYPE

// STATS: graph-to-mixed-precision: casts 5, constants 4, converted 6, kept-f32 6, missing 0
// WARN: warning: graph-to-mixed-precision: op 'graph.conv2d' is in none of the lists; treated as follow
// WARN: warning: graph-to-mixed-precision: op 'graph.add' is in none of the lists; treated as follow
// MISSING: error: graph-to-mixed-precision: op 'graph.conv2d' is in none of the lists (always, follow, never); add it with lists=FILE or set missing-op-mode=1
// MALFORMED: graph-to-mixed-precision: {{.*}}mixed-lists-malformed.txt:2: expected 'always|follow|never = op op ...', got 'sometimes = relu'
// TYPE: graph-to-mixed-precision: type 'f8' is not f16 or bf16

// Products always run in the mixed type; the elementwise ops after them
// follow; global pooling and softmax never do. Constants are converted at
// compile time, the function argument by a cast.
// CHECK-LABEL: func @classifier
// CHECK-SAME: -> tensor<1x8xf16>
// CHECK: %[[X:.*]] = graph.cast %arg0 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf16>
// CHECK-DAG: %[[W:.*]] = graph.constant dense<9.997550e-02> : tensor<2x2x1x1xf16>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<5.000000e-01> : tensor<2x1x1xf16>
// CHECK: %[[C:.*]] = graph.conv2d %[[X]], %[[W]] : (tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) -> tensor<1x2x4x4xf16>
// CHECK: %[[A:.*]] = graph.add %[[C]], %[[B]] : (tensor<1x2x4x4xf16>, tensor<2x1x1xf16>) -> tensor<1x2x4x4xf16>
// CHECK: %[[R:.*]] = graph.relu %[[A]] : tensor<1x2x4x4xf16>
// CHECK: %[[R32:.*]] = graph.cast %[[R]] : (tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf32>
// CHECK: %[[G:.*]] = graph.global_avg_pool2d %[[R32]] : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
// CHECK: %[[F:.*]] = graph.reshape %[[G]] : (tensor<1x2x1x1xf32>) -> tensor<1x2xf32>
// CHECK: %[[F16:.*]] = graph.cast %[[F]] : (tensor<1x2xf32>) -> tensor<1x2xf16>
// CHECK: %[[D:.*]] = graph.dense %[[F16]], %{{.*}} : (tensor<1x2xf16>, tensor<8x2xf16>) -> tensor<1x8xf16>
// CHECK: %[[T:.*]] = graph.tanh %[[D]] : tensor<1x8xf16>
// CHECK: return %[[T]] : tensor<1x8xf16>
// BF16-LABEL: func @classifier
// BF16-SAME: -> tensor<1x8xbf16>
// BF16: graph.conv2d {{.*}} -> tensor<1x2x4x4xbf16>
// ACC-LABEL: func @classifier
// ACC-SAME: -> tensor<1x8xf32>
// ACC: %[[X16:.*]] = graph.cast %arg0 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf16>
// ACC: %[[X32:.*]] = graph.cast %[[X16]] : (tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf32>
// ACC: %[[W:.*]] = graph.constant dense<0.0999755859> : tensor<2x2x1x1xf32>
// ACC: %[[C:.*]] = graph.conv2d %[[X32]], %[[W]] : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
// ACC: %[[C16:.*]] = graph.cast %[[C]] : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf16>
// ACC: graph.add %[[C16]]
// ACC: %[[T:.*]] = graph.tanh %{{.*}} : tensor<1x8xf16>
// ACC: %[[T32:.*]] = graph.cast %[[T]] : (tensor<1x8xf16>) -> tensor<1x8xf32>
// ACC: return %[[T32]] : tensor<1x8xf32>
// USER-LABEL: func @classifier
// USER: graph.conv2d {{.*}} -> tensor<1x2x4x4xf16>
// USER: graph.global_avg_pool2d {{.*}} -> tensor<1x2x1x1xf16>
// USER: graph.dense {{.*}} -> tensor<1x8xf16>
// USER: graph.tanh {{.*}} : tensor<1x8xf16>
func.func @classifier(%x: tensor<1x2x4x4xf32>) -> tensor<1x8xf32> {
  %w = graph.constant dense<0.1> : tensor<2x2x1x1xf32>
  %b = graph.constant dense<0.5> : tensor<2x1x1xf32>
  %c = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = graph.add %c, %b : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = graph.relu %a : tensor<1x2x4x4xf32>
  %g = graph.global_avg_pool2d %r : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  %f = graph.reshape %g : (tensor<1x2x1x1xf32>) -> tensor<1x2xf32>
  %wd = graph.constant dense<0.2> : tensor<8x2xf32>
  %d = graph.dense %f, %wd : (tensor<1x2xf32>, tensor<8x2xf32>) -> tensor<1x8xf32>
  %t = graph.tanh %d : tensor<1x8xf32>
  return %t : tensor<1x8xf32>
}

// -----

// A clip beyond the f16 range stays in f32 (in bf16 it converts); an op in
// no list follows (cast is left as it is; nms is in the never list).
// CHECK-LABEL: func @clip_range
// CHECK: %[[D:.*]] = graph.dense {{.*}} -> tensor<4xf16>
// CHECK: %[[D32:.*]] = graph.cast %[[D]] : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[C:.*]] = graph.clip %[[D32]] {{.*}} : tensor<4xf32>
// CHECK: graph.relu %[[C]] : tensor<4xf32>
// BF16-LABEL: func @clip_range
// BF16: graph.clip {{.*}} : tensor<4xbf16>
func.func @clip_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = graph.constant dense<0.5> : tensor<4x4xf32>
  %d = graph.dense %x, %w : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
  %c = graph.clip %d {min = -1.0e5 : f64, max = 1.0e5 : f64} : tensor<4xf32>
  %r = graph.relu %c : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Integer tensors are never touched; a follow op whose float operand is an
// f32 value from a never op stays in f32.
// CHECK-LABEL: func @negative_integer_and_f32_inputs
// CHECK-NOT: graph.cast
// CHECK: graph.neg %arg0 : tensor<3xi64>
// CHECK: graph.exp %arg1 : tensor<3xf32>
// CHECK: graph.relu %{{.*}} : tensor<3xf32>
func.func @negative_integer_and_f32_inputs(%ids: tensor<3xi64>, %x: tensor<3xf32>) -> (tensor<3xi64>, tensor<3xf32>) {
  %n = graph.neg %ids : tensor<3xi64>
  %e = graph.exp %x : tensor<3xf32>
  %r = graph.relu %e : tensor<3xf32>
  return %n, %r : tensor<3xi64>, tensor<3xf32>
}
