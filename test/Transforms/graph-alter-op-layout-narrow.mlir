// Convolutions of bf16 are their own op class, `conv2d.bf16`: a target
// description can want them in another layout than f32 ones. Their weights,
// like f16 ones, are permuted on their bytes at compile time.
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=%S/Inputs/target-bf16-nhwc.txt}))" | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=%S/Inputs/target-bf16-nhwc.txt}))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// All convolutions channels-last, the f16 weight permuted too.
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=%S/Inputs/target-nhwc.txt}))" | FileCheck %s --check-prefix=NHWC
// The builtin cpu description wants bf16 convolutions channels-last where
// the CPU has AVX512-BF16 (NHWC im2col products of bf16 are dot products
// there), and none elsewhere.
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=cpu}))" | FileCheck %s --check-prefix=%if avx512bf16 %{CPU-DOTS%} %else %{CPU-WIDEN%}
// The builtin cuda description (dlc's GPU kernels) wants NCHW on any host.
// RUN: dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=cuda}))" | FileCheck %s --check-prefix=CPU-WIDEN
// The permuted weights hold the same values: the model computes what it
// did (the reference interpreter; outputs in f32).
// RUN: rm -rf %t && mkdir -p %t && dlc-opt %s --pass-pipeline="builtin.module(func.func(graph-alter-op-layout{target=%S/Inputs/target-nhwc.txt}))" -o %t/nhwc.mlir
// RUN: dlc-run %s --input=random:seed=3 --output=%t/a.npy --output=%t/b.npy --output=%t/c.npy > /dev/null
// RUN: dlc-run %t/nhwc.mlir --input=random:seed=3 --expect=%t/a.npy --expect=%t/b.npy --expect=%t/c.npy --atol=0 --rtol=0 | FileCheck %s --check-prefix=SAME

// STATS: graph-alter-op-layout: constants 1, converted 1, followed 1, transforms 2, unsupported 0
// SAME: output 0: matches {{.*}}a.npy (max abs error 0, max rel error 0)
// SAME: output 1: matches {{.*}}b.npy (max abs error 0, max rel error 0)
// SAME: output 2: matches {{.*}}c.npy (max abs error 0, max rel error 0)

// Only the bf16 convolution moves; its weight 1..8 as HWIO in bf16 (1.0 is
// 0x3F80, little-endian bytes).
// CHECK-LABEL: func @main
// CHECK: graph.layout_transform %arg0 {dst_layout = "NHWC", src_layout = "NCHW"} : (tensor<1x1x3x3xbf16>) -> tensor<1x3x3x1xbf16>
// CHECK: graph.constant dense_resource<layout> : tensor<2x2x1x2xbf16>
// CHECK: graph.conv2d {{.*}} {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x3x3x1xbf16>, tensor<2x2x1x2xbf16>) -> tensor<1x2x2x2xbf16>
// CHECK: graph.conv2d %arg1, {{.*}} : (tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x2x2xf32>
// CHECK: graph.conv2d %arg2, {{.*}} : (tensor<1x1x3x3xf16>, tensor<2x1x2x2xf16>) -> tensor<1x2x2x2xf16>
// CHECK: layout: "0x40000000803FA0400040C0404040E04080400041"
// NHWC-LABEL: func @main
// NHWC-DAG: graph.constant dense_resource<[[B:.*]]> : tensor<2x2x1x2xbf16>
// NHWC-DAG: graph.constant dense_resource<[[F:.*]]> : tensor<2x2x1x2xf32>
// NHWC-DAG: graph.constant dense_resource<[[H:.*]]> : tensor<2x2x1x2xf16>
// NHWC-DAG: [[B]]: "0x40000000803FA0400040C0404040E04080400041"
// NHWC-DAG: [[F]]: "0x400000000000803F0000A040000000400000C040000040400000E0400000804000000041"
// NHWC-DAG: [[H]]: "0x40000000003C0045004000460042004700440048"
// CPU-DOTS-LABEL: func @main
// CPU-DOTS: graph.conv2d {{.*}} {data_layout = "NHWC", kernel_layout = "HWIO"} : {{.*}}bf16
// CPU-DOTS-NOT: data_layout = "NHWC"
// CPU-WIDEN-NOT: data_layout = "NHWC"
func.func @main(%x: tensor<1x1x3x3xbf16>, %y: tensor<1x1x3x3xf32>, %z: tensor<1x1x3x3xf16>)
    -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]]> : tensor<2x1x2x2xbf16>
  %c = graph.conv2d %x, %w : (tensor<1x1x3x3xbf16>, tensor<2x1x2x2xbf16>) -> tensor<1x2x2x2xbf16>
  %cf = graph.cast %c : (tensor<1x2x2x2xbf16>) -> tensor<1x2x2x2xf32>
  %v = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]]> : tensor<2x1x2x2xf32>
  %d = graph.conv2d %y, %v : (tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %u = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]]> : tensor<2x1x2x2xf16>
  %e = graph.conv2d %z, %u : (tensor<1x1x3x3xf16>, tensor<2x1x2x2xf16>) -> tensor<1x2x2x2xf16>
  %ef = graph.cast %e : (tensor<1x2x2x2xf16>) -> tensor<1x2x2x2xf32>
  return %cf, %d, %ef : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}
