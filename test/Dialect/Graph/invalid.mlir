// RUN: dlc-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic the graph dialect can emit.

func.func @conv_input_rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{conv2d: input must have rank 4, got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+2 {{conv2d: weight must have rank 4, got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{conv2d: strides must have 2 values, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_dilation_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{conv2d: dilations values must be in [1, 2^48], got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_negative_padding(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{conv2d: padding values must be in [0, 2^48], got -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {padding = array<i64: 0, -1, 0, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_layout(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{conv2d: layout must be "NCHW" or "NHWC", got "NCWH"}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {data_layout = "NCWH"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_kernel_layout(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{conv2d: kernel_layout must be "OIHW" or "HWIO", got "OHWI"}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {kernel_layout = "OHWI"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_groups_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{conv2d: groups must be >= 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {groups = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_groups_input(%x: tensor<1x64x8x8xf32>, %w: tensor<6x21x3x3xf32>) {
  // expected-error @+2 {{conv2d: input channels 64 not divisible by groups 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {groups = 3 : i64} : (tensor<1x64x8x8xf32>, tensor<6x21x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_groups_output(%x: tensor<1x6x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{conv2d: output channels 4 not divisible by groups 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {groups = 3 : i64} : (tensor<1x6x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_weight_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{conv2d: weight has 2 input channels per group, expected 3 (input channels 3 / groups 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{conv2d: bias must be 1-D with 4 elements (output channels)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_kernel_too_big(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{conv2d: dilated kernel 3x3 is larger than the padded input 2x2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x2x2xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @conv_result_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op inferred type(s) 'tensor<1x4x6x6xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_element_types(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+1 {{failed to verify that all of {input, weight, output} have same element type}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_bool(%x: tensor<1x3x8x8xi1>, %w: tensor<4x3x3x3xi1>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float or 8-bit signless integer or 32-bit signless integer or 64-bit signless integer values with at most 2^48 elements}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xi1>, tensor<4x3x3x3xi1>) -> tensor<1x4x6x6xi1>
  return
}

// -----

func.func @dynamic_shape(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of}}
  %0 = graph.relu %x : tensor<?x3xf32>
  return
}

// -----

func.func @unsupported_element_type(%x: tensor<2xi16>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of}}
  %0 = graph.relu %x : tensor<2xi16>
  return
}

// -----

func.func @constant_type_mismatch() {
  // expected-error @+1 {{'graph.constant' op failed to verify that all of {value, output} have same type}}
  %0 = "graph.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return
}

// -----

func.func @dense_weight_rank(%x: tensor<2x16xf32>, %w: tensor<16xf32>) {
  // expected-error @+2 {{dense: weight must have rank 2, got rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.dense %x, %w : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @dense_input_rank(%x: tensor<f32>, %w: tensor<4x16xf32>) {
  // expected-error @+2 {{dense: input must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.dense %x, %w : (tensor<f32>, tensor<4x16xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @dense_features(%x: tensor<2x8xf32>, %w: tensor<4x16xf32>) {
  // expected-error @+2 {{dense: weight is [4, 16] but input has 8 features (weight must be [out, in])}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.dense %x, %w : (tensor<2x8xf32>, tensor<4x16xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dense_bias(%x: tensor<2x16xf32>, %w: tensor<4x16xf32>, %b: tensor<16xf32>) {
  // expected-error @+2 {{dense: bias must be 1-D with 4 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.dense %x, %w, %b : (tensor<2x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @matmul_rank0(%a: tensor<f32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{matmul: operands must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<f32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @matmul_contraction(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{matmul: contraction sizes differ: lhs has 3 columns, rhs has 4 rows}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x2x3xf32>, %b: tensor<3x3x5xf32>) {
  // expected-error @+2 {{matmul: batch dimensions 2 and 3 do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x2x3xf32>, tensor<3x3x5xf32>) -> tensor<3x2x5xf32>
  return
}

// -----

func.func @batch_matmul_rank(%a: tensor<2x3xf32>, %b: tensor<1x3x5xf32>) {
  // expected-error @+2 {{batch_matmul: lhs must have rank 3, got rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.batch_matmul %a, %b : (tensor<2x3xf32>, tensor<1x3x5xf32>) -> tensor<1x2x5xf32>
  return
}

// -----

func.func @batch_matmul_contraction(%a: tensor<2x4x3xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+2 {{batch_matmul: contraction sizes differ: lhs 3, rhs 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.batch_matmul %a, %b : (tensor<2x4x3xf32>, tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  return
}

// -----

func.func @batch_matmul_batch(%a: tensor<2x4x3xf32>, %b: tensor<3x3x5xf32>) {
  // expected-error @+2 {{batch_matmul: batch sizes 2 and 3 differ and neither is 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.batch_matmul %a, %b : (tensor<2x4x3xf32>, tensor<3x3x5xf32>) -> tensor<3x4x5xf32>
  return
}

// -----

func.func @batch_norm_axis(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op axis 4 is out of range for rank 4}}
  %0 = graph.batch_norm %x, %p, %p, %p, %p {axis = 4 : i64} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @batch_norm_params(%x: tensor<1x4x2x2xf32>, %p: tensor<2xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op gamma, beta, mean and variance must be 1-D with 4 elements (channels on axis 1), got 'tensor<2xf32>'}}
  %0 = graph.batch_norm %x, %p, %p, %p, %p : (tensor<1x4x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @batch_norm_epsilon(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op epsilon must be >= 0}}
  %0 = graph.batch_norm %x, %p, %p, %p, %p {epsilon = -1.0 : f64} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @bias_add_axis(%x: tensor<1x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.bias_add' op axis 2 is out of range for rank 2}}
  %0 = graph.bias_add %x, %b {axis = 2 : i64} : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @bias_add_size(%x: tensor<1x4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'graph.bias_add' op bias must be 1-D with 4 elements (size of axis 1), got 'tensor<3xf32>'}}
  %0 = graph.bias_add %x, %b : (tensor<1x4xf32>, tensor<3xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @gelu_mode(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.gelu' op approximate must be "none" or "tanh", got "fast"}}
  %0 = graph.gelu %x {approximate = "fast"} : tensor<4xf32>
  return
}

// -----

func.func @clip_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.clip' op min 6.000000e+00 is greater than max 0.000000e+00}}
  %0 = graph.clip %x {min = 6.0 : f64, max = 0.0 : f64} : tensor<4xf32>
  return
}

// -----

func.func @binary_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{add: shapes 2x3 and 4 do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @binary_element_types(%a: tensor<3xf32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'graph.mul' op requires the same element type for all operands and results}}
  %0 = graph.mul %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @binary_result_shape(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'graph.sub' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.sub %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<4x7x7xf32>) {
  // expected-error @+2 {{max_pool2d: input must have rank 4, got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<4x7x7xf32>) -> tensor<4x6x6xf32>
  return
}

// -----

func.func @pool_kernel(%x: tensor<1x4x7x7xf32>) {
  // expected-error @+2 {{avg_pool2d: kernel_size must have 2 values, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.avg_pool2d %x {kernel_size = array<i64: 2>} : (tensor<1x4x7x7xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @pool_padding(%x: tensor<1x4x7x7xf32>) {
  // expected-error @+2 {{max_pool2d: padding must be smaller than the (dilated) kernel}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel_size = array<i64: 2, 2>, padding = array<i64: 2, 0, 0, 0>} : (tensor<1x4x7x7xf32>) -> tensor<1x4x8x6xf32>
  return
}

// -----

func.func @pool_too_big(%x: tensor<1x4x2x2xf32>) {
  // expected-error @+2 {{max_pool2d: kernel 3x3 is larger than the padded input 2x2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel_size = array<i64: 3, 3>} : (tensor<1x4x2x2xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @pool_layout(%x: tensor<1x4x7x7xf32>) {
  // expected-error @+2 {{max_pool2d: layout must be "NCHW" or "NHWC", got "CHWN"}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel_size = array<i64: 2, 2>, layout = "CHWN"} : (tensor<1x4x7x7xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @global_pool_rank(%x: tensor<4x7x7xf32>) {
  // expected-error @+2 {{global_avg_pool2d: input must have rank 4, got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.global_avg_pool2d %x : (tensor<4x7x7xf32>) -> tensor<4x1x1xf32>
  return
}

// -----

func.func @global_pool_layout(%x: tensor<1x4x7x7xf32>) {
  // expected-error @+2 {{global_avg_pool2d: layout must be "NCHW" or "NHWC", got "HWCN"}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.global_avg_pool2d %x {layout = "HWCN"} : (tensor<1x4x7x7xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.softmax' op axis 2 is out of range for rank 2}}
  %0 = graph.softmax %x {axis = 2 : i64} : tensor<2x3xf32>
  return
}

// -----

func.func @fast_softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.fast_softmax' op axis -3 is out of range for rank 2}}
  %0 = graph.fast_softmax %x {axis = -3 : i64} : tensor<2x3xf32>
  return
}

// -----

func.func @layer_norm_axis(%x: tensor<2x3xf32>, %g: tensor<3xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op axis -3 is out of range for rank 2}}
  %0 = graph.layer_norm %x, %g, %g {axis = -3 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @layer_norm_gamma(%x: tensor<2x3xf32>, %g: tensor<2xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op gamma and beta must have the normalized shape 3, got 2}}
  %0 = graph.layer_norm %x, %g, %g : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @layer_norm_epsilon(%x: tensor<2x3xf32>, %g: tensor<3xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op epsilon must be >= 0}}
  %0 = graph.layer_norm %x, %g, %g {epsilon = -1.0 : f64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reduce_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{reduce_sum: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reduce_sum %x {axes = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_duplicate_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{reduce_mean: axis -1 appears twice}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reduce_mean %x {axes = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @transpose_perm_size(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{transpose: perm has 1 entries, input has rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.transpose %x {perm = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_perm_repeat(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{transpose: axis 1 appears twice}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.transpose %x {perm = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reshape' op cannot reshape 2x3 (6 elements) to 7 (7 elements)}}
  %0 = graph.reshape %x : (tensor<2x3xf32>) -> tensor<7xf32>
  return
}

// -----

func.func @dynamic_reshape_shape_rank(%x: tensor<2x3xf32>, %s: tensor<1x2xi64>) {
  // expected-error @+1 {{'graph.dynamic_reshape' op shape operand must be 1-D, got rank 2}}
  %0 = graph.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<1x2xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @dynamic_reshape_entries(%x: tensor<2x3xf32>, %s: tensor<3xi64>) {
  // expected-error @+1 {{'graph.dynamic_reshape' op shape operand has 3 entries but the result has rank 2}}
  %0 = graph.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @dynamic_reshape_count(%x: tensor<2x3xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'graph.dynamic_reshape' op input and result element counts differ (6 vs 9)}}
  %0 = graph.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x3xf32>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{'graph.concat' op expected 1 or more operands, but found 0}}
  %0 = graph.concat {axis = 0 : i64} : () -> tensor<2xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{concat: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat %a, %a {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{concat: input 1 has a different rank}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @concat_shape(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+2 {{concat: input 1 has shape 2x4, which differs from input 0 (2x3) outside axis 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @split_axis(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{'graph.split' op axis 2 is out of range for rank 2}}
  graph.split %x {axis = 2 : i64} : (tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return
}

// -----

func.func @split_no_results(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{'graph.split' op expected 1 or more results}}
  graph.split %x {axis = 1 : i64} : (tensor<2x6xf32>) -> ()
  return
}

// -----

func.func @split_rank(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{'graph.split' op result 0 has rank 1, expected 2}}
  graph.split %x {axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<12xf32>)
  return
}

// -----

func.func @split_other_dims(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{'graph.split' op result 0 differs from the input outside axis 1}}
  graph.split %x {axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<1x6xf32>)
  return
}

// -----

func.func @split_sizes(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{'graph.split' op result sizes along axis 1 add up to 5, input has 6}}
  graph.split %x {axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>)
  return
}

// -----

func.func @slice_sizes(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{slice: starts must have 2 values, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 0>, ends = array<i64: 4, 8>, steps = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_step_zero(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{slice: step of dimension 1 is 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 8>, steps = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_range(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{slice: dimension 0 of size 4: start 0, end 5, step 1 is out of range}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 5, 8>, steps = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<5x8xf32>
  return
}

// -----

func.func @pad_sizes(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{pad: pad_before must have 2 values, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x {pad_before = array<i64: 1>, pad_after = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<5x8xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{pad: pad_after values must be in [0, 2^48], got -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x {pad_before = array<i64: 0, 0>, pad_after = array<i64: 0, -1>} : (tensor<4x8xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @pad_mode(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{pad: mode must be "constant", "reflect" or "edge", got "wrap"}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x {pad_before = array<i64: 0, 0>, pad_after = array<i64: 0, 0>, mode = "wrap"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @pad_reflect(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{pad: reflect padding of dimension 0 must be smaller than its size 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x {pad_before = array<i64: 4, 0>, pad_after = array<i64: 0, 0>, mode = "reflect"} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @pad_edge_empty(%x: tensor<0x8xf32>) {
  // expected-error @+2 {{pad: edge padding of the empty dimension 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x {pad_before = array<i64: 1, 0>, pad_after = array<i64: 0, 0>, mode = "edge"} : (tensor<0x8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @gather_axis(%d: tensor<4x8xf32>, %i: tensor<2xi64>) {
  // expected-error @+2 {{gather: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather %d, %i {axis = 2 : i64} : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @gather_rank0(%d: tensor<f32>, %i: tensor<2xi64>) {
  // expected-error @+2 {{gather: data must have rank >= 1 and indices must be ranked}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather %d, %i : (tensor<f32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_indices_type(%d: tensor<4xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = graph.gather %d, %i : (tensor<4xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_elements_rank(%d: tensor<4x8xf32>, %i: tensor<2xi64>) {
  // expected-error @+2 {{gather_elements: indices have rank 1, data rank 2 (they must be equal)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather_elements %d, %i : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_elements_larger(%d: tensor<4x8xf32>, %i: tensor<2x9xi64>) {
  // expected-error @+2 {{gather_elements: indices 2x9 are larger than data 4x8 in dimension 1, which is not the axis}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather_elements %d, %i {axis = 0 : i64} : (tensor<4x8xf32>, tensor<2x9xi64>) -> tensor<2x9xf32>
  return
}

// -----

func.func @gather_elements_axis(%d: tensor<4x8xf32>, %i: tensor<2x2xi64>) {
  // expected-error @+2 {{gather_elements: axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather_elements %d, %i {axis = -3 : i64} : (tensor<4x8xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return
}

// -----

func.func @arg_max_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{arg_max: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.arg_max %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return
}

// -----

func.func @arg_min_scalar(%x: tensor<f32>) {
  // expected-error @+2 {{arg_min: input must be a ranked tensor of rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.arg_min %x : (tensor<f32>) -> tensor<i64>
  return
}

// -----

func.func @arg_max_result_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of 64-bit signless integer values}}
  %0 = graph.arg_max %x {axis = 1 : i64, keepdims = false} : (tensor<2x3xf32>) -> tensor<2xi32>
  return
}

// -----

func.func @sin_of_integers(%x: tensor<2xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of}}
  %0 = graph.sin %x : tensor<2xi32>
  return
}

// -----

func.func @resize_scales(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'graph.resize' op has 1 scales for rank 2}}
  %0 = graph.resize %x {scales = array<f64: 2.0>} : (tensor<1x4xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @resize_scale_zero(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'graph.resize' op scales must be positive and finite, got 0}}
  %0 = graph.resize %x {scales = array<f64: 1.0, 0.0>} : (tensor<1x4xf32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @resize_mode(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'graph.resize' op unknown mode 'bicubic' (nearest, linear or cubic)}}
  %0 = graph.resize %x {scales = array<f64: 1.0, 2.0>, mode = "bicubic"} : (tensor<1x4xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @resize_coordinates(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'graph.resize' op unknown coordinate_transformation_mode 'center'}}
  %0 = graph.resize %x {scales = array<f64: 1.0, 2.0>, coordinate_transformation_mode = "center"} : (tensor<1x4xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @resize_nearest_mode(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'graph.resize' op unknown nearest_mode 'nearest'}}
  %0 = graph.resize %x {scales = array<f64: 1.0, 2.0>, nearest_mode = "nearest"} : (tensor<1x4xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @resize_linear_ints(%x: tensor<1x4xi32>) {
  // expected-error @+1 {{'graph.resize' op linear interpolation needs floating-point elements}}
  %0 = graph.resize %x {scales = array<f64: 1.0, 2.0>, mode = "linear"} : (tensor<1x4xi32>) -> tensor<1x8xi32>
  return
}

// -----

func.func @resize_rank(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'graph.resize' op result rank 1 differs from the input's 2}}
  %0 = graph.resize %x {scales = array<f64: 1.0, 2.0>} : (tensor<1x4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @resize_roi(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'graph.resize' op has 2 roi values for rank 2 (starts then ends: 4)}}
  %0 = graph.resize %x {scales = array<f64: 1.0, 2.0>, roi = array<f64: 0.0, 1.0>} : (tensor<1x4xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @expand_dims_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{expand_dims: axis 3 is out of range for rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.expand_dims %x {axes = array<i64: 3>} : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
  return
}

// -----

func.func @squeeze_not_one(%x: tensor<1x2048x1x1xf32>) {
  // expected-error @+2 {{squeeze: dimension 1 has size 2048, not 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.squeeze %x {axes = array<i64: 1>} : (tensor<1x2048x1x1xf32>) -> tensor<1x1x1xf32>
  return
}

// -----

func.func @layout_src(%x: tensor<1x16x7x7xf32>) {
  // expected-error @+2 {{layout_transform: src_layout: layout 'NCHC' repeats axis 'C'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.layout_transform %x {src_layout = "NCHC", dst_layout = "NHWC"} : (tensor<1x16x7x7xf32>) -> tensor<1x7x7x16xf32>
  return
}

// -----

func.func @layout_dst(%x: tensor<1x16x7x7xf32>) {
  // expected-error @+2 {{layout_transform: dst_layout: layout 'NCHW8' ends in a number}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW8"} : (tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  return
}

// -----

func.func @layout_block(%x: tensor<1x12x7x7xf32>) {
  // expected-error @+2 {{layout_transform: axis 'C' of size 12 is not divisible by block 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW8c"} : (tensor<1x12x7x7xf32>) -> tensor<1x1x7x7x8xf32>
  return
}

// -----

func.func @layout_rank(%x: tensor<16x7x7xf32>) {
  // expected-error @+2 {{layout_transform: tensor of rank 3 does not match layout of rank 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<16x7x7xf32>) -> tensor<7x7x16xf32>
  return
}

// -----

func.func @layout_axes(%x: tensor<1x16x7x7xf32>) {
  // expected-error @+2 {{layout_transform: layouts do not have the same primal axes}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCDW"} : (tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  return
}

// -----

func.func @layout_block_overflow(%x: tensor<1x16x7x7xf32>) {
  // expected-error @+2 {{layout_transform: dst_layout: layout 'NCHW88888888888888888888c' has a block factor beyond 2^63 - 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW88888888888888888888c"} : (tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  return
}

// -----

func.func @layout_block_parse(%x: tensor<1x16x7x7xf32>) {
  // expected-error @+2 {{layout_transform: dst_layout: layout 'NHW8c' blocks axis 'C' that it does not contain}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NHW8c"} : (tensor<1x16x7x7xf32>) -> tensor<1x7x7x8xf32>
  return
}

// -----

func.func @quantize_param_shapes(%x: tensor<2x3xf32>, %s: tensor<f32>, %z: tensor<3xi8>) {
  // expected-error @+1 {{'graph.quantize' op scale and zero_point must have the same shape}}
  %0 = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<3xi8>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_per_axis(%x: tensor<2x3xf32>, %s: tensor<2xf32>, %z: tensor<2xi8>) {
  // expected-error @+1 {{'graph.quantize' op per-axis scale must be 1-D with 3 elements (size of axis 1), got 'tensor<2xf32>'}}
  %0 = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %z: tensor<3xi8>) {
  // expected-error @+1 {{'graph.quantize' op axis 5 is out of range for rank 2}}
  %0 = graph.quantize %x, %s, %z {axis = 5 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_zero_point_type(%x: tensor<2x3xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{failed to verify that all of {zero_point, output} have same element type}}
  %0 = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @dequantize_per_axis(%x: tensor<2x3xi8>, %s: tensor<4xf32>, %z: tensor<4xi8>) {
  // expected-error @+1 {{'graph.dequantize' op per-axis scale must be 1-D with 3 elements (size of axis 1), got 'tensor<4xf32>'}}
  %0 = graph.dequantize %x, %s, %z : (tensor<2x3xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<2x3xf32>
  return
}
// -----

func.func @fused_arity(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.fused' op body has 2 arguments but the op has 1 inputs}}
  %0 = graph.fused %x : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    graph.yield %a : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @fused_arg_type(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.fused' op body argument 0 has type 'tensor<3xf32>' but input 0 has type 'tensor<2xf32>'}}
  %0 = graph.fused %x : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<3xf32>):
    %r = graph.reshape %a : (tensor<3xf32>) -> tensor<3xf32>
    graph.yield %x : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @fused_yield(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.fused' op graph.yield types do not match the results}}
  %0 = graph.fused %x : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %r = graph.reshape %a : (tensor<2xf32>) -> tensor<2x1xf32>
    graph.yield %r : tensor<2x1xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @composite_name(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.composite' op name must not be empty}}
  %0 = graph.composite "" %x : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    graph.yield %a : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @yield_outside(%x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.yield' op expects parent op to be one of 'graph.fused, graph.composite'}}
  graph.yield %x : tensor<2xf32>
}

// -----

func.func @nms_boxes_rank(%b: tensor<10x4xf32>, %s: tensor<1x3x10xf32>) {
  // expected-error @+2 {{nms: boxes must have rank 3, got rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.nms %b, %s : (tensor<10x4xf32>, tensor<1x3x10xf32>) -> (tensor<1x5x4xf32>, tensor<1x5xf32>, tensor<1x5xi64>)
  return
}

// -----

func.func @nms_boxes_shape(%b: tensor<1x10x5xf32>, %s: tensor<1x3x10xf32>) {
  // expected-error @+2 {{nms: boxes must be [N, B, 4], got 1x10x5}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.nms %b, %s : (tensor<1x10x5xf32>, tensor<1x3x10xf32>) -> (tensor<1x5x4xf32>, tensor<1x5xf32>, tensor<1x5xi64>)
  return
}

// -----

func.func @nms_scores_shape(%b: tensor<1x10x4xf32>, %s: tensor<1x3x9xf32>) {
  // expected-error @+2 {{nms: scores must be [N, C, B] = [1, C, 10], got 1x3x9}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.nms %b, %s : (tensor<1x10x4xf32>, tensor<1x3x9xf32>) -> (tensor<1x5x4xf32>, tensor<1x5xf32>, tensor<1x5xi64>)
  return
}

// -----

func.func @nms_max_detections(%b: tensor<1x10x4xf32>, %s: tensor<1x3x10xf32>) {
  // expected-error @+2 {{nms: max_detections must be >= 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.nms %b, %s {max_detections = 0 : i64} : (tensor<1x10x4xf32>, tensor<1x3x10xf32>) -> (tensor<1x5x4xf32>, tensor<1x5xf32>, tensor<1x5xi64>)
  return
}

// -----

func.func @nms_iou(%b: tensor<1x10x4xf32>, %s: tensor<1x3x10xf32>) {
  // expected-error @+2 {{nms: iou_threshold must be in [0, 1], got 1.500000}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.nms %b, %s {iou_threshold = 1.5 : f64} : (tensor<1x10x4xf32>, tensor<1x3x10xf32>) -> (tensor<1x5x4xf32>, tensor<1x5xf32>, tensor<1x5xi64>)
  return
}

// -----

func.func @dropout_rate(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.dropout' op rate must be in [0, 1), got 1.000000e+00}}
  %0 = graph.dropout %x {rate = 1.0 : f64} : tensor<4xf32>
  return
}

// -----

// Element counts that overflow 64 bits (2^32 x 2^32) or dimensions that are
// negative: every graph tensor has at most 2^48 elements.
func.func @too_many_elements(%x: tensor<4294967296x4294967296xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float or 8-bit signless integer or 32-bit signless integer or 64-bit signless integer values with at most 2^48 elements, but got 'tensor<4294967296x4294967296xf32>'}}
  %0 = graph.relu %x : tensor<4294967296x4294967296xf32>
  return
}

// -----

// A padding that would wrap around 64 bits.
func.func @pad_overflow(%x: tensor<4xf32>) {
  // expected-error @+2 {{pad: pad_before values must be in [0, 2^48], got 9223372036854775807}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x {pad_before = array<i64: 9223372036854775807>, pad_after = array<i64: 9223372036854775807>} : (tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @conv_dilation_overflow(%x: tensor<1x1x8x8xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error @+2 {{conv2d: dilations values must be in [1, 2^48], got 4611686018427387904}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 4611686018427387904, 1>} : (tensor<1x1x8x8xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32>
  return
}

// -----

func.func @compare_predicate(%a: tensor<2xf32>) {
  // expected-error @+2 {{compare: unknown predicate 'lessish' (expected eq, ne, lt, le, gt or ge)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.compare "lessish", %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return
}

// -----

func.func @compare_types(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+2 {{compare: operands of different element types}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.compare "eq", %a, %b : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xi1>
  return
}

// -----

func.func @compare_booleans(%a: tensor<2xi1>) {
  // expected-error @+2 {{compare: booleans compare for eq and ne only, not 'lt'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.compare "lt", %a, %a : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return
}

// -----

func.func @select_types(%c: tensor<2xi1>, %a: tensor<2xf32>, %b: tensor<2xf16>) {
  // expected-error @+2 {{select: true and false values of different element types}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.select %c, %a, %b : (tensor<2xi1>, tensor<2xf32>, tensor<2xf16>) -> tensor<2xf32>
  return
}

// -----

func.func @select_shapes(%c: tensor<3xi1>, %a: tensor<2xf32>) {
  // expected-error @+2 {{select: shapes 3, 2 and 2 do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.select %c, %a, %a : (tensor<3xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @select_condition(%c: tensor<2xf32>, %a: tensor<2xf32>) {
  // expected-error @+1 {{operand #0 must be}}
  %0 = graph.select %c, %a, %a : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @winograd_tile(%x: tensor<1x4x8x8xf32>, %u: tensor<25x4x4xf32>) {
  // expected-error @+2 {{conv2d_winograd: tile must be 2 or 4, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d_winograd %x, %u {tile = 3 : i64} : (tensor<1x4x8x8xf32>, tensor<25x4x4xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @winograd_weight(%x: tensor<1x4x8x8xf32>, %u: tensor<16x4x4xf32>) {
  // expected-error @+2 {{conv2d_winograd: weight must be [36, O, 4] (tile 4, 4 input channels, NCHW), got [16, 4, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d_winograd %x, %u : (tensor<1x4x8x8xf32>, tensor<16x4x4xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @winograd_channels(%x: tensor<1x4x8x8xf32>, %u: tensor<36x4x3xf32>) {
  // expected-error @+2 {{conv2d_winograd: weight must be [36, O, 4] (tile 4, 4 input channels, NCHW), got [36, 4, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d_winograd %x, %u : (tensor<1x4x8x8xf32>, tensor<36x4x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// NHWC: the weight is [alpha^2, C, O].
func.func @winograd_nhwc_channels(%x: tensor<1x8x8x4xf32>, %u: tensor<36x3x4xf32>) {
  // expected-error @+2 {{conv2d_winograd: weight must be [36, 4, O] (tile 4, 4 input channels, NHWC), got [36, 3, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d_winograd %x, %u {data_layout = "NHWC"} : (tensor<1x8x8x4xf32>, tensor<36x3x4xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @winograd_layout(%x: tensor<1x8x8x4xf32>, %u: tensor<36x4x4xf32>) {
  // expected-error @+2 {{conv2d_winograd: layout must be "NCHW" or "NHWC", got "HWCN"}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d_winograd %x, %u {data_layout = "HWCN"} : (tensor<1x8x8x4xf32>, tensor<36x4x4xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @winograd_bias(%x: tensor<1x4x8x8xf32>, %u: tensor<36x8x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{conv2d_winograd: bias must be 1-D with 8 elements (output channels)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d_winograd %x, %u, %b : (tensor<1x4x8x8xf32>, tensor<36x8x4xf32>, tensor<4xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @winograd_small(%x: tensor<1x4x2x2xf32>, %u: tensor<36x4x4xf32>) {
  // expected-error @+2 {{conv2d_winograd: the 3x3 kernel is larger than the padded input 2x2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d_winograd %x, %u : (tensor<1x4x2x2xf32>, tensor<36x4x4xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @winograd_rank(%x: tensor<4x8x8xf32>, %u: tensor<36x4x4xf32>) {
  // expected-error @+2 {{conv2d_winograd: input must have rank 4, got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d_winograd %x, %u : (tensor<4x8x8xf32>, tensor<36x4x4xf32>) -> tensor<1x4x6x6xf32>
  return
}
