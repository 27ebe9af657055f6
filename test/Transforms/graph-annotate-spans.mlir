// RUN: rm -f %t.snapshot.mlir
// RUN: dlc-opt %s --pass-pipeline="builtin.module(graph-annotate-spans{file=%t.snapshot.mlir})" --mlir-print-debuginfo | FileCheck %s
// RUN: FileCheck %s --check-prefix=SNAPSHOT < %t.snapshot.mlir

// Each op's location points at its line in the snapshot, fused with the
// original location (here, the ONNX node name).
// CHECK: graph.relu %{{.*}} loc(#[[L:loc[0-9]+]])
// CHECK-DAG: #[[ORIG:loc[0-9]+]] = loc("conv1_relu")
// CHECK-DAG: #[[SNAP:loc[0-9]+]] = loc("{{.*}}snapshot.mlir":3:{{[0-9]+}})
// CHECK-DAG: #[[TAG:loc[0-9]+]] = loc("span"(#[[SNAP]]))
// CHECK-DAG: #[[L]] = loc(fused[#[[ORIG]], #[[TAG]]])
// SNAPSHOT: module {
// SNAPSHOT-NEXT: func.func @main
// SNAPSHOT-NEXT: %0 = graph.relu %arg0 : tensor<4xf32>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %x : tensor<4xf32> loc("conv1_relu")
  return %0 : tensor<4xf32>
}

// RUN: not dlc-opt %s --pass-pipeline="builtin.module(graph-annotate-spans{file=/nonexistent/dir/x.mlir})" 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: graph-annotate-spans: cannot write the snapshot to '/nonexistent/dir/x.mlir'
