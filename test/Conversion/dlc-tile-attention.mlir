// RUN: dlc-opt %s -split-input-file --dlc-pass-stats \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-tile-attention{row-multiple=8}))" \
// RUN:   2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// With AVX2's 6-row register tiles, no multiple of 6 divides BERT's 64
// rows within 64 KiB of scores: blocks of 32 rows, the last register tile
// of each peeled by the product kernel.
// RUN: dlc-opt %s -split-input-file \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-tile-attention{row-multiple=6}))" \
// RUN:   | FileCheck %s --check-prefix=AVX2
// AVX2-LABEL: func private @bert
// AVX2: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (4, 64) step (1, 32)
// The GPU's 8 KiB of scores a block, rows of any number: BERT's 64 rows of
// 512 keys in blocks of 4.
// RUN: dlc-opt %s -split-input-file \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-tile-attention{row-multiple=1 block-bytes=8192}))" \
// RUN:   | FileCheck %s --check-prefix=GPU
// GPU-LABEL: func private @bert
// GPU: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (4, 64) step (1, 4)
// A row of scores larger than a block's (more than 16 keys in 64 bytes):
// left; only the chains of 16 keys (a mask per sample, the merged heads,
// another transpose after the context) are tiled.
// RUN: dlc-opt %s -split-input-file --dlc-pass-stats -o /dev/null \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-tile-attention{block-bytes=64}))" \
// RUN:   2>&1 | FileCheck %s --check-prefix=ROW
// ROW: dlc-tile-attention: left 4, tiled 4
// RUN: not dlc-opt %s -split-input-file -o /dev/null \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-tile-attention{row-multiple=0}))" \
// RUN:   2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID: error: dlc-tile-attention: row-multiple=0 is not a number of rows (1 or more)
// RUN: not dlc-opt %s -split-input-file -o /dev/null \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-tile-attention{block-bytes=2}))" \
// RUN:   2>&1 | FileCheck %s --check-prefix=INVALID-BYTES
// INVALID-BYTES: error: dlc-tile-attention: block-bytes=2 holds no f32 score (4 bytes or more)

// BERT's attention kernel: scores by K transposed, a scale, a mask over the
// keys (here the first operand of its add), a softmax, the context. K is
// transposed once; one loop over heads and blocks of 32 rows (32 x 512
// scores: 64 KiB) computes the chain on each block's slices.
// CHECK-LABEL: func private @bert
// CHECK-SAME: (%[[Q:.*]]: tensor<4x64x8xf32>, %[[K:.*]]: tensor<4x512x8xf32>, %[[MASK:.*]]: tensor<1x1x1x512xf32>, %[[V:.*]]: tensor<4x512x16xf32>)
// CHECK: %[[S:.*]] = graph.constant dense<1.250000e-01> : tensor<f32>
// CHECK: %[[KT:.*]] = graph.transpose %[[K]] {perm = array<i64: 0, 2, 1>} : (tensor<4x512x8xf32>) -> tensor<4x8x512xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x64x16xf32>
// CHECK: %[[R:.*]] = scf.forall (%[[H:.*]], %[[I:.*]]) = (0, 0) to (4, 64) step (1, 32) shared_outs(%[[O:.*]] = %[[E]])
// CHECK: %[[QB:.*]] = tensor.extract_slice %[[Q]][%[[H]], %[[I]], 0] [1, 32, 8] [1, 1, 1]
// CHECK: %[[KB:.*]] = tensor.extract_slice %[[KT]][%[[H]], 0, 0] [1, 8, 512] [1, 1, 1]
// CHECK: %[[VB:.*]] = tensor.extract_slice %[[V]][%[[H]], 0, 0] [1, 512, 16] [1, 1, 1]
// CHECK: %[[X:.*]] = graph.batch_matmul %[[QB]], %[[KB]] : (tensor<1x32x8xf32>, tensor<1x8x512xf32>) -> tensor<1x32x512xf32>
// CHECK: %[[X4:.*]] = graph.reshape %[[X]] : (tensor<1x32x512xf32>) -> tensor<1x1x32x512xf32>
// CHECK: %[[XS:.*]] = graph.mul %[[X4]], %[[S]] : (tensor<1x1x32x512xf32>, tensor<f32>) -> tensor<1x1x32x512xf32>
// CHECK: %[[XM:.*]] = graph.add %[[MASK]], %[[XS]] : (tensor<1x1x1x512xf32>, tensor<1x1x32x512xf32>) -> tensor<1x1x32x512xf32>
// CHECK: %[[P:.*]] = graph.softmax %[[XM]] : tensor<1x1x32x512xf32>
// CHECK: %[[P3:.*]] = graph.reshape %[[P]] : (tensor<1x1x32x512xf32>) -> tensor<1x32x512xf32>
// CHECK: %[[C:.*]] = graph.batch_matmul %[[P3]], %[[VB]] : (tensor<1x32x512xf32>, tensor<1x512x16xf32>) -> tensor<1x32x16xf32>
// CHECK: tensor.parallel_insert_slice %[[C]] into %[[O]][%[[H]], %[[I]], 0] [1, 32, 16] [1, 1, 1]
// CHECK: return %[[R]] : tensor<4x64x16xf32>
// CHECK-NOT: graph.batch_matmul
func.func private @bert(%q: tensor<4x64x8xf32>, %k: tensor<4x512x8xf32>, %mask: tensor<1x1x1x512xf32>, %v: tensor<4x512x16xf32>) -> tensor<4x64x16xf32> attributes {dlc.composite = "attention"} {
  %0 = graph.batch_matmul %q, %k {transpose_b = true} : (tensor<4x64x8xf32>, tensor<4x512x8xf32>) -> tensor<4x64x512xf32>
  %1 = graph.reshape %0 : (tensor<4x64x512xf32>) -> tensor<1x4x64x512xf32>
  %c = graph.constant dense<1.250000e-01> : tensor<f32>
  %2 = graph.mul %1, %c : (tensor<1x4x64x512xf32>, tensor<f32>) -> tensor<1x4x64x512xf32>
  %3 = graph.add %mask, %2 : (tensor<1x1x1x512xf32>, tensor<1x4x64x512xf32>) -> tensor<1x4x64x512xf32>
  %4 = graph.softmax %3 : tensor<1x4x64x512xf32>
  %5 = graph.reshape %4 : (tensor<1x4x64x512xf32>) -> tensor<4x64x512xf32>
  %6 = graph.batch_matmul %5, %v : (tensor<4x64x512xf32>, tensor<4x512x16xf32>) -> tensor<4x64x16xf32>
  return %6 : tensor<4x64x16xf32>
}

