//===- Passes.td - the dlc graph pass catalogue ------------*- tablegen -*-===//
//
// One entry per pass, mirroring TVM Relay's graph passes (see
// ../shared/reference/tvm-relay-passes.md). Each description gives the TVM
// name, what the pass rewrites and the conditions under which it must not.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TRANSFORMS_PASSES_TD
#define DLC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SimplifyInferencePass : Pass<"graph-simplify-inference", "mlir::func::FuncOp"> {
  let summary = "Lower inference-time normalizations to elementwise arithmetic (TVM SimplifyInference)";
  let description = [{
    TVM name: `SimplifyInference`.

    - `graph.batch_norm(x, gamma, beta, mean, var)` becomes
      `x * scale + shift` with `scale = gamma / sqrt(var + eps)` and
      `shift = beta - mean * scale`, both reshaped to broadcast along the
      channel axis. FoldConstant then turns scale and shift into constants.
    - `graph.layer_norm` becomes `(x - mean) / sqrt(var + eps) * gamma + beta`
      with means over the normalized axes.
    - `graph.dropout` (inference) becomes its input.

    Conditions: none beyond the ops' own verifiers; every instance is rewritten.

    Counters (`--dlc-pass-stats`): `batch-norms`, batch_norm ops rewritten; `layer-norms`, layer_norm ops rewritten; `dropouts`, dropout ops removed.
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def FoldConstantPass : Pass<"graph-fold-constant", "mlir::func::FuncOp"> {
  let summary = "Evaluate ops whose operands are all constants (TVM FoldConstant)";
  let description = [{
    TVM name: `FoldConstant`.

    An op whose operands are all `graph.constant` is evaluated with the
    reference interpreter's semantics and replaced by constants.

    Conditions (must not fold):
    - ops without operands (TVM: "harmful to fold ones(shape)"), which here
      are the constants themselves;
    - ops inside `graph.fused` / `graph.composite` bodies (TVM's Primitive
      functions) and the region ops themselves;
    - a result with more than `size-limit` elements, unless every constant
      operand has no other use (so a large constant is never materialized
      twice, e.g. a transposed copy of weights that are still used);
    - `graph.quantize` and `graph.dequantize`, unless `fold-qnn` (TVM's
      `fold_qnn=false`): quantized weights stay quantized for
      FakeQuantizationToInteger.

    Counters (`--dlc-pass-stats`): `folded`, ops folded into constants; `on-bytes`, of them, those computed on the constants' bytes (data movement, arithmetic of f32, f16 or bf16, casts between f32, f16 and bf16) rather than by the interpreter; `skipped-large`, ops not folded because the result is large and operands live on.
  }];
  let options = [
    Option<"sizeLimit", "size-limit", "int64_t", /*default=*/"1 << 16",
           "Largest result (elements) folded while its operands stay alive">,
    Option<"foldQnn", "fold-qnn", "bool", /*default=*/"false",
           "Also fold quantize and dequantize ops">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def BackwardFoldScaleAxisPass
    : Pass<"graph-backward-fold-scale-axis", "mlir::func::FuncOp"> {
  let summary = "Fold a per-channel scale after conv2d/dense into the weights (TVM BackwardFoldScaleAxis)";
  let description = [{
    TVM name: `BackwardFoldScaleAxis`.

    `mul(conv2d(x, w, b), s)` with a constant `s` that varies only along the
    output-channel axis becomes `conv2d(x, w * s, b * s)`; likewise for
    `graph.dense` (scale along the last axis). The scale is pushed back
    through `relu` (only when every scale value is positive), through
    `add`/`sub` with a constant operand (the constant is scaled too) and
    through `bias_add` (the bias is scaled).

    Conditions: `s` is a constant broadcasting on the channel axis only;
    conv2d has groups == 1 or is depthwise; every value on the chain between
    the contraction and the multiply has a single use.

    Counters (`--dlc-pass-stats`): `folded`, scales folded into weights.
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def ForwardFoldScaleAxisPass
    : Pass<"graph-forward-fold-scale-axis", "mlir::func::FuncOp"> {
  let summary = "Fold a per-channel scale before conv2d/dense into the weights (TVM ForwardFoldScaleAxis)";
  let description = [{
    TVM name: `ForwardFoldScaleAxis`.

    `conv2d(mul(x, s), w)` with a constant `s` that varies only along the
    input-channel axis becomes `conv2d(x, w * s)` (scale on the weight's I
    axis); likewise `dense(mul(x, s), w)` with `s` along the last axis. The
    scale is moved forward through `relu` (positive scales only) and through
    `add`/`sub` with a constant `c` (which becomes `c / s`, so `s` must have
    no zero).

    Conditions: `s` is a constant broadcasting on the channel axis only;
    conv2d has groups == 1 (its padding is fine: padded zeros stay zero
    under the scale); every value on the chain has a single use.

    Counters (`--dlc-pass-stats`): `folded`, scales folded into weights.
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def FoldScaleAxisPass : Pass<"graph-fold-scale-axis", "mlir::func::FuncOp"> {
  let summary = "BackwardFoldScaleAxis, ForwardFoldScaleAxis, then FoldConstant (TVM FoldScaleAxis)";
  let description = [{
    TVM name: `FoldScaleAxis`, the sequence
    `{BackwardFoldScaleAxis, ForwardFoldScaleAxis, FoldConstant}`; see those
    passes for the conditions.

    Counters (`--dlc-pass-stats`): `backward`, scales folded backward; `forward`, scales folded forward; `folded`, ops folded into constants.
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def FoldExplicitPaddingPass
    : Pass<"graph-fold-explicit-padding", "mlir::func::FuncOp"> {
  let summary = "Fold graph.pad into conv2d / pooling padding (TVM FoldExplicitPadding)";
  let description = [{
    TVM name: `FoldExplicitPadding`.

    `conv2d(pad(x))`, `avg_pool2d(pad(x))` and `max_pool2d(pad(x))` become
    the op with the pad added to its `padding`.

    Conditions: the pad is `constant` mode and non-zero only on the spatial
    (H, W) axes of the op's layout; its value is 0 for conv2d and avg_pool2d
    and the element type's lowest value (-inf for floats) for max_pool2d;
    avg_pool2d with `count_include_pad = false` is folded only when its own
    padding is all 0, and then `count_include_pad` becomes true; the folded
    padding must still be valid for the op (pooling padding smaller than the
    kernel).

    Counters (`--dlc-pass-stats`): `folded`, pads folded.
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def SimplifyExprPass : Pass<"graph-simplify-expr", "mlir::func::FuncOp"> {
  let summary = "Algebraic simplifications (TVM SimplifyExpr)";
  let description = [{
    TVM name: `SimplifyExpr`. Applied to a fixed point, the rewrites of TVM
    that apply to graph ops:
    - SimplifyAdd: `x + x` to `x * 2`;
    - SimplifyRSqrt: `x / sqrt(y)` to `x * rsqrt(y)`;
    - EliminateIdentity: `x + 0`, `0 + x`, `x - 0`, `x * 1`, `1 * x`, `x / 1`
      to `x` (only when the constant does not broadcast `x` to a larger shape);
    - SimplifyReshape: consecutive reshapes (reshape, expand_dims, squeeze)
      to one reshape, and a reshape to the same shape to its input;
    - SimplifyTranspose: consecutive transposes to one (or none), and
      `layout_transform` pairs A->B->A to their input; NoOpTranspose: an
      identity permutation to its input;
    - SameCast: a cast to the same type to its input; ConsecutiveCast:
      `cast(cast(x, B), C)` to `cast(x, C)` when B holds every value of x's type;
    - Clip: `clip(clip(x))` to one clip with the intersected range, and a clip
      that covers the whole range of an integer type to its input;
    - SwitchAddMultiply: `(x + c1) * c2` to `x * c2 + c1 * c2`;
    - AdjacentMultiplyOrAdd: `(x * c1) * c2` to `x * (c1 * c2)` and
      `(x + c1) + c2` to `x + (c1 + c2)`.
    Here c1, c2 are constants; the combined constants are left for
    FoldConstant. Rewrites that would change a result's type do not fire.

    Counters (`--dlc-pass-stats`): `rewrites`, expressions simplified.
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def EliminateCommonSubexprPass
    : Pass<"graph-eliminate-common-subexpr", "mlir::func::FuncOp"> {
  let summary = "Merge identical ops on identical operands (TVM EliminateCommonSubexpr)";
  let description = [{
    TVM name: `EliminateCommonSubexpr`.

    An op is replaced by an earlier op of the same block with the same name,
    attributes and result types whose operands are the same values or equal
    scalar constants.

    Conditions: ops without operands (constants) and region ops are not
    merged; only ops free of side effects are.

    Counters (`--dlc-pass-stats`): `eliminated`, ops merged into an earlier op.
  }];
}

def DeadCodeEliminationPass
    : Pass<"graph-dead-code-elimination", "mlir::func::FuncOp"> {
  let summary = "Remove ops whose results are unused (TVM DeadCodeElimination)";
  let description = [{
    TVM name: `DeadCodeElimination`. An op without side effects whose results
    have no uses is erased (repeatedly, so whole dead chains go). Ops with
    side effects are kept.

    Counters (`--dlc-pass-stats`): `erased`, dead ops erased.
  }];
}

def RemoveUnusedFunctionsPass
    : Pass<"graph-remove-unused-functions", "mlir::ModuleOp"> {
  let summary = "Remove functions not reachable from the entry functions (TVM RemoveUnusedFunctions)";
  let description = [{
    TVM name: `RemoveUnusedFunctions`. Functions that no chain of calls from
    an entry function (`entries`, default `main`) reaches are erased. When no
    entry function exists the module is left unchanged (statistic
    `no-entry`).

    Counters (`--dlc-pass-stats`): `removed`, functions removed; `no-entry`, runs that found no entry function.
  }];
  let options = [
    ListOption<"entries", "entries", "std::string", "Entry functions">,
  ];
}

def CanonicalizeOpsPass : Pass<"graph-canonicalize-ops", "mlir::func::FuncOp"> {
  let summary = "bias_add to a broadcast add (TVM CanonicalizeOps)";
  let description = [{
    TVM name: `CanonicalizeOps`. `bias_add(x, b, axis)` becomes
    `add(x, expand_dims(b))`, with `b` given trailing size-1 dimensions so
    that it broadcasts along `axis`. Only bias_add is rewritten.

    Counters (`--dlc-pass-stats`): `rewrites`, bias_add ops rewritten.
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def CanonicalizeCastPass : Pass<"graph-canonicalize-cast", "mlir::func::FuncOp"> {
  let summary = "Give each elementwise consumer its own upcast (TVM CanonicalizeCast)";
  let description = [{
    TVM name: `CanonicalizeCast`. An upcast (a cast to a type of more bits,
    e.g. f16 to f32 or i8 to i32) with several users, all elementwise or
    broadcast ops, is duplicated so that every user has its own cast; after
    fusion each kernel then reads the narrow type.

    Conditions: upcasts only; every user must be elementwise/broadcast.

    Counters (`--dlc-pass-stats`): `duplicated`, casts duplicated.
  }];
}

def DynamicToStaticPass : Pass<"graph-dynamic-to-static", "mlir::func::FuncOp"> {
  let summary = "Dynamic-shape ops with constant shape operands to static ops (TVM DynamicToStatic)";
  let description = [{
    TVM name: `DynamicToStatic`. `graph.dynamic_reshape(x, shape)` becomes
    `graph.reshape(x)` when `shape` folds to a constant (the pass folds
    constant subexpressions first, as TVM does) whose values (with ONNX's 0
    and -1) give the static result type. Otherwise the op is kept.

    Counters (`--dlc-pass-stats`): `rewrites`, dynamic ops made static.
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def AnnotateSpansPass : Pass<"graph-annotate-spans", "mlir::ModuleOp"> {
  let summary = "Point every op's location into a printed snapshot of the module (TVM AnnotateSpans)";
  let description = [{
    TVM name: `AnnotateSpans`. The module is printed to `file` (a temporary
    file when empty) and every op's location becomes
    `fused[tag(file:line:col), original]`, so diagnostics and profiles point
    at lines of the snapshot while the original location (e.g. the ONNX node)
    is kept.

    Counters (`--dlc-pass-stats`): `annotated`, ops annotated.
  }];
  let options = [
    Option<"file", "file", "std::string", /*default=*/"\"\"",
           "Where to write the snapshot (empty: a temporary file)">,
    Option<"tag", "tag", "std::string", /*default=*/"\"span\"",
           "Name given to the snapshot locations">,
  ];
}

def FuseOpsPass : Pass<"graph-fuse-ops", "mlir::func::FuncOp"> {
  let summary = "Group ops into graph.fused kernels by their pattern kinds (TVM FuseOps)";
  let description = [{
    TVM name: `FuseOps`. TVM's algorithm (`graph_partitioner.cc`): a forward
    graph of the function's ops in block order, its post-dominator tree, and
    union-find groups, merged in three phases by each op's pattern kind
    (`elemwise`, `broadcast`, `injective`, `comm_reduce`,
    `out_elemwise_fusable`, `tuple`, `opaque`; see the op reference):
    - phase 0: an `out_elemwise_fusable` op (conv2d, dense, matmul,
      batch_matmul, pooling, softmax, normalizations) joins its
      post-dominator when the edges to it are elementwise and every op on the
      paths is at most `broadcast` (conv2d + bias + relu + residual add);
      elementwise and broadcast ops join a post-dominator that is at most
      `injective` or a `comm_reduce` (phases 0 and 1);
    - phase 1: injective ops join when every op on the paths is injective;
    - phase 2: injective ops join intermediate tuples (no graph op is a
      tuple today, so this phase has nothing to do).
    Nothing fuses across an `opaque` op (nms, dropout, an existing region, a
    non-scalar constant); a reduction never starts a fusion; a group never
    grows beyond `max-depth` ops.

    Every group with an op becomes one `graph.fused` region, whose `pattern`
    is the group's kind and whose location is its anchor's (the conv2d of a
    conv2d + bias + relu group); scalar constants are copied into the
    region, other constants and values are its operands. The backends
    compile each region as one kernel, and nothing across regions.
    `fuse-opt-level=0` makes one region per op (TVM's opt_level 0: no
    fusion); -1 (the default) means the pipeline's level, which is fusion
    when the pass runs alone. Ops already in regions are left alone, so the
    pass is idempotent, and FuseOps after DefuseOps gives the same groups.

    Counters (`--dlc-pass-stats`): `groups`, regions made; `fused-ops`, ops in regions of more than one op.
  }];
  let options = [
    Option<"fuseOptLevel", "fuse-opt-level", "int64_t", /*default=*/"-1",
           "Optimization level: 0 makes one region per op (no fusion)">,
    Option<"maxDepth", "max-depth", "int64_t", /*default=*/"256",
           "Most ops in one fused group (TVM relay.FuseOps.max_depth)">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def DefuseOpsPass : Pass<"graph-defuse-ops", "mlir::func::FuncOp"> {
  let summary = "Inline every graph.fused region back into its function (TVM DefuseOps)";
  let description = [{
    TVM name: `DefuseOps`, the inverse of FuseOps: every `graph.fused`
    region is replaced by the ops of its body. `graph.composite` regions
    (named matches of MergeComposite) stay.

    Counters (`--dlc-pass-stats`): `defused`, regions inlined.
  }];
}

def SSAFormPass : Pass<"graph-ssa-form", "mlir::ModuleOp"> {
  let summary = "TVM's normal-form and gradient passes, which have no effect on SSA inference graphs";
  let description = [{
    TVM names: `ToANormalForm`, `ToGraphNormalForm`, `FirstOrderGradient`
    (option `tvm-name`). In Relay, the first two convert between
    let-bindings (A-normal form) and a dataflow graph, and the third builds
    training gradients. dlc's graph is always SSA dataflow (graph normal
    form) and compiles inference, so these leave the module unchanged; they
    are accepted so that published pass sequences (CF'22 Table 5) run
    verbatim, and the ledger records that they ran without effect.

    Counters (`--dlc-pass-stats`): `<tvm-name> (no effect in SSA form)`, runs.
  }];
  let options = [
    Option<"tvmName", "tvm-name", "std::string", /*default=*/"\"ToGraphNormalForm\"",
           "ToANormalForm, ToGraphNormalForm or FirstOrderGradient">,
  ];
}

def CombineParallelConv2DPass
    : Pass<"graph-combine-parallel-conv2d", "mlir::func::FuncOp"> {
  let summary = "Combine conv2d ops that read the same input into one (TVM CombineParallelConv2D)";
  let description = [{
    TVM name: `CombineParallelConv2D` (registered as `CombineParallelConv2d`).

    At least `min-num-branches` conv2d ops reading the same input, with
    groups == 1 and equal strides, padding, dilations, layouts, element type
    and kernel height and width (output channels may differ; bias on all or
    none), become one conv2d whose weights (and biases) are concatenated
    along the output channels. The elementwise and broadcast ops that follow
    every branch alike (same op and attributes, single use) are combined
    level by level, their other operands concatenated along the channel
    axis (or shared, when one value serves every branch and does not vary
    along it). The branches are split back out with `graph.split`. Inception
    blocks are the target; ResNet's downsample branch and first 1x1
    convolution share an input but only 2 branches.

    Counters (`--dlc-pass-stats`): `combined`, combined ops made; `branches`, ops combined into them; `followers`, follower levels combined.
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "int64_t", /*default=*/"3",
           "Fewest parallel branches worth combining">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def CombineParallelDensePass
    : Pass<"graph-combine-parallel-dense", "mlir::func::FuncOp"> {
  let summary = "Combine dense ops that read the same input into one product (TVM CombineParallelDense)";
  let description = [{
    TVM name: `CombineParallelDense`.

    At least `min-num-branches` dense ops reading the same input (bias on
    all or none) become one product:
    - `to-batch-matmul=true` (TVM's default): the weights, which must have
      equal shapes, are transposed and stacked into [n, in, out] (TVM stacks
      them [n, out, in] and sets `transpose_b`; the same product, but
      without a transposed operand, which the CPU's product kernel needs:
      FoldConstant transposes constant weights at compile time), the input
      is stacked n times [n, rows, in] as TVM does (the CPU's product
      kernel takes no broadcast batch), one `batch_matmul` and the stacked
      biases added; branch i is slice i, reshaped back;
    - `to-batch-matmul=false`: the weights (equal in-features) and biases
      concatenated along out-features into one dense; branches are column
      ranges of its result.
    Elementwise and broadcast followers that every branch has alike are
    combined level by level, as in CombineParallelConv2D. The target is
    BERT's query/key/value projections: three dense ops per layer on the
    same hidden state become one.

    Counters (`--dlc-pass-stats`): `combined`, combined ops made; `branches`, ops combined into them; `followers`, follower levels combined.
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "int64_t", /*default=*/"3",
           "Fewest parallel branches worth combining">,
    Option<"toBatchMatmul", "to-batch-matmul", "bool", /*default=*/"true",
           "Stack into a batch_matmul (else concatenate into one dense)">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def CombineParallelBatchMatmulPass
    : Pass<"graph-combine-parallel-batch-matmul", "mlir::func::FuncOp"> {
  let summary = "Combine batch_matmul ops that share their lhs into one (TVM CombineParallelBatchMatmul)";
  let description = [{
    TVM name: `CombineParallelBatchMatmul`.

    At least `min-num-branches` `batch_matmul(lhs, rhs_i)` with the same lhs,
    `transpose_a = false`, `transpose_b = true` (TVM combines only this
    form), 3-D right-hand sides of equal batch size and equal reduction size
    become one batch_matmul with the right-hand sides concatenated along
    their rows (N); branches are ranges of the last axis of the result.
    Followers are combined level by level as in CombineParallelConv2D.

    Counters (`--dlc-pass-stats`): `combined`, combined ops made; `branches`, ops combined into them; `followers`, follower levels combined.
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "int64_t", /*default=*/"3",
           "Fewest parallel branches worth combining">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def BatchingOpsPass : Pass<"graph-batching-ops", "mlir::func::FuncOp"> {
  let summary = "CombineParallelConv2D, CombineParallelDense, CombineParallelBatchMatmul (TVM BatchingOps)";
  let description = [{
    TVM name: `BatchingOps`, the sequence of the three combiners with their
    defaults (at least 3 branches; dense into batch_matmul). Each records its
    own counters.

    Counters (`--dlc-pass-stats`): `runs`.
  }];
}

def SimplifyFCTransposePass
    : Pass<"graph-simplify-fc-transpose", "mlir::func::FuncOp"> {
  let summary = "dense(x, transpose(w)) with a constant w to a dense with the transposed constant (TVM SimplifyFCTranspose)";
  let description = [{
    TVM name: `SimplifyFCTranspose`. `graph.dense(x, graph.transpose(w,
    [1, 0]))` with a constant `w` becomes `graph.dense(x, wT)`, where `wT` is
    a constant computed at compile time (TVM appends `w.T` as a new
    parameter named in `weight_names`; dlc's weights are constants, so the
    transpose is simply done ahead of time). The transpose is dropped when
    nothing else reads it. FoldConstant folds such a transpose too, but not
    when it would duplicate a large weight that stays in use; this pass
    does it regardless.

    Conditions: a 2-D transpose of a constant, read as a dense's weight.

    Counters (`--dlc-pass-stats`): `rewrites`, weights pre-transposed.
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def FastMathPass : Pass<"graph-fast-math", "mlir::func::FuncOp"> {
  let summary = "exp, erf, tanh and softmax to their fast approximate forms (TVM FastMath)";
  let description = [{
    TVM name: `FastMath`. `graph.exp`, `graph.erf`, `graph.tanh` and
    `graph.softmax` become `graph.fast_exp`, `graph.fast_erf`,
    `graph.fast_tanh` and `graph.fast_softmax` (same operands and
    attributes), and `graph.gelu`, which hides an erf (a tanh with
    `approximate = "tanh"`), becomes its formula around `graph.fast_erf`
    (`graph.fast_tanh`), as TVM's GELU is a composition of ops. Only these
    fast forms are compiled with the cheap approximations; without FastMath
    the backends compute the functions accurately. The approximations and
    their measured errors are in the op reference (fast_exp, fast_erf,
    fast_tanh) and checked by test/e2e/fast-math-error.test.

    Counters (`--dlc-pass-stats`): `exp`, `erf`, `tanh`, `softmax`, `gelu`: ops rewritten.
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def MergeCompositePass : Pass<"graph-merge-composite", "mlir::func::FuncOp"> {
  let summary = "Wrap matches of a pattern table into named graph.composite regions (TVM MergeComposite)";
  let description = [{
    TVM name: `MergeComposite`. A pattern table, tried in order (the order is
    the priority, as TVM's), names chains of graph ops; every match becomes a
    `graph.composite` with the pattern's name, which the backends compile as
    one kernel (and FuseOps leaves alone).

    The table is data: `patterns=FILE` reads one pattern per line,
    `name = op op ...` (graph op mnemonics; `#` starts a comment), where each
    op reads the result of the one before it, which nothing else reads; the
    chain's other operands become the composite's inputs (scalar constants
    are copied in). The builtin table (used without `patterns`):

        conv2d_bias_add_relu = conv2d add add relu
        conv2d_bias_relu = conv2d add relu
        dense_bias_gelu = dense add gelu
        dense_gelu = dense gelu
        # attention with its context's heads merged into the rows' layout, then without
        attention = batch_matmul reshape mul add softmax reshape batch_matmul reshape transpose reshape
        attention = batch_matmul reshape div add softmax reshape batch_matmul reshape transpose reshape
        attention = batch_matmul softmax batch_matmul reshape transpose reshape
        attention = batch_matmul reshape mul add fast_softmax reshape batch_matmul reshape transpose reshape
        attention = batch_matmul reshape div add fast_softmax reshape batch_matmul reshape transpose reshape
        attention = batch_matmul fast_softmax batch_matmul reshape transpose reshape
        attention = batch_matmul reshape mul add softmax reshape batch_matmul
        attention = batch_matmul reshape div add softmax reshape batch_matmul
        attention = batch_matmul softmax batch_matmul
        attention = batch_matmul reshape mul add fast_softmax reshape batch_matmul
        attention = batch_matmul reshape div add fast_softmax reshape batch_matmul
        attention = batch_matmul fast_softmax batch_matmul

    An `attention` composite is computed block by block of query rows, its
    scores in cache (on the GPU in shared memory) from the product that
    makes them to the one that reads them, and with BERT's merge of the
    heads taken in, each block of the context written where the merged
    result has it (dlc-tile-attention).

    A table that cannot be read, a malformed line or an unknown op is an
    error naming the file and line.

    Counters (`--dlc-pass-stats`): `composites`, regions made; one counter per pattern name that matched.
  }];
  let options = [
    Option<"patterns", "patterns", "std::string", /*default=*/"\"\"",
           "Pattern table file (empty: the builtin table)">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def AlterOpLayoutPass : Pass<"graph-alter-op-layout", "mlir::func::FuncOp"> {
  let summary = "Rewrite convolutions into the layouts the target's kernels want (TVM AlterOpLayout)";
  let description = [{
    TVM name: `AlterOpLayout`. A target description (`target=cpu`, the
    builtin, or a file; see "Layouts are decided by the graph too" in the
    README) states the
    data and kernel layout each class of convolution wants (`conv2d`,
    `conv2d.bf16`, `conv2d.depthwise`, `conv2d.grouped`). Every `graph.conv2d` whose
    layouts differ is rebuilt in the wanted ones; layout-agnostic ops that
    read it (elementwise ops, numpy broadcasts against constants, bias_add,
    batch_norm, softmax, concat, pooling, residual adds) follow it into the
    new layout, constant weights and broadcast constants are transformed at
    compile time, and `graph.layout_transform` remains only where a value
    crosses into an op that needs the old layout (back-to-back transforms
    cancel). Function arguments and results keep their layouts. Ops inside
    `graph.fused`/`graph.composite` regions are left alone: run it before
    FuseOps, as relay.build does.

    TVM asks a per-target hook for each op; dlc's hooks are the description.
    The CPU's (`cpu`) states NCHW everywhere, so on the CPU this pass
    converts NHWC models to NCHW and leaves NCHW ones as they are; the
    builtin `cpu-nhwc` states NHWC with HWIO kernels for every convolution
    but grouped ones (both measured with bench/layouts.py; auto takes
    `cpu-nhwc` for ResNets and MobileNets). A wanted layout no backend
    compiles (grouped convolutions in NHWC, a data layout with a kernel
    layout that does not go with it) leaves the convolution and is counted.

    With `winograd`, as TVM's strategies that pick
    conv2d_winograd_without_weight_transform, each 3x3 convolution of
    stride 1 (NCHW with OIHW kernels or NHWC with HWIO ones, after the
    layouts above; one group, f32, constant weights) whose output has at
    least `winograd-min-tiles` tiles becomes a `graph.conv2d_winograd` of
    its layout:
    F(4x4, 3x3), or F(2x2, 3x3) where 4x4 tiles are too few, with its
    weights transformed here, at compile time. Off by default: its results
    differ from the convolution's by rounding (about 1e-5 relative for 4x4
    tiles in f32), as cuDNN's and oneDNN's Winograd algorithms, which are
    also chosen, not implied.

    Counters (`--dlc-pass-stats`): `converted` (convolutions rebuilt),
    `followed` (agnostic ops moved into the new layout), `constants`
    (transformed at compile time), `transforms` (layout_transform ops left),
    `unsupported`; with `winograd`: `winograd` (convolutions rewritten),
    `winograd-small` (3x3 stride-1 ones with too few tiles),
    `winograd-weights` (weights not a constant the pass reads).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "Target description: a builtin name (cpu, cpu-nhwc) or a file">,
    Option<"winograd", "winograd", "bool", /*default=*/"false",
           "3x3 stride-1 convolutions by Winograd's F(4x4, 3x3) or F(2x2, 3x3)">,
    Option<"winogradMinTiles", "winograd-min-tiles", "int64_t", /*default=*/"32",
           "With winograd: the fewest output tiles (over the batch) worth the transforms">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def ConvertLayoutPass : Pass<"graph-convert-layout", "mlir::func::FuncOp"> {
  let summary = "Rewrite convolutions into user-desired layouts (TVM ConvertLayout)";
  let description = [{
    TVM name: `ConvertLayout`. As AlterOpLayout, with the layouts given by the
    user per op class: `desired-layouts=conv2d=NHWC` (the default),
    `conv2d=NHWC:HWIO,conv2d.depthwise=NCHW`, ... (`class=DATA[:KERNEL]`,
    the kernel layout defaulting to HWIO for NHWC and OIHW for NCHW; a
    class without an entry falls back to `conv2d`). TVM's
    `{"nn.conv2d": ["NHWC", "default"]}` is `conv2d=NHWC`. Not part of
    O0..O4 (TVM runs it before relay.build); use it in `list:` pipelines, or
    `dlc-run --pipeline='list:ConvertLayout,...'`.

    Counters (`--dlc-pass-stats`): as AlterOpLayout.
  }];
  let options = [
    ListOption<"desiredLayouts", "desired-layouts", "std::string",
               "class=DATA[:KERNEL] entries (default conv2d=NHWC)">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def AnnotateTargetPass : Pass<"graph-annotate-target", "mlir::func::FuncOp"> {
  let summary = "Mark the ops an external target takes (TVM AnnotateTarget)";
  let description = [{
    TVM name: `AnnotateTarget`. `targets=A,B` names target descriptions
    (builtin names or files; see "Partitioning" in the README) whose `ops`
    and `composites` lines list what each target compiles. Every top-level
    graph op of a listed kind, and every `graph.composite` of a listed name,
    gets `graph.target = "<target>"`; the first target in the list that
    takes an op wins, as in TVM; the others stay with the default
    compilation. The function records each target's backend in
    `graph.target_backends` for PartitionGraph. Constants are operands, not annotated; `graph.fused`
    regions are not annotated (partition before FuseOps, as TVM's BYOC flow
    does). A target that lists nothing, or an op name the graph dialect does
    not have, is an error naming the description and the name.

    Counters (`--dlc-pass-stats`): `annotated`, `default` (ops left
    unannotated), and one counter per target.
  }];
  let options = [
    ListOption<"targets", "targets", "std::string",
               "Target descriptions, in priority order (builtin names or files)">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def MergeCompilerRegionsPass : Pass<"graph-merge-compiler-regions", "mlir::func::FuncOp"> {
  let summary = "Merge adjacent ops of one target into regions (TVM MergeCompilerRegions)";
  let description = [{
    TVM name: `MergeCompilerRegions`. After AnnotateTarget: walking the
    function in order, an annotated op joins the region of each operand
    producer annotated with the same target, unless the merge would create
    a cycle (a path from one region to the other through an op outside
    both, which would make the outlined function both depend on and feed
    that op). Regions are recorded as `graph.region = N` on their ops; only
    the annotations change. PartitionGraph outlines them.

    Counters (`--dlc-pass-stats`): `regions`, `merged` (merges made),
    `cycles-avoided` (merges refused).
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def PartitionGraphPass : Pass<"graph-partition-graph", "mlir::ModuleOp"> {
  let summary = "Outline each target region into a function of its own (TVM PartitionGraph)";
  let description = [{
    TVM name: `PartitionGraph`. Each region of annotated ops (a
    `graph.region` from MergeCompilerRegions, or a single annotated op
    without one) becomes a private `func.func @<function>_<target>_<k>` with
    `graph.compiler = "<target>"` and `graph.backend = "<backend>"` (from the
    target's description), called from where the region was; the values
    it reads from outside become arguments and the values read outside it
    become results. Constants the region reads are copied into the function
    (TVM's `bind_constants=true`). The annotations are removed.

    The backend named by `graph.backend` compiles the function; dlc's CPU
    backend compiles `cpu` partitions and rejects others with a diagnostic.
    Unlike TVM's function passes, dlc's graph passes also optimize the
    partition functions (their backend is dlc's own).

    Counters (`--dlc-pass-stats`): `partitions`, `ops` (outlined),
    `constants` (copied in).
  }];
  let dependentDialects = ["dlc::graph::GraphDialect", "mlir::func::FuncDialect"];
}

def ToMixedPrecisionPass : Pass<"graph-to-mixed-precision", "mlir::func::FuncOp"> {
  let summary = "Compute in f16 or bf16 where it is safe (TVM ToMixedPrecision)";
  let description = [{
    TVM name: `ToMixedPrecision`. Each graph op has a category, TVM's
    defaults restricted to dlc's ops:

        always = conv2d dense matmul batch_matmul
        follow = pad reshape dynamic_reshape transpose concat split slice squeeze
                 expand_dims layout_transform gather add sub mul div maximum minimum
                 bias_add batch_norm relu neg abs sqrt sigmoid tanh fast_tanh fast_exp
                 fast_erf clip dropout max_pool2d avg_pool2d reduce_max
        never = exp log pow erf gelu rsqrt softmax fast_softmax layer_norm
                global_avg_pool2d reduce_sum reduce_mean quantize dequantize nms

    ALWAYS ops run in `type` (f16, the default, or bf16); a FOLLOW op does
    when every float operand already is (or is a constant or a function
    argument), and runs in f32 otherwise; NEVER ops run in f32. A cast is
    inserted where a value crosses between the two; constants are converted
    at compile time. A clip whose bounds exceed the f16 range stays in f32.
    `graph.fused`/`graph.composite` regions are left in f32 (run the pass
    before FuseOps, as TVM users do before relay.build).

    `grouped-f32`: grouped and depthwise convolutions (`groups` > 1) are
    NEVER ops. dlc's CPU pipelines set it (`O3;mixed=T`, `auto;mixed=T`,
    `dlc-tune --mixed`): x86 computes them widened to f32 whatever their
    type, and MobileNetV2 in bf16 ran faster with them in f32 (0.80 of auto's
    f32 latency against 0.97) and closer to f32 (largest error 0.21 against
    0.34).

    `accumulate-f32`: ALWAYS products read their mixed operands widened to
    f32 and round the result to the mixed type (TVM's default, and dlc's,
    accumulates in the mixed type). `keep-orig-output-dtype`: the function's
    results are cast back to their types (otherwise the signature changes,
    as in TVM). `lists=FILE` replaces the table above with the user's, one
    `always|follow|never = op op ...` per line (`#` comments). An op in none
    of the lists is FOLLOW, with a warning (`missing-op-mode=1`, the
    default), an error (0) or silently (2).

    Counters (`--dlc-pass-stats`): `converted` (ops in the mixed type),
    `kept-f32`, `casts`, `constants` (converted at compile time), `missing`.
  }];
  let options = [
    Option<"type", "type", "std::string", /*default=*/"\"f16\"", "Mixed type: f16 or bf16">,
    Option<"accumulateF32", "accumulate-f32", "bool", /*default=*/"false",
           "Products accumulate in f32">,
    Option<"groupedF32", "grouped-f32", "bool", /*default=*/"false",
           "Grouped and depthwise convolutions run in f32 (NEVER)">,
    Option<"keepOrigOutputDtype", "keep-orig-output-dtype", "bool", /*default=*/"false",
           "Cast the function's results back to their original types">,
    Option<"missingOpMode", "missing-op-mode", "int", /*default=*/"1",
           "An op in no list: 0 error, 1 warn, 2 silent (follow)">,
    Option<"lists", "lists", "std::string", /*default=*/"\"\"",
           "File of 'always|follow|never = op op ...' lines replacing the default lists">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def FakeQuantizationToIntegerPass
    : Pass<"graph-fake-quantization-to-integer", "mlir::func::FuncOp"> {
  let summary = "Quantized regions between dequantize and quantize to integer ops "
                "(TVM FakeQuantizationToInteger)";
  let description = [{
    TVM name: `FakeQuantizationToInteger`. From each `graph.quantize`, the
    float ops back to the `graph.dequantize` ops that feed them are rewritten
    into integer ops. Each value keeps its affine map to reals,
    `real = (q - zero_point) * scale`, per tensor or per index of one axis:

    - conv2d, dense, matmul, batch_matmul: the i8 operands widened to i32
      with their zero points subtracted (constants at compile time), an i32
      product with scale `s_x * s_w` (weights may be quantized per output
      channel) and zero point 0; a bias (a float constant, or the
      dequantization of an i32 constant, as ONNX QLinearConv has it) is
      quantized to that scale.
    - bias_add and add of a constant, add of two values with one scale and
      zero point 0: in i32.
    - relu: `max(q, zero_point)`; clip: its bounds quantized; max_pool2d,
      reshape, expand_dims, squeeze, transpose, concat (one scale and zero
      point) and pad (with zeros, which become the zero point) keep the map.
    - The quantize at the end requantizes: `round((q - z_in) * s_in / s_out)
      + z_out`, saturated to its type (f32 arithmetic), or takes the integer
      value as it is when the parameters already agree.

    Scales and zero points must be constants. A region with an op outside
    these rules (TVM's rule list restricted to the ops dlc has) stays float,
    with a remark saying why, as TVM does with `hard_fail=false`.

    Counters (`--dlc-pass-stats`): `regions` (converted), `integer-ops`
    (float ops they replaced), `skipped` (regions kept in float).
  }];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

#endif // DLC_TRANSFORMS_PASSES_TD

def AutoPipelinePass : Pass<"graph-auto-pipeline", "mlir::ModuleOp"> {
  let summary = "Classify the model's architecture and run the passes chosen for it";
  let description = [{
    dlc's architecture-aware pipeline (`--dlc-pipeline=auto`, `dlc-run
    --pipeline=auto`). The module is classified by the rules of `classes`
    (default: ArchitectureClasses.json, see `dlc-opt --dlc-classify`); the
    passes run are O3's plus the CF'22 passes of the detected classes, in
    the optimization order, less those whose anchor ops cannot be present
    when they run, those dlc measured dormant on every detected class, those
    that never change dlc's IR, and those in `disable`; passes in `require`
    run whatever the classes say. A model no class fits gets O3's passes.
    With `explain`, every pass considered is printed to stderr with the
    reason it was chosen or skipped. A rules file that cannot be read fails
    the pass with a diagnostic naming it. dlc's own measurements of passes
    and their options (AlterOpLayout's Winograd convolutions on ResNets,
    CombineParallelConv2D on pairs for SSD) were made on the CPU: with
    `target=cuda` (`dlc-run --target=cuda`) they do not apply. With
    `mixed=bf16` on a CPU with AVX512-BF16 (the host: dlc compiles for it),
    AlterOpLayout runs without `winograd=true`: Winograd's products stay
    f32, im2col products of bf16 are dot products.
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Print the classes and every pass considered, with its reason">,
    Option<"classes", "classes", "std::string", /*default=*/"\"\"",
           "Architecture class rules (JSON); empty: the default file">,
    ListOption<"disable", "disable", "std::string", "Passes never to run (TVM names)">,
    ListOption<"require", "require", "std::string", "Passes to run whatever the classes say">,
    Option<"mixed", "mixed", "std::string", /*default=*/"\"\"",
           "f16 or bf16: compute the graph in it where safe (ToMixedPrecision before FuseOps)">,
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "cpu or cuda: dlc's measured passes and options (the registry's, CPU "
           "measurements) apply to cpu only">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}

def TunedPipelinePass : Pass<"graph-tuned-pipeline", "mlir::ModuleOp"> {
  let summary = "Run the pass sequence dlc-tune found best for the model";
  let description = [{
    `--dlc-pipeline=tuned:DB.jsonl` (and `dlc-run --pipeline=tuned:...`):
    the tuning database `db` (TuningDatabase.h) is searched for the model's
    structure fingerprint (weights excluded), and the sequence of its latest
    `best` record, preferring records made on this host's CPU, runs. Only
    records computed in the precision asked for are replayed: f32 by
    default, f16 or bf16 with `mixed` (`tuned:DB;mixed=bf16`, the records
    of `dlc-tune --mixed=bf16`), so a mixed-precision tuning is never
    replayed where f32 was asked for. A model the database has no record of
    in that precision, and a database that cannot be read, fail the pass
    with a diagnostic naming the file (and the line, or the precisions the
    file does hold for the model).
    When the replayed sequence ends at another graph structure than it did
    when tuned (another dlc version), a warning says so. With `explain`,
    the record replayed and its figures are printed to stderr.

    Counters (`--dlc-pass-stats`): `passes-replayed`.
  }];
  let options = [
    Option<"db", "db", "std::string", /*default=*/"\"\"", "The tuning database (JSON lines)">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Print the record replayed and its figures">,
    Option<"mixed", "mixed", "std::string", /*default=*/"\"\"",
           "Replay a tuning that computes in f16 or bf16 (dlc-tune --mixed); f32 when empty">,
  ];
  let dependentDialects = ["dlc::graph::GraphDialect"];
}
