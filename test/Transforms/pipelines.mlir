// Pipelines by TVM name, optimization levels with TVM's gating, the pass
// ledger, and errors.
// RUN: dlc-opt %s --dlc-pipeline=list:SimplifyInference,FoldConstant,FoldScaleAxis | FileCheck %s --check-prefix=LIST
// RUN: dlc-opt %s --dlc-pipeline=default | FileCheck %s --check-prefix=DEFAULT
// RUN: dlc-opt %s --dlc-pipeline=default --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: dlc-opt %s --dlc-pipeline=O3 | FileCheck %s --check-prefix=DEFAULT
// RUN: dlc-opt %s --dlc-pipeline=O0 | FileCheck %s --check-prefix=O0
// RUN: dlc-opt %s --dlc-pipeline=O0 --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=O0-STATS
// RUN: dlc-opt %s --dlc-pipeline=O2 | FileCheck %s --check-prefix=O2
// RUN: dlc-opt %s --dlc-pipeline=O2 --dlc-require=BackwardFoldScaleAxis | FileCheck %s --check-prefix=REQUIRE
// RUN: dlc-opt %s --dlc-pipeline=O3 --dlc-disable=FuseOps,FoldScaleAxis | FileCheck %s --check-prefix=DISABLE
// RUN: dlc-opt %s --dlc-pipeline="O3;disable=FuseOps,FoldScaleAxis" | FileCheck %s --check-prefix=DISABLE
// RUN: dlc-opt %s --dlc-pipeline=list:graph-fold-constant | FileCheck %s --check-prefix=FLAG
// RUN: dlc-opt %s --dlc-pipeline="list:SimplifyInference,FuseOps{fuse-opt-level=0 max-depth=4}" | FileCheck %s --check-prefix=OPTIONS
// RUN: dlc-opt %s --dlc-pipeline=none | FileCheck %s --check-prefix=NONE
// RUN: not dlc-opt %s --dlc-pipeline=list:SimplifyInference,FuseAll 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dlc-opt %s --dlc-pipeline=O9 2>&1 | FileCheck %s --check-prefix=SPEC
// RUN: not dlc-opt %s --dlc-pipeline=O3 --dlc-disable=FuseAll 2>&1 | FileCheck %s --check-prefix=UNKNOWN-DISABLE
// RUN: not dlc-opt %s --dlc-pipeline=O3 --dlc-require=FoldExplicitPadding 2>&1 | FileCheck %s --check-prefix=NOT-IN-LEVELS
// RUN: not dlc-opt %s --dlc-pipeline=list:FoldConstant --dlc-disable=FuseOps 2>&1 | FileCheck %s --check-prefix=LIST-GATED
// RUN: not dlc-opt %s --dlc-pipeline="list:FuseOps{depth=4}" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not dlc-opt %s --dlc-pipeline="O3;skip=FuseOps" 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: dlc-opt %s --dlc-pipeline="O3;mixed=f16" | FileCheck %s --check-prefix=MIXED
// RUN: dlc-opt %s --dlc-pipeline="auto;mixed=bf16;explain" 2>&1 | FileCheck %s --check-prefix=MIXED-AUTO
// RUN: not dlc-opt %s --dlc-pipeline="O3;mixed=f8" 2>&1 | FileCheck %s --check-prefix=MIXED-TYPE
// RUN: not dlc-opt %s --dlc-pipeline="list:FuseOps;mixed=f16" 2>&1 | FileCheck %s --check-prefix=MIXED-LIST
// RUN: not dlc-opt %s --pass-pipeline="builtin.module(graph-auto-pipeline{mixed=f8})" 2>&1 | FileCheck %s --check-prefix=MIXED-PASS
// RUN: dlc-opt %s --dlc-pipeline="O3;mixed=f16;layout=cpu-nhwc" | FileCheck %s --check-prefix=LAYOUT
// RUN: not dlc-opt %s --dlc-pipeline="O2;layout=cpu-nhwc" 2>&1 | FileCheck %s --check-prefix=LAYOUT-LEVEL
// RUN: dlc-opt %s --dlc-pipeline="O2;layout=cpu-nhwc;require=AlterOpLayout" | FileCheck %s --check-prefix=LAYOUT
// RUN: not dlc-opt %s --dlc-pipeline="auto;layout=cpu-nhwc" 2>&1 | FileCheck %s --check-prefix=LAYOUT-AUTO
// RUN: not dlc-opt %s --dlc-pipeline="O3;layout=a,b" 2>&1 | FileCheck %s --check-prefix=LAYOUT-NAME
// RUN: not dlc-opt %s --dlc-pipeline="O3;layout=gpu-nchw" 2>&1 | FileCheck %s --check-prefix=LAYOUT-UNKNOWN

