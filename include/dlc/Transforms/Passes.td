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
      twice, e.g. a transposed copy of weights that are still used).

    Counters (`--dlc-pass-stats`): `folded`, ops folded into constants; `skipped-large`, ops not folded because the result is large and operands live on.
  }];
  let options = [
    Option<"sizeLimit", "size-limit", "int64_t", /*default=*/"1 << 16",
           "Largest result (elements) folded while its operands stay alive">,
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

#endif // DLC_TRANSFORMS_PASSES_TD