// -----

// K already [heads, depth, keys]: nothing to transpose. Few keys: the
// block is all 24 rows (a multiple of 8 dividing 24 and 32 KiB is not).
// CHECK-LABEL: func private @plain
// CHECK-NOT: graph.transpose
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (2, 24) step (1, 24)
// CHECK: graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<1x24x8xf32>, tensor<1x8x40xf32>) -> tensor<1x24x40xf32>
// CHECK: graph.fast_softmax %{{.*}} : tensor<1x24x40xf32>
// CHECK: graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<1x24x40xf32>, tensor<1x40x8xf32>) -> tensor<1x24x8xf32>
func.func private @plain(%q: tensor<2x24x8xf32>, %k: tensor<2x8x40xf32>, %v: tensor<2x40x8xf32>) -> tensor<2x24x8xf32> attributes {dlc.composite = "attention"} {
  %0 = graph.batch_matmul %q, %k : (tensor<2x24x8xf32>, tensor<2x8x40xf32>) -> tensor<2x24x40xf32>
  %1 = graph.fast_softmax %0 : tensor<2x24x40xf32>
  %2 = graph.batch_matmul %1, %v : (tensor<2x24x40xf32>, tensor<2x40x8xf32>) -> tensor<2x24x8xf32>
  return %2 : tensor<2x24x8xf32>
}

// -----