// conv + batch norm + relu: the batch norm's scale ends up in the weights and
// its shift is one add.
// LIST-LABEL: func @main
// LIST-DAG: %[[W:.*]] = graph.constant dense<{{.*}}> : tensor<2x1x1x1xf32>
// LIST-DAG: %[[K:.*]] = graph.constant dense<{{.*}}> : tensor<2x1x1xf32>
// LIST: %[[C:.*]] = graph.conv2d %arg0, %[[W]]
// LIST-NEXT: %[[A:.*]] = graph.add %[[C]], %[[K]]
// LIST-NEXT: %[[R:.*]] = graph.relu %[[A]]
// LIST-NEXT: return %[[R]]

// O3 (the default): folded as above, then one kernel of conv + add + relu.
// DEFAULT-LABEL: func @main
// DEFAULT: %[[F:.*]] = graph.fused %arg0, %{{.*}}, %{{.*}} {pattern = "out_elemwise_fusable"}
// DEFAULT-NEXT: ^bb0
// DEFAULT-NEXT: graph.conv2d
// DEFAULT-NEXT: graph.add
// DEFAULT-NEXT: graph.relu
// DEFAULT-NEXT: graph.yield
// DEFAULT: return %[[F]]

// The ledger says which passes worked and which were dormant.
// STATS: graph-backward-fold-scale-axis: folded 1
// STATS: graph-canonicalize-cast: duplicated 0
// STATS: graph-canonicalize-ops: rewrites 0
// STATS: graph-eliminate-common-subexpr: eliminated 0
// STATS: graph-fold-constant: folded {{[1-9][0-9]*}}, on-bytes {{[0-9]+}}, skipped-large 0
// STATS: graph-forward-fold-scale-axis: folded 0
// STATS: graph-fuse-ops: fused-ops 3, groups 1
// STATS: graph-remove-unused-functions: removed 0
// STATS: graph-simplify-expr: rewrites 0
// STATS: graph-simplify-inference: batch-norms 1, dropouts 0, layer-norms 0

// O0 runs SimplifyInference, SimplifyExpr and FuseOps without fusion:
// nothing folded, one region per op (the batch norm's arithmetic is 9 ops).
// O0-LABEL: func @main
// O0-COUNT-11: graph.fused
// O0-NOT: graph.fused
// O0-STATS: graph-fuse-ops: fused-ops 0, groups 11
// O0-STATS-NEXT: graph-simplify-expr: rewrites
// O0-STATS-NEXT: graph-simplify-inference: batch-norms 1

// O2 folds constants but not scales (FoldScaleAxis's passes are O3): the
// batch norm's multiply stays, fused with the conv.
// O2: graph.conv2d
// O2-NEXT: graph.mul
// O2-NEXT: graph.add
// O2-NEXT: graph.relu
// REQUIRE: graph.conv2d
// REQUIRE-NEXT: graph.add
// REQUIRE-NEXT: graph.relu

// Disabled: no fusion, no scale folding.
// DISABLE-NOT: graph.fused
// DISABLE: graph.conv2d
// DISABLE: graph.mul
// DISABLE-NEXT: graph.add
// DISABLE-NEXT: graph.relu

