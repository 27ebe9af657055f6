// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(graph-remove-unused-functions)" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(graph-remove-unused-functions{entries=other})" | FileCheck %s --check-prefix=OTHER

// @helper is reached through @middle; @unused is not.
// CHECK-LABEL: func @main
// CHECK: func private @middle
// CHECK: func private @helper
// CHECK-NOT: @unused
// OTHER-NOT: func @main
// OTHER: func @other
// OTHER-NOT: @middle
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @middle(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @middle(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @helper(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = graph.relu %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @unused(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @other(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

// No entry function: the module is left unchanged.
// CHECK-LABEL: func @negative_no_entry_a
// CHECK: func @negative_no_entry_b
func.func @negative_no_entry_a(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @negative_no_entry_b(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