// A batch of 2 padded sequences of 3 heads each: a mask per sample, whose
// row h / 3 each block reads.
// CHECK-LABEL: func private @batch_mask
// CHECK-SAME: %[[MASK:[^:]*]]: tensor<2x1x1x16xf32>
// CHECK: %[[R:.*]] = scf.forall (%[[H:.*]], %[[I:.*]]) = (0, 0) to (6, 16) step (1, 16)
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[N:.*]] = arith.divui %[[H]], %[[C3]] : index
// CHECK: %[[M:.*]] = tensor.extract_slice %[[MASK]][%[[N]], 0, 0, 0] [1, 1, 1, 16] [1, 1, 1, 1]
// CHECK: graph.add %{{.*}}, %[[M]] : (tensor<1x1x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x1x16x16xf32>
func.func private @batch_mask(%q: tensor<6x16x8xf32>, %k: tensor<6x16x8xf32>, %mask: tensor<2x1x1x16xf32>, %v: tensor<6x16x8xf32>) -> tensor<6x16x8xf32> attributes {dlc.composite = "attention"} {
  %0 = graph.batch_matmul %q, %k {transpose_b = true} : (tensor<6x16x8xf32>, tensor<6x16x8xf32>) -> tensor<6x16x16xf32>
  %1 = graph.reshape %0 : (tensor<6x16x16xf32>) -> tensor<2x3x16x16xf32>
  %2 = graph.add %1, %mask : (tensor<2x3x16x16xf32>, tensor<2x1x1x16xf32>) -> tensor<2x3x16x16xf32>
  %3 = graph.softmax %2 : tensor<2x3x16x16xf32>
  %4 = graph.reshape %3 : (tensor<2x3x16x16xf32>) -> tensor<6x16x16xf32>
  %5 = graph.batch_matmul %4, %v : (tensor<6x16x16xf32>, tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  return %5 : tensor<6x16x8xf32>
}

// -----

// A mask that varies along the rows is not read whole by every block: the
// kernel is left as it was, and counted.
// CHECK-LABEL: func private @row_mask
// CHECK-NOT: scf.forall
// CHECK: graph.batch_matmul
// CHECK: graph.add
// CHECK: graph.softmax
// CHECK: graph.batch_matmul
func.func private @row_mask(%q: tensor<2x16x8xf32>, %k: tensor<2x16x8xf32>, %mask: tensor<16x16xf32>, %v: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> attributes {dlc.composite = "attention"} {
  %0 = graph.batch_matmul %q, %k {transpose_b = true} : (tensor<2x16x8xf32>, tensor<2x16x8xf32>) -> tensor<2x16x16xf32>
  %1 = graph.add %0, %mask : (tensor<2x16x16xf32>, tensor<16x16xf32>) -> tensor<2x16x16xf32>
  %2 = graph.softmax %1 : tensor<2x16x16xf32>
  %3 = graph.batch_matmul %2, %v : (tensor<2x16x16xf32>, tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %3 : tensor<2x16x8xf32>
}

// -----

// A softmax over the rows, not the keys: left as it was.
// CHECK-LABEL: func private @rows_softmax
// CHECK-NOT: scf.forall
// CHECK: graph.softmax %{{.*}} {axis = 1 : i64}
func.func private @rows_softmax(%q: tensor<2x16x8xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> attributes {dlc.composite = "attention"} {
  %0 = graph.batch_matmul %q, %k : (tensor<2x16x8xf32>, tensor<2x8x16xf32>) -> tensor<2x16x16xf32>
  %1 = graph.softmax %0 {axis = 1 : i64} : tensor<2x16x16xf32>
  %2 = graph.batch_matmul %1, %v : (tensor<2x16x16xf32>, tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %2 : tensor<2x16x8xf32>
}

// -----

// The same chain outside an attention composite (FuseOps' kernels, another
// composite) is not this pass's: untouched, not counted.
// CHECK-LABEL: func private @not_composite
// CHECK-NOT: scf.forall
func.func private @not_composite(%q: tensor<2x16x8xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> attributes {dlc.composite = "dense_gelu"} {
  %0 = graph.batch_matmul %q, %k : (tensor<2x16x8xf32>, tensor<2x8x16xf32>) -> tensor<2x16x16xf32>
  %1 = graph.softmax %0 : tensor<2x16x16xf32>
  %2 = graph.batch_matmul %1, %v : (tensor<2x16x16xf32>, tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %2 : tensor<2x16x8xf32>
}

// -----

// The context's heads merged into its rows (BERT's reshape, transpose,
// reshape, in the composite since MergeComposite's longer patterns): the
// loop's result is [batch, rows, heads, width], each block written at its
// sample's and head's place, and the last reshape reads it; no transpose of
// the context is left.
// CHECK-LABEL: func private @merged_heads
// CHECK: scf.forall (%[[H:.*]], %[[R:.*]]) = (0, 0) to (6, 16) step (1, 16) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x16x3x8xf32>)
// CHECK: %[[CTX:.*]] = graph.batch_matmul %{{.*}} -> tensor<1x16x8xf32>
// CHECK: %[[SAMPLE:.*]] = arith.divui %[[H]], %[[C3:.*]] : index
// CHECK: %[[HEAD:.*]] = arith.remui %[[H]], %[[C3]] : index
// CHECK: tensor.parallel_insert_slice %[[CTX]] into %{{.*}}[%[[SAMPLE]], %[[R]], %[[HEAD]], 0] [1, 16, 1, 8] [1, 1, 1, 1] : tensor<1x16x8xf32> into tensor<2x16x3x8xf32>
// CHECK-NOT: graph.transpose
// CHECK: %[[OUT:.*]] = graph.reshape %{{.*}} : (tensor<2x16x3x8xf32>) -> tensor<2x16x24xf32>
// CHECK: return %[[OUT]]
func.func private @merged_heads(%q: tensor<6x16x8xf32>, %k: tensor<6x8x16xf32>, %v: tensor<6x16x8xf32>) -> tensor<2x16x24xf32> attributes {dlc.composite = "attention"} {
  %0 = graph.batch_matmul %q, %k : (tensor<6x16x8xf32>, tensor<6x8x16xf32>) -> tensor<6x16x16xf32>
  %1 = graph.softmax %0 : tensor<6x16x16xf32>
  %2 = graph.batch_matmul %1, %v : (tensor<6x16x16xf32>, tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  %3 = graph.reshape %2 : (tensor<6x16x8xf32>) -> tensor<2x3x16x8xf32>
  %4 = graph.transpose %3 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x3x16x8xf32>) -> tensor<2x16x3x8xf32>
  %5 = graph.reshape %4 : (tensor<2x16x3x8xf32>) -> tensor<2x16x24xf32>
  return %5 : tensor<2x16x24xf32>
}

// -----

// The same without the last reshape (outlining leaves it to the caller):
// the loop's result is returned.
// CHECK-LABEL: func private @merged_heads_transposed
// CHECK: %[[LOOP:.*]] = scf.forall {{.*}} -> (tensor<2x16x3x8xf32>)
// CHECK-NOT: graph.transpose
// CHECK: return %[[LOOP]] : tensor<2x16x3x8xf32>
func.func private @merged_heads_transposed(%q: tensor<6x16x8xf32>, %k: tensor<6x8x16xf32>, %v: tensor<6x16x8xf32>) -> tensor<2x16x3x8xf32> attributes {dlc.composite = "attention"} {
  %0 = graph.batch_matmul %q, %k : (tensor<6x16x8xf32>, tensor<6x8x16xf32>) -> tensor<6x16x16xf32>
  %1 = graph.softmax %0 : tensor<6x16x16xf32>
  %2 = graph.batch_matmul %1, %v : (tensor<6x16x16xf32>, tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  %3 = graph.reshape %2 : (tensor<6x16x8xf32>) -> tensor<2x3x16x8xf32>
  %4 = graph.transpose %3 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x3x16x8xf32>) -> tensor<2x16x3x8xf32>
  return %4 : tensor<2x16x3x8xf32>
}

// -----

// A transpose that moves the rows after the heads' width is not a merge of
// heads: the loop computes the context, and the reshape and transpose stay
// after it.
// CHECK-LABEL: func private @other_transpose
// CHECK: %[[LOOP:.*]] = scf.forall {{.*}} -> (tensor<6x16x8xf32>)
// CHECK: %[[SPLIT:.*]] = graph.reshape %[[LOOP]] : (tensor<6x16x8xf32>) -> tensor<2x3x16x8xf32>
// CHECK: %[[T:.*]] = graph.transpose %[[SPLIT]] {perm = array<i64: 0, 1, 3, 2>}
// CHECK: return %[[T]]
func.func private @other_transpose(%q: tensor<6x16x8xf32>, %k: tensor<6x8x16xf32>, %v: tensor<6x16x8xf32>) -> tensor<2x3x8x16xf32> attributes {dlc.composite = "attention"} {
  %0 = graph.batch_matmul %q, %k : (tensor<6x16x8xf32>, tensor<6x8x16xf32>) -> tensor<6x16x16xf32>
  %1 = graph.softmax %0 : tensor<6x16x16xf32>
  %2 = graph.batch_matmul %1, %v : (tensor<6x16x16xf32>, tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  %3 = graph.reshape %2 : (tensor<6x16x8xf32>) -> tensor<2x3x16x8xf32>
  %4 = graph.transpose %3 {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x3x16x8xf32>) -> tensor<2x3x8x16xf32>
  return %4 : tensor<2x3x8x16xf32>
}

// STATS: dlc-tile-attention: left 2, tiled 6