// FLAG: graph.batch_norm
// OPTIONS-COUNT-11: graph.fused
// NONE: graph.batch_norm
// UNKNOWN: dlc-opt: error: unknown pass 'FuseAll' in the pipeline (known: SimplifyInference, FoldConstant,
// SPEC: dlc-opt: error: unknown pipeline 'O9': expected O0, O1, O2, O3, O4, default (O3), auto, tuned:DB.jsonl, none or list:PassA,PassB,...
// UNKNOWN-DISABLE: dlc-opt: error: unknown pass 'FuseAll' (expected a TVM name; known: SimplifyInference,
// NOT-IN-LEVELS: dlc-opt: error: pass 'FoldExplicitPadding' is not part of the O0..O4 sequence, so disabling or requiring it has no effect; run it with list:...
// LIST-GATED: dlc-opt: error: disable= and require= apply to O0..O4 and auto, mixed= to O0..O4, auto and tuned:, explain to auto and tuned:, classes= to auto, not to 'list:FoldConstant'
// OPTION: dlc-opt: error: cannot build pipeline 'list:FuseOps{depth=4}': {{.*}}depth
// FIELD: dlc-opt: error: unknown pipeline field 'skip' (expected disable=A,B, require=A,B, explain, classes=FILE, mixed=f16|bf16, external=TARGET or layout=TARGET)

// mixed=f16: O3's graph computed in f16 where safe, the weights converted
// at compile time, before FuseOps; the result still f32 (cast back in the
// convolution's kernel).
// MIXED-LABEL: func @main
// MIXED: %[[X:.*]] = graph.fused %arg0 {pattern = "elemwise"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf16>
// MIXED: graph.fused %[[X]], %{{.*}}, %{{.*}} {pattern = "out_elemwise_fusable"} : (tensor<1x1x2x2xf16>, tensor<2x1x1x1xf16>, tensor<2x1x1xf16>) -> tensor<1x2x2x2xf32>
// MIXED: graph.conv2d {{.*}} -> tensor<1x2x2x2xf16>
// MIXED-NEXT: graph.add {{.*}} -> tensor<1x2x2x2xf16>
// MIXED-NEXT: graph.relu
// MIXED-NEXT: graph.cast {{.*}} -> tensor<1x2x2x2xf32>
// MIXED-AUTO: run  ToMixedPrecision: mixed=bf16, before FuseOps; grouped convolutions stay f32 (the CPU computes them widened)
// MIXED-AUTO: auto: list:{{.*}}ToMixedPrecision{type=bf16 grouped-f32=true keep-orig-output-dtype=true},FoldConstant,FuseOps{fuse-opt-level=3}
// MIXED-AUTO: graph.conv2d {{.*}} -> tensor<1x2x2x2xbf16>
// MIXED-TYPE: dlc-opt: error: mixed=f8: expected mixed=f16 or mixed=bf16
// MIXED-PASS: error: graph-auto-pipeline: mixed=f8: expected f16 or bf16
// MIXED-LIST: dlc-opt: error: disable= and require= apply to O0..O4 and auto, mixed= to O0..O4, auto and tuned:, explain to auto and tuned:, classes= to auto, not to 'list:FuseOps'
// layout=cpu-nhwc: O3's AlterOpLayout gives the convolution NHWC and HWIO
// (the weights transformed at compile time), with the mixed precision.
// LAYOUT-LABEL: func @main
// LAYOUT: graph.conv2d {{.*}}data_layout = "NHWC"{{.*}}kernel_layout = "HWIO"
// LAYOUT-LEVEL: dlc-opt: error: layout=cpu-nhwc: O2 does not run AlterOpLayout (O3 and O4 do, or require=AlterOpLayout)
// LAYOUT-AUTO: dlc-opt: error: layout= applies to O0..O4, not to 'auto'
// LAYOUT-NAME: dlc-opt: error: layout=a,b: expected a target description (cpu-nhwc, or a file without spaces, commas, braces or quotes)
// LAYOUT-UNKNOWN: error: graph-alter-op-layout: cannot read target description 'gpu-nchw' (builtin targets: cpu, cpu-nhwc, cuda, cublas)
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

// external=T: the partitioning passes for target T before FuseOps, after
// mixed='s.
// RUN: dlc-opt %s --dlc-pipeline="O3;mixed=f16;external=cublas" --dlc-pass-ledger=%t.ledger.json -o /dev/null
// RUN: %sys_python -c "import json, sys; print(' '.join(p['tvm_name'] for p in json.load(open(sys.argv[1]))['passes']))" %t.ledger.json | FileCheck %s --check-prefix=EXTERNAL
// EXTERNAL: AlterOpLayout FoldConstant ToMixedPrecision FoldConstant AnnotateTarget MergeCompilerRegions PartitionGraph FuseOps{{$}}
