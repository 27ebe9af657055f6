// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-simplify-inference))" | FileCheck %s

// CHECK-LABEL: func @batch_norm_nchw
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x2x2xf32>, %[[G:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[M:.*]]: tensor<4xf32>, %[[V:.*]]: tensor<4xf32>)
// CHECK: %[[EPS:.*]] = graph.constant dense<1.000000e-03> : tensor<f32>
// CHECK: %[[VE:.*]] = graph.add %[[V]], %[[EPS]]
// CHECK: %[[SD:.*]] = graph.sqrt %[[VE]]
// CHECK: %[[SCALE:.*]] = graph.div %[[G]], %[[SD]]
// CHECK: %[[MS:.*]] = graph.mul %[[M]], %[[SCALE]]
// CHECK: %[[SHIFT:.*]] = graph.sub %[[B]], %[[MS]]
// CHECK: %[[S3:.*]] = graph.reshape %[[SCALE]] : (tensor<4xf32>) -> tensor<4x1x1xf32>
// CHECK: %[[T3:.*]] = graph.reshape %[[SHIFT]] : (tensor<4xf32>) -> tensor<4x1x1xf32>
// CHECK: %[[XS:.*]] = graph.mul %[[X]], %[[S3]]
// CHECK: %[[Y:.*]] = graph.add %[[XS]], %[[T3]]
// CHECK-NOT: graph.batch_norm
// CHECK: return %[[Y]]
func.func @batch_norm_nchw(%x: tensor<1x4x2x2xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>,
                           %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %0 = graph.batch_norm %x, %g, %b, %m, %v {epsilon = 1.0e-3 : f64}
     : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// On the last axis (NHWC) the parameters broadcast as they are.
// CHECK-LABEL: func @batch_norm_nhwc
// CHECK-NOT: graph.reshape
// CHECK: graph.mul %arg0, %{{.*}} : (tensor<1x2x2x4xf32>, tensor<4xf32>) -> tensor<1x2x2x4xf32>
// CHECK-NOT: graph.batch_norm
func.func @batch_norm_nhwc(%x: tensor<1x2x2x4xf32>, %p: tensor<4xf32>) -> tensor<1x2x2x4xf32> {
  %0 = graph.batch_norm %x, %p, %p, %p, %p {axis = 3 : i64}
     : (tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x2x4xf32>
  return %0 : tensor<1x2x2x4xf32>
}

// -----

// CHECK-LABEL: func @layer_norm
// CHECK: %[[MEAN:.*]] = graph.reduce_mean %arg0 {axes = array<i64: 1, 2>, keepdims = true}
// CHECK: %[[C:.*]] = graph.sub %arg0, %[[MEAN]]
// CHECK: %[[SQ:.*]] = graph.mul %[[C]], %[[C]]
// CHECK: %[[VAR:.*]] = graph.reduce_mean %[[SQ]] {axes = array<i64: 1, 2>, keepdims = true}
// CHECK: %[[EPS:.*]] = graph.constant dense<9.99999996E-13> : tensor<f32>
// CHECK: %[[VE:.*]] = graph.add %[[VAR]], %[[EPS]]
// CHECK: %[[SD:.*]] = graph.sqrt %[[VE]]
// CHECK: %[[N:.*]] = graph.div %[[C]], %[[SD]]
// CHECK: %[[NG:.*]] = graph.mul %[[N]], %arg1
// CHECK: graph.add %[[NG]], %arg2
// CHECK-NOT: graph.layer_norm
func.func @layer_norm(%x: tensor<2x3x8xf32>, %g: tensor<3x8xf32>, %b: tensor<3x8xf32>) -> tensor<2x3x8xf32> {
  %0 = graph.layer_norm %x, %g, %b {axis = 1 : i64, epsilon = 1.0e-12 : f64}
     : (tensor<2x3x8xf32>, tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

// CHECK-LABEL: func @dropout
// CHECK-NEXT: %[[R:.*]] = graph.relu %arg0
// CHECK-NEXT: return %[[R]]
func.func @dropout(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = graph.dropout %x {rate = 0.1 : f64} : tensor<8xf32>
  %1 = graph.relu %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Ops that are not inference normalizations stay.
// CHECK-LABEL: func @negative_other_ops
// CHECK-NEXT: graph.softmax
// CHECK-NEXT: graph.bias_add
func.func @negative_other_ops(%x: tensor<1x4xf32>, %b: tensor<4xf32>) -> tensor<1x4xf32> {
  %0 = graph.softmax %x : tensor<1x4xf32>
  %1 = graph.bias_add %0, %b : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
