// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(graph-dead-code-elimination))" | FileCheck %s

// A whole dead chain goes, constants included.
// CHECK-LABEL: func @dead_chain
// CHECK-NEXT: %[[R:.*]] = graph.relu %arg0
// CHECK-NEXT: return %[[R]]
func.func @dead_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.constant dense<2.0> : tensor<4xf32>
  %0 = graph.mul %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.exp %0 : tensor<4xf32>
  %2 = graph.relu %x : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Dead ops inside a fused body go too; the body's live ops stay.
// CHECK-LABEL: func @dead_in_region
// CHECK: graph.fused
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.yield
func.func @dead_in_region(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.fused %x : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %d = graph.exp %a : tensor<4xf32>
    %r = graph.relu %a : tensor<4xf32>
    graph.yield %r : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @negative_all_used
// CHECK: graph.exp
// CHECK: graph.relu
func.func @negative_all_used(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.exp %x : tensor<4xf32>
  %1 = graph.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
