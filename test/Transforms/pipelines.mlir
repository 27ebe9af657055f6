// Pipelines by TVM name, the default pipeline, the pass ledger, and errors.
// RUN: dlc-opt %s --dlc-pipeline=list:SimplifyInference,FoldConstant,FoldScaleAxis | FileCheck %s --check-prefix=LIST
// RUN: dlc-opt %s --dlc-pipeline=default --dlc-pass-stats 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: dlc-opt %s --dlc-pipeline=list:graph-fold-constant | FileCheck %s --check-prefix=FLAG
// RUN: dlc-opt %s --dlc-pipeline=none | FileCheck %s --check-prefix=NONE
// RUN: not dlc-opt %s --dlc-pipeline=list:SimplifyInference,FuseAll 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dlc-opt %s --dlc-pipeline=O9 2>&1 | FileCheck %s --check-prefix=SPEC

// conv + batch norm + relu: the batch norm's scale ends up in the weights and
// its shift is one add.
// LIST-LABEL: func @main
// LIST-DAG: %[[W:.*]] = graph.constant dense<{{.*}}> : tensor<2x1x1x1xf32>
// LIST-DAG: %[[K:.*]] = graph.constant dense<{{.*}}> : tensor<2x1x1xf32>
// LIST: %[[C:.*]] = graph.conv2d %arg0, %[[W]]
// LIST-NEXT: %[[A:.*]] = graph.add %[[C]], %[[K]]
// LIST-NEXT: %[[R:.*]] = graph.relu %[[A]]
// LIST-NEXT: return %[[R]]

// The ledger says which passes worked and which were dormant.
// DEFAULT: graph-dead-code-elimination: erased 0
// DEFAULT: graph-eliminate-common-subexpr: eliminated 0
// DEFAULT: graph-fold-constant: folded {{[1-9][0-9]*}}, skipped-large 0
// DEFAULT: graph-fold-scale-axis: backward 1, folded 1, forward 0
// DEFAULT: graph-simplify-expr: rewrites 0
// DEFAULT: graph-simplify-inference: batch-norms 1, dropouts 0, layer-norms 0

// FLAG: graph.batch_norm
// NONE: graph.batch_norm
// UNKNOWN: dlc-opt: error: unknown pass 'FuseAll' in the pipeline (known: SimplifyInference, FoldConstant,
// SPEC: dlc-opt: error: unknown pipeline 'O9': expected default, none or list:PassA,PassB,...
func.func @main(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %g = graph.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %b = graph.constant dense<[0.1, 0.2]> : tensor<2xf32>
  %m = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %v = graph.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %c = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %n = graph.batch_norm %c, %g, %b, %m, %v : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %r = graph.relu %n : tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
