//===- GraphOps.td - graph dialect operations --------------*- tablegen -*-===//
#ifndef DLC_DIALECT_GRAPH_OPS_TD
#define DLC_DIALECT_GRAPH_OPS_TD

include "dlc/Dialect/Graph/GraphDialect.td"
include "dlc/Dialect/Graph/GraphInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Graph_ConstantOp : Graph_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "output"]>]> {
  let summary = "A constant tensor (weights, shapes, scalars)";
  let description = [{
    Holds a tensor known at compile time. Small values use a `dense`
    payload; weights of real models use a `dense_resource` payload so that a
    large model is never printed as decimal text.

    ```mlir
    %w = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %k = graph.constant dense_resource<conv1_weight> : tensor<64x3x7x7xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Convolution, normalization, dense layers
//===----------------------------------------------------------------------===//

def Graph_Conv2DOp : Graph_Op<"conv2d", [Pure, Graph_Pattern<"OutEWiseFusable">, InferTypeOpAdaptor,
    AllElementTypesMatch<["input", "weight", "output"]>]> {
  let summary = "2-D convolution (grouped, depthwise, dilated, with optional bias)";
  let description = [{
    Cross-correlation of `input` with `weight`, as in ONNX Conv and TVM
    nn.conv2d. `data_layout` is `NCHW` or `NHWC` (for input and output);
    `kernel_layout` is `OIHW` or `HWIO`, where I is the input channels per
    group. `padding` is [top, left, bottom, right]. `groups` splits the
    channels; groups == input channels == output channels is a depthwise
    convolution. The optional `bias` has one value per output channel.

    ```mlir
    %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>,
                                  padding = array<i64: 3, 3, 3, 3>}
       : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>)
      -> tensor<1x64x112x112xf32>
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$input, Graph_NumericTensor:$weight,
      Optional<Graph_NumericTensor>:$bias,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      DefaultValuedAttr<I64Attr, "1">:$groups,
      DefaultValuedStrAttr<StrAttr, "NCHW">:$data_layout,
      DefaultValuedStrAttr<StrAttr, "OIHW">:$kernel_layout);
  let results = (outs Graph_NumericTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_Conv2DWinogradOp : Graph_Op<"conv2d_winograd", [Pure, Graph_Pattern<"OutEWiseFusable">,
    InferTypeOpAdaptor, AllElementTypesMatch<["input", "weight", "output"]>]> {
  let summary = "3x3 stride-1 convolution by Winograd's F(m x m, 3 x 3), weights transformed";
  let description = [{
    The convolution of an `input` with 3x3 kernels, one group, stride
    and dilation 1, computed tile by tile with Winograd's minimal filtering
    (`dlc/Support/Winograd.h`): each `tile` x `tile` block of outputs takes
    (tile + 2)^2 products per channel pair instead of 9 tile^2. `weight` is
    the kernels already transformed: for `data_layout` `NCHW` (input and
    output), [(tile + 2)^2, O, C] with
    `weight[xi * (tile + 2) + nu, o, c] = (G k[o, c] G^T)[xi, nu]`; for
    `NHWC`, [(tile + 2)^2, C, O], the output channels innermost as in HWIO.
    AlterOpLayout with `winograd=true` writes it from a `graph.conv2d`
    whose weights are constants. The results equal the convolution's up to
    rounding (about 1e-6 relative for tile 2, 1e-5 for tile 4, in f32).
    `padding` is [top, left, bottom, right].

    ```mlir
    %y = graph.conv2d_winograd %x, %u {tile = 4 : i64, padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x64x56x56xf32>, tensor<36x128x64xf32>) -> tensor<1x128x56x56xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$weight,
      Optional<Graph_FloatTensor>:$bias,
      DefaultValuedAttr<I64Attr, "4">:$tile,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedStrAttr<StrAttr, "NCHW">:$data_layout);
  let results = (outs Graph_FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_BatchNormOp : Graph_Op<"batch_norm", [Pure, Graph_Pattern<"OutEWiseFusable">,
    AllTypesMatch<["input", "output"]>,
    AllTypesMatch<["gamma", "beta", "mean", "variance"]>,
    AllElementTypesMatch<["input", "gamma"]>]> {
  let summary = "Inference-time batch normalization";
  let description = [{
    `(input - mean) / sqrt(variance + epsilon) * gamma + beta` along channel
    `axis` (1 for NCHW, 3 for NHWC); the four parameters are 1-D tensors with
    one value per channel.

    ```mlir
    %y = graph.batch_norm %x, %g, %b, %m, %v {epsilon = 1.0e-05 : f64}
       : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>,
          tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$gamma,
      Graph_FloatTensor:$beta, Graph_FloatTensor:$mean,
      Graph_FloatTensor:$variance,
      DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon,
      DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs Graph_FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta `,` $mean `,` $variance attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_BiasAddOp : Graph_Op<"bias_add", [Pure, Graph_Pattern<"Broadcast">,
    AllTypesMatch<["input", "output"]>,
    AllElementTypesMatch<["input", "bias"]>]> {
  let summary = "Add a 1-D bias along one axis";
  let description = [{
    Adds `bias[c]` to every element whose index along `axis` is c (TVM
    nn.bias_add).

    ```mlir
    %y = graph.bias_add %x, %b {axis = 1 : i64}
       : (tensor<1x64x8x8xf32>, tensor<64xf32>) -> tensor<1x64x8x8xf32>
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$input, Graph_NumericTensor:$bias,
      DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs Graph_NumericTensor:$output);
  let assemblyFormat = [{
    $input `,` $bias attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_DenseOp : Graph_Op<"dense", [Pure, Graph_Pattern<"OutEWiseFusable">, InferTypeOpAdaptor,
    AllElementTypesMatch<["input", "weight", "output"]>]> {
  let summary = "Fully connected layer: input x weight^T (+ bias)";
  let description = [{
    `output[..., o] = sum_i input[..., i] * weight[o, i] (+ bias[o])`.
    The weight is laid out [out_features, in_features] as in TVM nn.dense and
    torch.nn.Linear.

    ```mlir
    %y = graph.dense %x, %w, %b
       : (tensor<1x2048xf32>, tensor<1000x2048xf32>, tensor<1000xf32>)
      -> tensor<1x1000xf32>
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$input, Graph_NumericTensor:$weight,
      Optional<Graph_NumericTensor>:$bias);
  let results = (outs Graph_NumericTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_MatmulOp : Graph_Op<"matmul", [Pure, Graph_Pattern<"OutEWiseFusable">, InferTypeOpAdaptor,
    AllElementTypesMatch<["lhs", "rhs", "output"]>]> {
  let summary = "Matrix product with numpy.matmul semantics";
  let description = [{
    1-D operands are promoted to matrices (and the added dimension removed
    from the result); leading batch dimensions broadcast.

    ```mlir
    %y = graph.matmul %a, %b : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>)
                              -> tensor<2x3x4x5xf32>
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$lhs, Graph_NumericTensor:$rhs);
  let results = (outs Graph_NumericTensor:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_BatchMatmulOp : Graph_Op<"batch_matmul", [Pure, Graph_Pattern<"OutEWiseFusable">, InferTypeOpAdaptor,
    AllElementTypesMatch<["lhs", "rhs", "output"]>]> {
  let summary = "Batched matrix product of rank-3 tensors with transpose flags";
  let description = [{
    `lhs` is [B, M, K] ([B, K, M] with `transpose_a`), `rhs` is [B, K, N]
    ([B, N, K] with `transpose_b`); a batch of 1 broadcasts. The result is
    [B, M, N].

    ```mlir
    %s = graph.batch_matmul %q, %k {transpose_b = true}
       : (tensor<12x128x64xf32>, tensor<12x128x64xf32>) -> tensor<12x128x128xf32>
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$lhs, Graph_NumericTensor:$rhs,
      DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
      DefaultValuedAttr<BoolAttr, "false">:$transpose_b);
  let results = (outs Graph_NumericTensor:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

class Graph_UnaryOp<string mnemonic, Type tensorType, string formula,
                    list<Trait> traits = []>
    : Graph_Op<mnemonic, !listconcat([Pure, Graph_Pattern<"ElemWise">, SameOperandsAndResultType,
                                      Elementwise], traits)> {
  let summary = "Elementwise " # formula;
  let description = "Computes `" # formula # "` for every element.\n\n"
      "```mlir\n%y = graph." # mnemonic # " %x : tensor<1x64xf32>\n```";
  let arguments = (ins tensorType:$input);
  let results = (outs tensorType:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Graph_ReluOp : Graph_UnaryOp<"relu", Graph_NumericTensor, "max(x, 0)">;
def Graph_SigmoidOp : Graph_UnaryOp<"sigmoid", Graph_FloatTensor, "1 / (1 + exp(-x))">;
def Graph_TanhOp : Graph_UnaryOp<"tanh", Graph_FloatTensor, "tanh(x)">;
def Graph_ErfOp : Graph_UnaryOp<"erf", Graph_FloatTensor, "erf(x)">;
def Graph_ExpOp : Graph_UnaryOp<"exp", Graph_FloatTensor, "exp(x)">;
def Graph_LogOp : Graph_UnaryOp<"log", Graph_FloatTensor, "log(x)">;
def Graph_SqrtOp : Graph_UnaryOp<"sqrt", Graph_FloatTensor, "sqrt(x)">;
def Graph_RsqrtOp : Graph_UnaryOp<"rsqrt", Graph_FloatTensor, "1 / sqrt(x)">;
def Graph_NegOp : Graph_UnaryOp<"neg", Graph_NumericTensor, "-x">;
def Graph_AbsOp : Graph_UnaryOp<"abs", Graph_NumericTensor, "|x|">;
def Graph_SinOp : Graph_UnaryOp<"sin", Graph_FloatTensor, "sin(x)">;
def Graph_CosOp : Graph_UnaryOp<"cos", Graph_FloatTensor, "cos(x)">;
def Graph_TanOp : Graph_UnaryOp<"tan", Graph_FloatTensor, "tan(x)">;
def Graph_AsinOp : Graph_UnaryOp<"asin", Graph_FloatTensor, "asin(x)">;
def Graph_AcosOp : Graph_UnaryOp<"acos", Graph_FloatTensor, "acos(x)">;
def Graph_AtanOp : Graph_UnaryOp<"atan", Graph_FloatTensor, "atan(x)">;
def Graph_SinhOp : Graph_UnaryOp<"sinh", Graph_FloatTensor, "sinh(x)">;
def Graph_CoshOp : Graph_UnaryOp<"cosh", Graph_FloatTensor, "cosh(x)">;
def Graph_AsinhOp : Graph_UnaryOp<"asinh", Graph_FloatTensor, "asinh(x)">;
def Graph_AcoshOp : Graph_UnaryOp<"acosh", Graph_FloatTensor, "acosh(x)">;
def Graph_AtanhOp : Graph_UnaryOp<"atanh", Graph_FloatTensor, "atanh(x)">;
def Graph_FloorOp : Graph_UnaryOp<"floor", Graph_FloatTensor, "floor(x)">;
def Graph_CeilOp : Graph_UnaryOp<"ceil", Graph_FloatTensor, "ceil(x)">;
def Graph_RoundOp : Graph_UnaryOp<"round", Graph_FloatTensor,
                                  "round(x) (halves to the even neighbour)">;

// FastMath's forms: the same functions, which the backends may compute with
// cheaper, less accurate approximations (f32; other types exactly).
class Graph_FastUnaryOp<string mnemonic, string exact, string error>
    : Graph_UnaryOp<mnemonic, Graph_FloatTensor, exact # "(x), approximated (FastMath)"> {
  let description = "`" # exact # "(x)` for every element, made by FastMath. Backends "
      "may use a cheaper approximation for f32 (" # error # ", measured by "
      "test/e2e/fast-math-error.test); the reference interpreter computes `" # exact #
      "` itself.\n\n```mlir\n%y = graph." # mnemonic # " %x : tensor<1x64xf32>\n```";
}
def Graph_FastExpOp : Graph_FastUnaryOp<"fast_exp", "exp",
    "one-step range reduction by ln 2 and Cephes' polynomial: relative error "
    "at most 4.1e-6 (68 ulp) where the result is a normal f32, saturating near "
    "2.4e38 above x = 88.376">;
def Graph_FastErfOp : Graph_FastUnaryOp<"fast_erf", "erf",
    "a 13/8 rational polynomial on [-4, 4], +-1 beyond: absolute error at most "
    "3.8e-7 (5.5 ulp)">;
def Graph_FastTanhOp : Graph_FastUnaryOp<"fast_tanh", "tanh",
    "a 13/6 rational polynomial on [-9, 9], +-1 beyond: absolute error at most "
    "3.1e-7 (5.2 ulp)">;

def Graph_GeluOp : Graph_Op<"gelu", [Pure, Graph_Pattern<"ElemWise">, SameOperandsAndResultType, Elementwise]> {
  let summary = "Gaussian error linear unit";
  let description = [{
    `approximate = "none"`: `0.5 * x * (1 + erf(x / sqrt(2)))`;
    `approximate = "tanh"`: `0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))`.

    ```mlir
    %y = graph.gelu %x {approximate = "tanh"} : tensor<1x128x3072xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input,
      DefaultValuedStrAttr<StrAttr, "none">:$approximate);
  let results = (outs Graph_FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Graph_DropoutOp : Graph_Op<"dropout", [Pure, Graph_Pattern<"Opaque">, SameOperandsAndResultType, Elementwise]> {
  let summary = "Dropout, the identity at inference";
  let description = [{
    Kept as frameworks export it (with its training `rate`), so that
    SimplifyInference has it to remove; at inference it returns its input.

    ```mlir
    %y = graph.dropout %x {rate = 1.000000e-01 : f64} : tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DefaultValuedAttr<F64Attr, "0.5">:$rate);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Graph_ClipOp : Graph_Op<"clip", [Pure, Graph_Pattern<"ElemWise">, SameOperandsAndResultType, Elementwise]> {
  let summary = "Clamp every element to [min, max]";
  let description = [{
    ```mlir
    %y = graph.clip %x {min = 0.0 : f64, max = 6.0 : f64} : tensor<1x32x112x112xf32>
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$input, F64Attr:$min, F64Attr:$max);
  let results = (outs Graph_NumericTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise binary with numpy broadcasting
//===----------------------------------------------------------------------===//

class Graph_BinaryOp<string mnemonic, string formula>
    : Graph_Op<mnemonic, [Pure, Graph_Pattern<"Broadcast">, InferTypeOpAdaptor,
                          SameOperandsAndResultElementType]> {
  let summary = "Elementwise " # formula # " with numpy broadcasting";
  let description = "Computes `" # formula # "`; shapes broadcast as in numpy.\n\n"
      "```mlir\n%z = graph." # mnemonic # " %x, %y : (tensor<1x64x8x8xf32>, "
      "tensor<64x1x1xf32>) -> tensor<1x64x8x8xf32>\n```";
  let arguments = (ins Graph_NumericTensor:$lhs, Graph_NumericTensor:$rhs);
  let results = (outs Graph_NumericTensor:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_AddOp : Graph_BinaryOp<"add", "x + y"> {
  let hasFolder = 1;
}
def Graph_SubOp : Graph_BinaryOp<"sub", "x - y"> {
  let hasFolder = 1;
}
def Graph_MulOp : Graph_BinaryOp<"mul", "x * y"> {
  let hasFolder = 1;
}
def Graph_DivOp : Graph_BinaryOp<"div", "x / y"> {
  let hasFolder = 1;
}
def Graph_PowOp : Graph_BinaryOp<"pow", "x ^ y">;
def Graph_MaximumOp : Graph_BinaryOp<"maximum", "max(x, y)">;
def Graph_MinimumOp : Graph_BinaryOp<"minimum", "min(x, y)">;

def Graph_CompareOp : Graph_Op<"compare", [Pure, Graph_Pattern<"Broadcast">, InferTypeOpAdaptor]> {
  let summary = "Elementwise comparison with numpy broadcasting, as booleans";
  let description = [{
    `predicate` is one of `eq`, `ne`, `lt`, `le`, `gt`, `ge`; the operands
    have one element type (booleans compare for `eq` and `ne` only). A NaN
    compares unequal to everything (`ne` holds, every other predicate
    fails), as IEEE and ONNX say.

    ```mlir
    %m = graph.compare "gt", %x, %t : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
    ```
  }];
  let arguments = (ins StrAttr:$predicate, Graph_Tensor:$lhs, Graph_Tensor:$rhs);
  let results = (outs Graph_TensorOf<[I1]>:$output);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_SelectOp : Graph_Op<"select", [Pure, Graph_Pattern<"Broadcast">, InferTypeOpAdaptor]> {
  let summary = "Elementwise choice between two tensors by a boolean one, broadcasting";
  let description = [{
    `true_value` where `condition` holds, else `false_value` (ONNX Where);
    the three shapes broadcast as in numpy, the values have one element type.

    ```mlir
    %y = graph.select %m, %x, %zero : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Graph_TensorOf<[I1]>:$condition, Graph_Tensor:$true_value,
                   Graph_Tensor:$false_value);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Pooling, softmax, normalization
//===----------------------------------------------------------------------===//

class Graph_Pool2DOp<string mnemonic, string what, dag extraArgs>
    : Graph_Op<mnemonic, [Pure, Graph_Pattern<"OutEWiseFusable">, InferTypeOpAdaptor,
                          SameOperandsAndResultElementType]> {
  let summary = what # " over 2-D windows";
  let description = [{
    Slides a `kernel_size` window with `strides`, `dilations` and
    `padding` ([top, left, bottom, right]) over the spatial dimensions of
    an NCHW or NHWC tensor (`layout`). With `ceil_mode` the output size
    rounds up, and a window that starts in the bottom/right padding is dropped.

    ```mlir
    %y = graph.max_pool2d %x {kernel_size = array<i64: 3, 3>,
                              strides = array<i64: 2, 2>,
                              padding = array<i64: 1, 1, 1, 1>}
       : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = !con((ins Graph_NumericTensor:$input,
      DenseI64ArrayAttr:$kernel_size,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
      DefaultValuedStrAttr<StrAttr, "NCHW">:$layout), extraArgs);
  let results = (outs Graph_NumericTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_MaxPool2DOp : Graph_Pool2DOp<"max_pool2d", "Maximum", (ins)>;
def Graph_AvgPool2DOp : Graph_Pool2DOp<"avg_pool2d", "Average",
    (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad)> {
  let description = [{
    Averages over `kernel_size` windows (see `graph.max_pool2d` for the
    window attributes). With `count_include_pad` the divisor counts padded
    positions inside the padded input; otherwise only real elements count.

    ```mlir
    %y = graph.avg_pool2d %x {kernel_size = array<i64: 3, 3>,
                              padding = array<i64: 1, 1, 1, 1>,
                              count_include_pad = true}
       : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    ```
  }];
}

def Graph_GlobalAvgPool2DOp : Graph_Op<"global_avg_pool2d", [Pure, Graph_Pattern<"OutEWiseFusable">,
    InferTypeOpAdaptor, SameOperandsAndResultElementType]> {
  let summary = "Average over all spatial positions, keeping 1x1 spatial dims";
  let description = [{
    ```mlir
    %y = graph.global_avg_pool2d %x : (tensor<1x2048x7x7xf32>) -> tensor<1x2048x1x1xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input,
      DefaultValuedStrAttr<StrAttr, "NCHW">:$layout);
  let results = (outs Graph_FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_SoftmaxOp : Graph_Op<"softmax", [Pure, Graph_Pattern<"OutEWiseFusable">, SameOperandsAndResultType]> {
  let summary = "Softmax along one axis";
  let description = [{
    `exp(x - max) / sum(exp(x - max))` along `axis` (negative counts from
    the end).

    ```mlir
    %p = graph.softmax %x {axis = -1 : i64} : tensor<1x1000xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input,
      DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Graph_FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Graph_FastSoftmaxOp : Graph_Op<"fast_softmax", [Pure, Graph_Pattern<"OutEWiseFusable">,
                                                     SameOperandsAndResultType]> {
  let summary = "Softmax along one axis, with FastMath's exp";
  let description = [{
    `graph.softmax` made by FastMath: backends may compute its exponentials
    as `graph.fast_exp` does.

    ```mlir
    %p = graph.fast_softmax %x {axis = -1 : i64} : tensor<1x1000xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input,
      DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Graph_FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Graph_LayerNormOp : Graph_Op<"layer_norm", [Pure, Graph_Pattern<"OutEWiseFusable">,
    AllTypesMatch<["input", "output"]>, AllTypesMatch<["gamma", "beta"]>,
    AllElementTypesMatch<["input", "gamma"]>]> {
  let summary = "Layer normalization over the trailing dimensions from `axis`";
  let description = [{
    Normalizes over dimensions [axis, rank) (ONNX LayerNormalization):
    `(x - mean) / sqrt(var + epsilon) * gamma + beta`, where `gamma` and
    `beta` have the shape of those trailing dimensions.

    ```mlir
    %y = graph.layer_norm %x, %g, %b {epsilon = 1.0e-12 : f64}
       : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>)
      -> tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$gamma,
      Graph_FloatTensor:$beta,
      DefaultValuedAttr<I64Attr, "-1">:$axis,
      DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Graph_FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Graph_ReduceOp<string mnemonic, string what>
    : Graph_Op<mnemonic, [Pure, Graph_Pattern<"CommReduce">, InferTypeOpAdaptor,
                          SameOperandsAndResultElementType]> {
  let summary = what # " over `axes`";
  let description = "Reduces over `axes` (all axes when empty; negative "
      "values count from the end); `keepdims` keeps reduced axes as size 1.\n\n"
      "```mlir\n%y = graph." # mnemonic # " %x {axes = array<i64: 2, 3>, "
      "keepdims = true} : (tensor<1x64x7x7xf32>) -> tensor<1x64x1x1xf32>\n```";
  let arguments = (ins Graph_NumericTensor:$input,
      DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axes,
      DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let results = (outs Graph_NumericTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_ReduceSumOp : Graph_ReduceOp<"reduce_sum", "Sum">;
def Graph_ReduceMeanOp : Graph_ReduceOp<"reduce_mean", "Mean">;
def Graph_ReduceMaxOp : Graph_ReduceOp<"reduce_max", "Maximum">;
def Graph_ReduceMinOp : Graph_ReduceOp<"reduce_min", "Minimum">;
def Graph_ReduceProdOp : Graph_ReduceOp<"reduce_prod", "Product">;

class Graph_ArgReduceOp<string mnemonic, string what>
    : Graph_Op<mnemonic, [Pure, Graph_Pattern<"CommReduce">, InferTypeOpAdaptor]> {
  let summary = "Index of the " # what # " along `axis`";
  let description = "The index (i64) of the " # what # " element along `axis` "
      "(negative counts from the end): the first of equal ones, or the last "
      "with `select_last_index`. A NaN counts as the " # what # ". `keepdims` "
      "keeps the axis as size 1.\n\n"
      "```mlir\n%i = graph." # mnemonic # " %x {axis = 1 : i64, keepdims = false} "
      ": (tensor<2x10xf32>) -> tensor<2xi64>\n```";
  let arguments = (ins Graph_NumericTensor:$input, DefaultValuedAttr<I64Attr, "0">:$axis,
      DefaultValuedAttr<BoolAttr, "true">:$keepdims,
      DefaultValuedAttr<BoolAttr, "false">:$select_last_index);
  let results = (outs Graph_TensorOf<[I64]>:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}
def Graph_ArgMaxOp : Graph_ArgReduceOp<"arg_max", "largest">;
def Graph_ArgMinOp : Graph_ArgReduceOp<"arg_min", "smallest">;

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

def Graph_TransposeOp : Graph_Op<"transpose", [Pure, Graph_Pattern<"Injective">, InferTypeOpAdaptor,
    SameOperandsAndResultElementType]> {
  let summary = "Permute dimensions: output dim i is input dim perm[i]";
  let description = [{
    ```mlir
    %y = graph.transpose %x {perm = array<i64: 0, 2, 3, 1>}
       : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_ReshapeOp : Graph_Op<"reshape", [Pure, Graph_Pattern<"Injective">, SameOperandsAndResultElementType]> {
  let summary = "Reshape to the (static) result type";
  let description = [{
    Row-major reinterpretation; element counts must match.

    ```mlir
    %y = graph.reshape %x : (tensor<1x2048x1x1xf32>) -> tensor<1x2048xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let hasVerifier = 1;
}

def Graph_DynamicReshapeOp : Graph_Op<"dynamic_reshape", [Pure, Graph_Pattern<"Injective">,
    AllElementTypesMatch<["input", "output"]>]> {
  let summary = "Reshape whose target shape comes from a 1-D tensor operand";
  let description = [{
    The shape operand follows ONNX Reshape: 0 copies the input dimension at
    that position and one -1 is inferred. At run time the computed shape
    must equal the static result type. DynamicToStatic turns this op into
    `graph.reshape` when the shape folds to a constant.

    ```mlir
    %y = graph.dynamic_reshape %x, %s
       : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_IndexTensor:$shape);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = [{
    $input `,` $shape attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_ConcatOp : Graph_Op<"concat", [Pure, Graph_Pattern<"Injective">, InferTypeOpAdaptor,
    SameOperandsAndResultElementType]> {
  let summary = "Concatenate tensors along `axis`";
  let description = [{
    ```mlir
    %y = graph.concat %a, %b {axis = 1 : i64}
       : (tensor<1x32x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x48x8x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Graph_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
}

def Graph_SplitOp : Graph_Op<"split", [Pure, Graph_Pattern<"Injective">, SameOperandsAndResultElementType]> {
  let summary = "Split a tensor along `axis` into the result types' sizes";
  let description = [{
    ```mlir
    %a, %b = graph.split %x {axis = 1 : i64}
       : (tensor<1x48x8x8xf32>) -> (tensor<1x32x8x8xf32>, tensor<1x16x8x8xf32>)
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis);
  let results = (outs Variadic<Graph_Tensor>:$outputs);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_SliceOp : Graph_Op<"slice", [Pure, Graph_Pattern<"Injective">, InferTypeOpAdaptor,
    SameOperandsAndResultElementType]> {
  let summary = "Strided slice with one start, end and step per dimension";
  let description = [{
    For every dimension d the output takes indices `starts[d]`,
    `starts[d] + steps[d]`, ... stopping before `ends[d]`. Steps are non-zero;
    with a negative step the slice walks backwards and `ends[d]` may be -1
    (one before index 0). Starts and ends are already normalized: they are
    in range for the dimension (ONNX's clamping happens in the importer).

    ```mlir
    %y = graph.slice %x {starts = array<i64: 0, 1>, ends = array<i64: 4, 7>,
                         steps = array<i64: 1, 2>}
       : (tensor<4x8xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$starts,
      DenseI64ArrayAttr:$ends, DenseI64ArrayAttr:$steps);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_PadOp : Graph_Op<"pad", [Pure, Graph_Pattern<"Injective">, InferTypeOpAdaptor,
    SameOperandsAndResultElementType]> {
  let summary = "Pad with a constant, by reflection or by repeating the edge";
  let description = [{
    Adds `pad_before[d]` and `pad_after[d]` elements to dimension d.
    `mode` is `constant` (fill with `value`), `reflect` (mirror without
    repeating the edge; pads must be smaller than the dimension) or `edge`.

    ```mlir
    %y = graph.pad %x {pad_before = array<i64: 0, 0, 1, 1>,
                       pad_after = array<i64: 0, 0, 1, 1>, mode = "reflect"}
       : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x6xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$pad_before,
      DenseI64ArrayAttr:$pad_after,
      DefaultValuedStrAttr<StrAttr, "constant">:$mode,
      DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_CastOp : Graph_Op<"cast", [Pure, Graph_Pattern<"ElemWise">, SameOperandsAndResultShape, Elementwise]> {
  let summary = "Convert the element type";
  let description = [{
    Float to float rounds to nearest even; float to integer truncates toward
    zero and wraps like a C cast of an in-range value; anything to i1 is
    `x != 0`.

    ```mlir
    %y = graph.cast %x : (tensor<4xf32>) -> tensor<4xf16>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_GatherOp : Graph_Op<"gather", [Pure, Graph_Pattern<"Injective">, InferTypeOpAdaptor,
    AllElementTypesMatch<["data", "output"]>]> {
  let summary = "Gather slices of `data` along `axis` (embedding lookup)";
  let description = [{
    ONNX Gather: the output shape is data.shape[:axis] + indices.shape +
    data.shape[axis+1:]. Negative indices count from the end. An index
    still out of range after that is clamped to [0, size - 1] (as XLA and
    TVM's `take` do): every target computes that, with no run-time check in
    the compiled code (ONNX leaves out-of-range indices undefined in effect:
    they are an error it does not require implementations to detect).

    ```mlir
    %e = graph.gather %table, %ids {axis = 0 : i64}
       : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$data, Graph_IndexTensor:$indices,
      DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = [{
    $data `,` $indices attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_GatherElementsOp : Graph_Op<"gather_elements", [Pure, Graph_Pattern<"Injective">,
    InferTypeOpAdaptor, AllElementTypesMatch<["data", "output"]>]> {
  let summary = "Gather elements of `data` along `axis` by an index per output element";
  let description = [{
    ONNX GatherElements: `output[i][j][k] = data[indices[i][j][k]][j][k]` for
    `axis = 0` (and so on for the other axes). `indices` has the rank of
    `data`, and each of its dimensions other than `axis` is at most `data`'s;
    the output has the shape of `indices`. Negative indices count from the
    end; an index still out of range is clamped, as graph.gather's.

    ```mlir
    %y = graph.gather_elements %x, %i {axis = 1 : i64}
       : (tensor<2x5xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$data, Graph_IndexTensor:$indices,
      DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = [{
    $data `,` $indices attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_ResizeOp : Graph_Op<"resize", [Pure, Graph_Pattern<"Injective">,
    SameOperandsAndResultElementType]> {
  let summary = "Resize by nearest, linear or cubic interpolation (ONNX Resize)";
  let description = [{
    Resizes every axis whose `scales` entry is not 1 (or whose size
    changes) with ONNX Resize's semantics: an output position `x` maps to
    an input coordinate by `coordinate_transformation_mode` (half_pixel,
    half_pixel_symmetric, pytorch_half_pixel, align_corners, asymmetric,
    tf_half_pixel_for_nn, tf_crop_and_resize with the normalized box `roi`,
    starts then ends), and reads the nearest input (rounded by
    `nearest_mode`), two (linear) or four (cubic, coefficient
    `cubic_coeff_a`, `exclude_outside`) neighbours, clamped to the edge.
    Axes are interpolated one at a time, the last first, as ONNX's
    reference does. `scales` are ONNX's (the output size over the input
    size when sizes were given); the result type gives the output sizes.
    Linear and cubic modes need floating-point elements.

    ```mlir
    %y = graph.resize %x {mode = "linear", scales = array<f64: 1.0, 1.0, 2.0, 2.0>}
       : (tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32>
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$input, DenseF64ArrayAttr:$scales,
      DefaultValuedStrAttr<StrAttr, "nearest">:$mode,
      DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode,
      DefaultValuedStrAttr<StrAttr, "round_prefer_floor">:$nearest_mode,
      DefaultValuedAttr<F64Attr, "-0.75">:$cubic_coeff_a,
      DefaultValuedAttr<BoolAttr, "false">:$exclude_outside,
      DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value,
      DefaultValuedAttr<DenseF64ArrayAttr, "{}">:$roi);
  let results = (outs Graph_NumericTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The interpolation attributes, for dlc::resizeTaps.
    ::dlc::ResizeMode getResizeMode() {
      ::dlc::ResizeMode m;
      m.mode = getMode();
      m.coordinates = getCoordinateTransformationMode();
      m.nearest = getNearestMode();
      m.cubicA = getCubicCoeffA().convertToDouble();
      m.excludeOutside = getExcludeOutside();
      m.extrapolation = getExtrapolationValue().convertToDouble();
      return m;
    }
  }];
}

def Graph_ExpandDimsOp : Graph_Op<"expand_dims", [Pure, Graph_Pattern<"Injective">, InferTypeOpAdaptor,
    SameOperandsAndResultElementType]> {
  let summary = "Insert size-1 dimensions at `axes` of the output";
  let description = [{
    ONNX Unsqueeze: `axes` name positions in the output (negative values
    count from the end of the output).

    ```mlir
    %y = graph.expand_dims %x {axes = array<i64: 0, 2>}
       : (tensor<3x4xf32>) -> tensor<1x3x1x4xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_SqueezeOp : Graph_Op<"squeeze", [Pure, Graph_Pattern<"Injective">, InferTypeOpAdaptor,
    SameOperandsAndResultElementType]> {
  let summary = "Remove size-1 dimensions (`axes`, or all when empty)";
  let description = [{
    ```mlir
    %y = graph.squeeze %x {axes = array<i64: 2, 3>}
       : (tensor<1x2048x1x1xf32>) -> tensor<1x2048xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input,
      DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axes);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_LayoutTransformOp : Graph_Op<"layout_transform", [Pure, Graph_Pattern<"Injective">,
    InferTypeOpAdaptor, SameOperandsAndResultElementType]> {
  let summary = "Convert between data layouts, including blocked ones";
  let description = [{
    Layouts are strings of axis names, as in TVM: upper-case letters are
    primal axes and a number followed by a lower-case letter is a block of
    that primal axis, e.g. `NCHW`, `NHWC`, `NCHW8c`, `OIHW16i16o`. Every
    primal axis appears once in each layout; block sizes divide the axis.
    A transform to the same layout, or back to the layout its input was
    transformed from, folds away.

    ```mlir
    %y = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW8c"}
       : (tensor<1x16x7x7xf32>) -> tensor<1x2x7x7x8xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, StrAttr:$src_layout,
      StrAttr:$dst_layout);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

def Graph_QuantizeOp : Graph_Op<"quantize", [Pure, Graph_Pattern<"ElemWise">,
    AllShapesMatch<["input", "output"]>,
    AllElementTypesMatch<["zero_point", "output"]>]> {
  let summary = "Affine quantization: saturate(round(x / scale) + zero_point)";
  let description = [{
    ONNX QuantizeLinear. `scale` (float) and `zero_point` (i8 or i32) are
    scalars (rank 0 or one element) for per-tensor quantization, or 1-D with
    one value per index of `axis` for per-axis quantization. `x / scale` is
    computed in the input's type, then rounded to nearest even; the result
    saturates to the output type's range.

    ```mlir
    %q = graph.quantize %x, %s, %z
       : (tensor<1x64xf32>, tensor<f32>, tensor<i8>) -> tensor<1x64xi8>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$scale,
      Graph_QuantTensor:$zero_point, DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs Graph_QuantTensor:$output);
  let assemblyFormat = [{
    $input `,` $scale `,` $zero_point attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_DequantizeOp : Graph_Op<"dequantize", [Pure, Graph_Pattern<"ElemWise">,
    AllShapesMatch<["input", "output"]>,
    AllElementTypesMatch<["zero_point", "input"]>,
    AllElementTypesMatch<["scale", "output"]>]> {
  let summary = "Affine dequantization: (x - zero_point) * scale";
  let description = [{
    ONNX DequantizeLinear, per-tensor or per-axis like `graph.quantize`.

    ```mlir
    %x = graph.dequantize %q, %s, %z
       : (tensor<1x64xi8>, tensor<f32>, tensor<i8>) -> tensor<1x64xf32>
    ```
  }];
  let arguments = (ins Graph_QuantTensor:$input, Graph_FloatTensor:$scale,
      Graph_QuantTensor:$zero_point, DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs Graph_FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $scale `,` $zero_point attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Detection
//===----------------------------------------------------------------------===//

def Graph_NmsOp : Graph_Op<"nms", [Pure, Graph_Pattern<"Opaque">, InferTypeOpAdaptor]> {
  let summary = "Per-class non-maximum suppression with a fixed number of detections";
  let description = [{
    `boxes` is [N, B, 4] as (x1, y1, x2, y2); `scores` is [N, C, B]. For
    every class except `background_class` (-1 for none), boxes scoring above
    `score_threshold` are visited in descending score order and kept unless
    their IoU with a box already kept for that class exceeds
    `iou_threshold`. The kept detections of all classes are ranked by score
    (ties: lower class, then lower box index first) and the best
    `max_detections` are returned; unused slots have box 0, score 0 and
    class -1, so every shape is static.

    ```mlir
    %b, %s, %c = graph.nms %boxes, %scores {max_detections = 200 : i64}
       : (tensor<1x8732x4xf32>, tensor<1x81x8732xf32>)
      -> (tensor<1x200x4xf32>, tensor<1x200xf32>, tensor<1x200xi64>)
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$boxes, Graph_FloatTensor:$scores,
      DefaultValuedAttr<F64Attr, "0.5">:$iou_threshold,
      DefaultValuedAttr<F64Attr, "0.05">:$score_threshold,
      DefaultValuedAttr<I64Attr, "200">:$max_detections,
      DefaultValuedAttr<I64Attr, "0">:$background_class);
  let results = (outs Graph_FloatTensor:$out_boxes,
      Graph_FloatTensor:$out_scores, StaticShapeTensorOf<[I64]>:$out_classes);
  let assemblyFormat = [{
    $boxes `,` $scores attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Region ops made by later passes
//===----------------------------------------------------------------------===//

def Graph_YieldOp : Graph_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["FusedOp", "CompositeOp"]>]> {
  let summary = "Terminates the body of a graph.fused or graph.composite";
  let description = [{
    Its operands become the results of the enclosing region op.
  }];
  let arguments = (ins Variadic<Graph_Tensor>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ValueRange()); }]>];
  let assemblyFormat = "$values attr-dict `:` type($values)";
}

class Graph_RegionOp<string mnemonic, list<Trait> traits = []>
    : Graph_Op<mnemonic, !listconcat([IsolatedFromAbove,
          SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects],
          traits)> {
  let results = (outs Variadic<Graph_Tensor>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
}

def Graph_FusedOp : Graph_RegionOp<"fused"> {
  let summary = "A group of ops that compiles to one kernel (made by FuseOps)";
  let description = [{
    The body's block arguments are the operands; `graph.yield` gives the
    results. `pattern` records the fusion class (e.g. `out_elemwise_fusable`).

    ```mlir
    %y = graph.fused %x, %w {pattern = "out_elemwise_fusable"}
       : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
    ^bb0(%a: tensor<1x3x8x8xf32>, %b: tensor<4x3x3x3xf32>):
      %c = graph.conv2d %a, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
                                -> tensor<1x4x6x6xf32>
      %r = graph.relu %c : tensor<1x4x6x6xf32>
      graph.yield %r : tensor<1x4x6x6xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Graph_Tensor>:$inputs,
      OptionalAttr<StrAttr>:$pattern);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type($inputs, results) $body
  }];
}

def Graph_CompositeOp : Graph_RegionOp<"composite"> {
  let summary = "A named sub-graph matched as one unit (e.g. for a library call)";
  let description = [{
    Like `graph.fused`, with a `name` saying what the body computes
    (e.g. `conv2d_bias_relu`), so that later stages can treat it as one op.

    ```mlir
    %y = graph.composite "dense_gelu" %x, %w
       : (tensor<1x768xf32>, tensor<3072x768xf32>) -> tensor<1x3072xf32> {
    ^bb0(%a: tensor<1x768xf32>, %b: tensor<3072x768xf32>):
      %d = graph.dense %a, %b : (tensor<1x768xf32>, tensor<3072x768xf32>)
                               -> tensor<1x3072xf32>
      %g = graph.gelu %d : tensor<1x3072xf32>
      graph.yield %g : tensor<1x3072xf32>
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<Graph_Tensor>:$inputs);
  let assemblyFormat = [{
    $name $inputs attr-dict `:` functional-type($inputs, results) $body
  }];
}

#endif // DLC_DIALECT_GRAPH_OPS_TD
