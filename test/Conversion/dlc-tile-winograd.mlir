// RUN: dlc-opt %s -split-input-file --dlc-pass-stats \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-tile-winograd{threads=2}))" \
// RUN:   2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// STATS: dlc-tile-winograd: left 2, tiled 6
// Transformed weights beyond weight-bytes: left.
// RUN: dlc-opt %s -split-input-file --dlc-pass-stats -o /dev/null \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-tile-winograd{threads=2 weight-bytes=4096}))" \
// RUN:   2>&1 | FileCheck %s --check-prefix=WEIGHTS
// WEIGHTS: dlc-tile-winograd: left 7, tiled 1
// RUN: not dlc-opt %s -split-input-file -o /dev/null \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-tile-winograd{threads=0}))" \
// RUN:   2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID: error: dlc-tile-winograd: threads=0 is below 1
// RUN: not dlc-opt %s -split-input-file -o /dev/null \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-tile-winograd{band-bytes=0}))" \
// RUN:   2>&1 | FileCheck %s --check-prefix=INVALID-BAND
// INVALID-BAND: error: dlc-tile-winograd: band-bytes=0 is below 1
// RUN: not dlc-opt %s -split-input-file -o /dev/null \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-tile-winograd{weight-bytes=-1}))" \
// RUN:   2>&1 | FileCheck %s --check-prefix=INVALID-WEIGHTS
// INVALID-WEIGHTS: error: dlc-tile-winograd: weight-bytes=-1 is below 0

