# --dlc-pipeline=auto: passes chosen from the architecture, every one
# explained; the user's disable/require; general graphs get O3's passes;
# errors. O3's BackwardFoldScaleAxis is left out of ResNets (measured to cost
# compile time for nothing: the scale stays a multiply in the fused epilogue)
# but not of MobileNets (where that multiply measured slower); the cleanups
# measured dormant on every class model (DCE, CSE, RemoveUnusedFunctions) are
# skipped.
RUN: rm -rf %t && split-file %s %t && cd %t
RUN: dlc-zoo resnet18 --image=64 -o resnet18.mlirbc
RUN: dlc-zoo mobilenet_v2 --image=32 -o mobilenet.mlirbc
RUN: dlc-zoo bert_tiny --seq=16 -o bert.mlirbc

RUN: dlc-opt resnet18.mlirbc --dlc-pipeline=auto --dlc-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESNET
RESNET: auto: resnet (confidence 1.00
RESNET: run  SimplifyInference: O3; class RN (CF'22)
RESNET: skip CombineParallelConv2D: dormant on RN models (dlc's measurements, docs/PassEffects.md)
RESNET: skip BatchingOps: not in O3 nor in the passes of RN
RESNET: skip BackwardFoldScaleAxis: no speed-up measured on RN models for its compile time (bench/auto_vs_o3.py)
RESNET: skip FoldExplicitPadding: no pad in the graph
RESNET: skip CanonicalizeOps: no bias_add in the graph
RESNET: skip FastMath: not in O3 nor in the passes of RN
RESNET: skip DeadCodeElimination: dormant on RN models (dlc's measurements, docs/PassEffects.md)
RESNET: run  FuseOps: O3; class RN (CF'22)
RESNET: auto: list:SimplifyInference,FoldConstant,{{.*}},FuseOps{fuse-opt-level=3}

RUN: dlc-opt mobilenet.mlirbc --dlc-pipeline=auto --dlc-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=MOBILENET
MOBILENET: auto: mobilenet (confidence
MOBILENET: run  BackwardFoldScaleAxis: O3
MOBILENET: run  ForwardFoldScaleAxis: O3
# MobileNets channels-last: the builtin cpu-nhwc target description, whose
# convolutions the CPU measured faster there.
MOBILENET: run  AlterOpLayout: O3; class MN (CF'22); class MN, {target=cpu-nhwc}, measured faster (dlc)
MOBILENET: auto: list:{{.*}}AlterOpLayout{target=cpu-nhwc},FoldConstant,FuseOps

# On BERT, the class's FastMath runs (measured 1-2% faster), and
# MergeComposite (measured faster on the CPU, which computes its attention
# composites block by block); its BatchingOps and O3's SimplifyInference
# (measured to gain nothing on the CPU: the layer norms lower to fewer
# kernels as ops) and O3's dormant passes are skipped. For cuda, where
# nothing was measured, MergeComposite is left out.
RUN: dlc-opt bert.mlirbc --dlc-pipeline=auto --dlc-explain --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=BERT
BERT: auto: bert (confidence 1.00
BERT: skip SimplifyInference: no speed-up measured on BR models for its compile time (bench/auto_vs_o3.py)
BERT: skip BatchingOps: no speed-up measured on BR models for its compile time (bench/auto_vs_o3.py)
BERT: skip BackwardFoldScaleAxis: dormant on BR models
BERT: skip AlterOpLayout: no conv2d or layout_transform in the graph
BERT: run  FastMath: class BR (CF'22)
BERT: run  MergeComposite: class BR, measured faster (dlc)
BERT: graph-auto-pipeline: passes-chosen {{[0-9]+}}
BERT: graph-fast-math: erf 0, exp 0, gelu 2, softmax 2, tanh 0
BERT: graph-merge-composite: attention 2, composites 2
RUN: dlc-opt bert.mlirbc --pass-pipeline='builtin.module(graph-auto-pipeline{target=cuda explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BERT-CUDA
BERT-CUDA: skip MergeComposite: measured faster on the CPU for class BR, not on cuda
BERT-CUDA: auto: list:{{.*}}FastMath,FoldConstant,FuseOps
# Required by the user, it runs for cuda too (its attention a block kernel
# there, not timed on a GPU yet), and auto says what it knows of it.
RUN: dlc-opt bert.mlirbc --pass-pipeline='builtin.module(graph-auto-pipeline{target=cuda explain=true require=MergeComposite})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BERT-CUDA-REQUIRED
BERT-CUDA-REQUIRED: run  MergeComposite: required by the user; measured faster on the CPU for class BR, not on cuda
BERT-CUDA-REQUIRED: auto: list:{{.*}}FastMath,FoldConstant,MergeComposite,FuseOps

# On SSD-ResNet50, CombineParallelConv2D runs with two branches, as dlc
# measured faster on SSD (the box and class heads of each feature map share
# one im2col matrix and product; the backbone's first 1 x 1 convolutions
# and their shortcut too): 8 pairs combined. Without the scale folding in
# between (no gain on RN and SSD), O3's second FoldConstant would follow the
# first: skipped. AlterOpLayout takes SSD's options (channels-last, NHWC
# Winograd products), which the registry lists before those of ResNets,
# which SSD-ResNet50 is too.
RUN: dlc-zoo ssd_resnet50 -o ssd.mlirbc
RUN: dlc-opt ssd.mlirbc --dlc-pipeline=auto --dlc-explain --dlc-pass-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=SSD
SSD: auto: resnet + ssd (confidence
SSD: run  CombineParallelConv2D: class RN (CF'22); class SSD, {min-num-branches=2}, measured faster (dlc)
SSD: run  FoldConstant: O3
SSD: skip FoldConstant: runs just before it: nothing left to do
SSD: run  AlterOpLayout: O3; class RN, SSD (CF'22); class SSD, {target=cpu-nhwc winograd=true}, measured faster (dlc); class RN, {target=cpu-nhwc winograd=true}, measured faster (dlc)
SSD: auto: list:{{.*}},CombineParallelConv2D{min-num-branches=2},FoldConstant,{{.*}},AlterOpLayout{target=cpu-nhwc winograd=true},{{.*}}FuseOps{fuse-opt-level=3}
SSD: graph-combine-parallel-conv2d: branches 16, combined 8

# The user disables and requires passes; the reasons say so.
RUN: dlc-opt bert.mlirbc --dlc-pipeline='auto;disable=FastMath;require=FoldExplicitPadding;explain' -o /dev/null 2>&1 | FileCheck %s --check-prefix=USER
USER: run  FoldExplicitPadding: required by the user
USER: skip FastMath: disabled by the user

# A graph no class fits: O3's choice.
RUN: dlc-opt plain.mlir --dlc-pipeline=auto --dlc-explain 2>&1 | FileCheck %s --check-prefix=GENERAL
GENERAL: auto: general
GENERAL: skip DeadCodeElimination: not in O3 (no class detected: O3's choice)
GENERAL: run  FuseOps: O3
GENERAL: graph.fused

# Errors.
RUN: not dlc-opt plain.mlir --dlc-pipeline='auto;disable=Nope' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
UNKNOWN: error: unknown pass 'Nope'
RUN: not dlc-opt plain.mlir --dlc-pipeline='auto;require=ToMixedPrecision' 2>&1 | FileCheck %s --check-prefix=OUTSIDE
OUTSIDE: error: pass 'ToMixedPrecision' is not in the order auto chooses from, so disabling or requiring it has no effect; run it with list:...
RUN: not dlc-opt plain.mlir --dlc-pipeline='auto;classes=my rules.json' 2>&1 | FileCheck %s --check-prefix=PATH
PATH: error: classes=my rules.json: the path may not contain spaces, commas, braces or quotes
RUN: not dlc-opt plain.mlir --dlc-pipeline=O3 --dlc-explain 2>&1 | FileCheck %s --check-prefix=LEVEL
LEVEL: error: explain and classes= apply to the auto pipeline, not to 'O3'
RUN: not dlc-opt plain.mlir --dlc-explain 2>&1 | FileCheck %s --check-prefix=NOPIPE
NOPIPE: error: --dlc-explain explains --dlc-pipeline=auto; no pipeline was given
RUN: not dlc-opt plain.mlir --dlc-pipeline=auto --dlc-classes=missing.json 2>&1 | FileCheck %s --check-prefix=RULES
RULES: error: graph-auto-pipeline: missing.json: cannot read architecture classes
RUN: not dlc-opt plain.mlir --pass-pipeline='builtin.module(graph-auto-pipeline{target=tpu})' 2>&1 | FileCheck %s --check-prefix=TARGET
TARGET: error: graph-auto-pipeline: target=tpu: expected cpu or cuda

# dlc-run: auto compiles and runs (numerics against the reference:
# test/e2e/cpu-vs-reference.test).
RUN: dlc-run bert.mlirbc --target=cpu --pipeline=auto --no-cache | FileCheck %s --check-prefix=EXEC
EXEC: output 0: f32[1x16]

# Rules of one's own: a class whose passes are CF'22's SSD set (FastMath
# runs on a graph that is otherwise general).
RUN: dlc-opt plain.mlir --dlc-pipeline=auto --dlc-explain --dlc-classes=mine.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=MINE
RUN: dlc-opt plain.mlir --dlc-pipeline='auto;explain;classes=mine.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MINE
MINE: auto: tiny (confidence 1.00
MINE: run  FastMath: class SSD (CF'22)


#--- plain.mlir
func.func @main(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %0 = graph.relu %x : tensor<1x8xf32>
  %1 = graph.exp %0 : tensor<1x8xf32>
  return %1 : tensor<1x8xf32>
}

#--- mine.json
{"classes": [{"name": "tiny", "tag": "SSD", "rules": [{"feature": "ops", "op": "<=", "value": 4}]}]}
