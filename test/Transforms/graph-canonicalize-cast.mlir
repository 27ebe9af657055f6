// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-canonicalize-cast))" | FileCheck %s

// CHECK-LABEL: func @upcast_two_users
// CHECK: %[[C0:.*]] = graph.cast %arg0 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[C1:.*]] = graph.cast %arg0 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: graph.relu %[[C1]]
// CHECK: graph.add %[[C0]], %arg1
func.func @upcast_two_users(%x: tensor<4xf16>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.cast %x : (tensor<4xf16>) -> tensor<4xf32>
  %1 = graph.relu %0 : tensor<4xf32>
  %2 = graph.add %0, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func @negative_downcast
// CHECK-COUNT-1: graph.cast
func.func @negative_downcast(%x: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf16>) {
  %0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xf16>
  %1 = graph.relu %0 : tensor<4xf16>
  %2 = graph.abs %0 : tensor<4xf16>
  return %1, %2 : tensor<4xf16>, tensor<4xf16>
}

// -----

// A user that is not elementwise (softmax) keeps the cast shared.
// CHECK-LABEL: func @negative_not_elementwise_user
// CHECK-COUNT-1: graph.cast
// CHECK-NOT: graph.cast
func.func @negative_not_elementwise_user(%x: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.cast %x : (tensor<4xf16>) -> tensor<4xf32>
  %1 = graph.relu %0 : tensor<4xf32>
  %2 = graph.softmax %0 : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// One user: nothing to duplicate.
// CHECK-LABEL: func @negative_one_user
// CHECK-COUNT-1: graph.cast
// CHECK-NOT: graph.cast
func.func @negative_one_user(%x: tensor<4xi8>) -> tensor<4xi32> {
  %0 = graph.cast %x : (tensor<4xi8>) -> tensor<4xi32>
  %1 = graph.abs %0 : tensor<4xi32>
  return %1 : tensor<4xi32>
}