// ResNet-50's first stage, NHWC: a tile row's transformed tiles (36 x 14
// tiles x 64 channels, 126 KiB) a band, 14 bands; the band's convolution
// reads its six padded rows, unpadded itself, and its scale, shift and
// ReLU follow it in the loop.
// CHECK-LABEL: func private @nhwc
// CHECK-SAME: (%[[X:.*]]: tensor<1x56x56x64xf32>, %[[U:.*]]: tensor<36x64x64xf32>, %[[S:.*]]: tensor<64xf32>, %[[B:.*]]: tensor<1x1x1x64xf32>)
// CHECK: %[[PAD:.*]] = graph.pad %[[X]] {pad_after = array<i64: 0, 1, 1, 0>, pad_before = array<i64: 0, 1, 1, 0>} : (tensor<1x56x56x64xf32>) -> tensor<1x58x58x64xf32>
// CHECK: %[[LOOP:.*]] = scf.forall (%[[N:.*]], %[[T:.*]]) in (1, 14) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<1x56x56x64xf32>)
// CHECK: %[[ROW:.*]] = arith.muli %[[T]], %c4
// CHECK: %[[IN:.*]] = tensor.extract_slice %[[PAD]][%[[N]], %[[ROW]], 0, 0] [1, 6, 58, 64] [1, 1, 1, 1]
// CHECK: %[[CONV:.*]] = graph.conv2d_winograd %[[IN]], %[[U]] {data_layout = "NHWC"} : (tensor<1x6x58x64xf32>, tensor<36x64x64xf32>) -> tensor<1x4x56x64xf32>
// CHECK: %[[MUL:.*]] = graph.mul %[[CONV]], %[[S]] : (tensor<1x4x56x64xf32>, tensor<64xf32>) -> tensor<1x4x56x64xf32>
// CHECK: %[[ADD:.*]] = graph.add %[[MUL]], %[[B]] : (tensor<1x4x56x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x4x56x64xf32>
// CHECK: %[[RELU:.*]] = graph.relu %[[ADD]] : tensor<1x4x56x64xf32>
// CHECK: tensor.parallel_insert_slice %[[RELU]] into %[[OUT]][%[[N]], %[[ROW]], 0, 0] [1, 4, 56, 64] [1, 1, 1, 1]
// CHECK: return %[[LOOP]]
func.func private @nhwc(%x: tensor<1x56x56x64xf32>, %u: tensor<36x64x64xf32>, %s: tensor<64xf32>, %b: tensor<1x1x1x64xf32>) -> tensor<1x56x56x64xf32> {
  %y = graph.conv2d_winograd %x, %u {data_layout = "NHWC", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x56x56x64xf32>, tensor<36x64x64xf32>) -> tensor<1x56x56x64xf32>
  %m = graph.mul %y, %s : (tensor<1x56x56x64xf32>, tensor<64xf32>) -> tensor<1x56x56x64xf32>
  %a = graph.add %m, %b : (tensor<1x56x56x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x56x56x64xf32>
  %r = graph.relu %a : tensor<1x56x56x64xf32>
  return %r : tensor<1x56x56x64xf32>
}

// -----

// NCHW, two samples of 19 x 19 (5 x 5 tiles of 4, the last row and column
// of tiles cut): small tile rows, so all five in a band, a band a sample.
// The input is padded to whole tiles (22 rows and columns: 1 before, 2
// after), and the loop's 20 x 20 output cut to 19 x 19 after it. The
// residual add reads the whole output: it stays after the loop; the bias
// goes with the convolution.
// CHECK-LABEL: func private @nchw
// CHECK: graph.pad %{{.*}} {pad_after = array<i64: 0, 0, 2, 2>, pad_before = array<i64: 0, 0, 1, 1>} : (tensor<2x8x19x19xf32>) -> tensor<2x8x22x22xf32>
// CHECK: %[[LOOP:.*]] = scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (2, 5) step (1, 5)
// CHECK: tensor.extract_slice %{{.*}} [1, 8, 22, 22] [1, 1, 1, 1]
// CHECK: graph.conv2d_winograd %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x8x22x22xf32>, tensor<36x8x8xf32>, tensor<8xf32>) -> tensor<1x8x20x20xf32>
// CHECK-NEXT: scf.forall.in_parallel
// CHECK: %[[CUT:.*]] = tensor.extract_slice %[[LOOP]][0, 0, 0, 0] [2, 8, 19, 19] [1, 1, 1, 1]
// CHECK: graph.add %[[CUT]], %{{.*}} : (tensor<2x8x19x19xf32>, tensor<2x8x19x19xf32>)
func.func private @nchw(%x: tensor<2x8x19x19xf32>, %u: tensor<36x8x8xf32>, %bias: tensor<8xf32>) -> tensor<2x8x19x19xf32> {
  %y = graph.conv2d_winograd %x, %u, %bias {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x8x19x19xf32>, tensor<36x8x8xf32>, tensor<8xf32>) -> tensor<2x8x19x19xf32>
  %a = graph.add %y, %x : (tensor<2x8x19x19xf32>, tensor<2x8x19x19xf32>) -> tensor<2x8x19x19xf32>
  return %a : tensor<2x8x19x19xf32>
}

// -----

// Unpadded (a 16 x 16 output from 18 x 18), tiles of 2: 8 small rows of
// tiles, in as few bands as the two threads take, nothing padded.
// CHECK-LABEL: func private @valid
// CHECK-NOT: graph.pad
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (1, 8) step (1, 4)
// CHECK: graph.conv2d_winograd %{{.*}}, %{{.*}} {data_layout = "NHWC", tile = 2 : i64} : (tensor<1x10x18x4xf32>, tensor<16x4x4xf32>) -> tensor<1x8x16x4xf32>
func.func private @valid(%x: tensor<1x18x18x4xf32>, %u: tensor<16x4x4xf32>) -> tensor<1x16x16x4xf32> {
  %y = graph.conv2d_winograd %x, %u {data_layout = "NHWC", tile = 2 : i64} : (tensor<1x18x18x4xf32>, tensor<16x4x4xf32>) -> tensor<1x16x16x4xf32>
  return %y : tensor<1x16x16x4xf32>
}

// -----

// One row of tiles in one sample: no bands to split, left.
// CHECK-LABEL: func private @negative_one_row
// CHECK-NOT: scf.forall
// CHECK: graph.conv2d_winograd %{{.*}}, %{{.*}} {data_layout = "NHWC", padding = array<i64: 1, 1, 1, 1>}
func.func private @negative_one_row(%x: tensor<1x4x28x16xf32>, %u: tensor<36x16x16xf32>) -> tensor<1x4x28x16xf32> {
  %y = graph.conv2d_winograd %x, %u {data_layout = "NHWC", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x28x16xf32>, tensor<36x16x16xf32>) -> tensor<1x4x28x16xf32>
  return %y : tensor<1x4x28x16xf32>
}

// -----

// Transformed weights of 4.5 MiB (36 x 256 x 128), more than every band
// should read again: left.
// CHECK-LABEL: func private @negative_large_weights
// CHECK-NOT: scf.forall
func.func private @negative_large_weights(%x: tensor<1x14x14x256xf32>, %u: tensor<36x256x128xf32>) -> tensor<1x14x14x128xf32> {
  %y = graph.conv2d_winograd %x, %u {data_layout = "NHWC", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x14x14x256xf32>, tensor<36x256x128xf32>) -> tensor<1x14x14x128xf32>
  return %y : tensor<1x14x14x128xf32>
}

// -----

// An epilogue and the edge cut together: a scale by a scalar defined after
// the convolution (the loop goes where the chain ends, after it), then a
// conversion to f16; the loop's whole tiles are f16, cut to 19 x 19.
// CHECK-LABEL: func private @epilogue_cut
// CHECK: %[[SCALE:.*]] = graph.constant dense<2.000000e+00> : tensor<f32>
// CHECK: %[[LOOP:.*]] = scf.forall (%{{.*}}, %{{.*}}) in (1, 5) shared_outs(%{{.*}}) -> (tensor<1x20x20x16xf16>)
// CHECK: %[[CONV:.*]] = graph.conv2d_winograd {{.*}} -> tensor<1x4x20x16xf32>
// CHECK: %[[MUL:.*]] = graph.mul %[[CONV]], %[[SCALE]] : (tensor<1x4x20x16xf32>, tensor<f32>) -> tensor<1x4x20x16xf32>
// CHECK: graph.cast %[[MUL]] : (tensor<1x4x20x16xf32>) -> tensor<1x4x20x16xf16>
// CHECK: %[[CUT:.*]] = tensor.extract_slice %[[LOOP]][0, 0, 0, 0] [1, 19, 19, 16] [1, 1, 1, 1] : tensor<1x20x20x16xf16> to tensor<1x19x19x16xf16>
// CHECK: return %[[CUT]]
func.func private @epilogue_cut(%x: tensor<1x19x19x16xf32>, %u: tensor<36x16x16xf32>) -> tensor<1x19x19x16xf16> {
  %y = graph.conv2d_winograd %x, %u {data_layout = "NHWC", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x19x19x16xf32>, tensor<36x16x16xf32>) -> tensor<1x19x19x16xf32>
  %s = graph.constant dense<2.0> : tensor<f32>
  %m = graph.mul %y, %s : (tensor<1x19x19x16xf32>, tensor<f32>) -> tensor<1x19x19x16xf32>
  %h = graph.cast %m : (tensor<1x19x19x16xf32>) -> tensor<1x19x19x16xf16>
  return %h : tensor<1x19x19x16xf16>
}

// -----

// The chain ends at a value with two users (the add after the loop reads
// the scaled output twice), and at an op with an axis that is not the
// channels' (bias_add's default, 1: a bias per row in NHWC, here as long
// as the channels).
// CHECK-LABEL: func private @chain_ends
// CHECK: %[[LOOP:.*]] = scf.forall
// CHECK: graph.mul
// CHECK: scf.forall.in_parallel
// CHECK: %[[ADD:.*]] = graph.add %[[LOOP]], %[[LOOP]]
// CHECK: %[[LOOP2:.*]] = scf.forall
// CHECK-NOT: graph.bias_add
// CHECK: scf.forall.in_parallel
// CHECK: graph.bias_add %[[LOOP2]], %{{.*}} :
func.func private @chain_ends(%x: tensor<1x16x16x16xf32>, %u: tensor<36x16x16xf32>, %s: tensor<16xf32>) -> (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) {
  %y = graph.conv2d_winograd %x, %u {data_layout = "NHWC", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x16x16x16xf32>, tensor<36x16x16xf32>) -> tensor<1x16x16x16xf32>
  %m = graph.mul %y, %s : (tensor<1x16x16x16xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32>
  %a = graph.add %m, %m : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %z = graph.conv2d_winograd %x, %u {data_layout = "NHWC", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x16x16x16xf32>, tensor<36x16x16xf32>) -> tensor<1x16x16x16xf32>
  %b = graph.bias_add %z, %s {axis = 1 : i64} : (tensor<1x16x16x16xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32>
  return %a, %b : tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>
}
