// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-merge-composite))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-merge-composite))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// A table from a file replaces the builtin one.
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-merge-composite{patterns=%S/Inputs/composite-patterns.txt}))" | FileCheck %s --check-prefix=USER
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-merge-composite{patterns=%S/Inputs/missing.txt}))" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-merge-composite{patterns=%S/Inputs/composite-unknown-op.txt}))" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-merge-composite{patterns=%S/Inputs/composite-malformed.txt}))" 2>&1 | FileCheck %s --check-prefix=MALFORMED

// STATS: graph-merge-composite: attention 2, composites 5, conv2d_bias_add_relu 1, conv2d_bias_relu 1, dense_gelu 1
// MISSING: graph-merge-composite: cannot read pattern table '{{.*}}missing.txt'
// UNKNOWN: graph-merge-composite: {{.*}}composite-unknown-op.txt:2: unknown graph op 'frobnicate'
// MALFORMED: graph-merge-composite: {{.*}}composite-malformed.txt:1: expected 'name = op op ...', got 'conv2d relu'

// The residual pattern comes first in the table, so it wins over the
// shorter conv2d + bias + relu on the second convolution.
// CHECK-LABEL: func @resnet_block
// CHECK: %[[A:.*]] = graph.composite "conv2d_bias_relu" %arg0, %{{.*}}, %{{.*}}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.conv2d
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.yield
// CHECK: %[[B:.*]] = graph.composite "conv2d_bias_add_relu" %[[A]], %{{.*}}, %{{.*}}, %arg0
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.conv2d
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.relu
// CHECK: return %[[B]]
// USER-LABEL: func @resnet_block
// USER-NOT: graph.composite
func.func @resnet_block(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %b = graph.constant dense<0.5> : tensor<2x1x1xf32>
  %c1 = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a1 = graph.add %c1, %b : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r1 = graph.relu %a1 : tensor<1x2x4x4xf32>
  %c2 = graph.conv2d %r1, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a2 = graph.add %c2, %b : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %s = graph.add %a2, %x : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %r2 = graph.relu %s : tensor<1x2x4x4xf32>
  return %r2 : tensor<1x2x4x4xf32>
}

// -----

// The attention block (scores, scale, mask, softmax, context) and a dense
// with GELU.
// CHECK-LABEL: func @encoder
// CHECK: graph.composite "attention" %arg0, %arg1, %{{.*}}, %arg2
// CHECK: graph.batch_matmul
// CHECK: graph.softmax
// CHECK: graph.batch_matmul
// CHECK: graph.composite "dense_gelu"
// USER-LABEL: func @encoder
// USER-NOT: graph.composite
func.func @encoder(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %mask: tensor<1x1x1x4xf32>) -> tensor<2x4x8xf32> {
  %s = graph.batch_matmul %q, %k {transpose_b = true} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x4xf32>
  %s4 = graph.reshape %s : (tensor<2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %scale = graph.constant dense<0.35> : tensor<f32>
  %m = graph.mul %s4, %scale : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %a = graph.add %m, %mask : (tensor<1x2x4x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x2x4x4xf32>
  %p = graph.softmax %a : tensor<1x2x4x4xf32>
  %p3 = graph.reshape %p : (tensor<1x2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = graph.batch_matmul %p3, %v : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %w = graph.constant dense<0.1> : tensor<8x8xf32>
  %d = graph.dense %c, %w : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %g = graph.gelu %d : tensor<2x4x8xf32>
  return %g : tensor<2x4x8xf32>
}

// -----

// With the context's heads merged back into its rows (BERT's reshape,
// transpose and reshape), the longer pattern takes the merge in.
// CHECK-LABEL: func @merged_heads
// CHECK: %[[A:.*]] = graph.composite "attention" %arg0, %arg1, %arg2 : ({{.*}}) -> tensor<1x4x16xf32>
// CHECK: graph.softmax
// CHECK: graph.batch_matmul
// CHECK-NEXT: graph.reshape
// CHECK-NEXT: graph.transpose
// CHECK-NEXT: graph.reshape
// CHECK-NEXT: graph.yield
// CHECK: return %[[A]]
func.func @merged_heads(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<1x4x16xf32> {
  %s = graph.batch_matmul %q, %k {transpose_b = true} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x4xf32>
  %p = graph.softmax %s : tensor<2x4x4xf32>
  %c = graph.batch_matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %c4 = graph.reshape %c : (tensor<2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %t = graph.transpose %c4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x2x4x8xf32>) -> tensor<1x4x2x8xf32>
  %r = graph.reshape %t : (tensor<1x4x2x8xf32>) -> tensor<1x4x16xf32>
  return %r : tensor<1x4x16xf32>
}

// -----

// A user pattern; and an intermediate result read twice never matches.
// CHECK-LABEL: func @negative_shared_intermediate
// CHECK-NOT: graph.composite
// USER-LABEL: func @user_pattern
// USER: graph.composite "exp_relu" %arg0
// USER-NEXT: ^bb0
// USER-NEXT: graph.exp
// USER-NEXT: graph.relu
func.func @user_pattern(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = graph.exp %x : tensor<4xf32>
  %r = graph.relu %e : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @negative_shared_intermediate(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %b = graph.constant dense<0.5> : tensor<2x1x1xf32>
  %c = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = graph.add %c, %b : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = graph.relu %a : tensor<1x2x4x4xf32>
  return %a, %r : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
