// Region ops, function calls and dense_resource payloads.
// RUN: dlc-run %s --entry=fused --print-output | FileCheck %s --check-prefix=FUSED
// RUN: dlc-run %s --entry=call --print-output | FileCheck %s --check-prefix=CALL
// RUN: dlc-run %s --entry=resource --print-output | FileCheck %s --check-prefix=RES

// FUSED: output 0: f32[3] = [0, 2, 5]
// FUSED: output 1: f32[3] = [0, 4, 10]
func.func @fused() -> (tensor<3xf32>, tensor<3xf32>) {
  %c = graph.constant dense<[-2.0, 1.0, 2.0]> : tensor<3xf32>
  %d = graph.constant dense<[1.0, 1.0, 3.0]> : tensor<3xf32>
  %0 = graph.fused %c, %d {pattern = "elemwise"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<3xf32>, %b: tensor<3xf32>):
    %s = graph.add %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %r = graph.relu %s : tensor<3xf32>
    graph.yield %r : tensor<3xf32>
  }
  %1 = graph.composite "double" %0 : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<3xf32>):
    %s = graph.add %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    graph.yield %s : tensor<3xf32>
  }
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// CALL: output 0: f32[2] = [2, 4]
func.func private @twice(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = graph.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @call() -> tensor<2xf32> {
  %c = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = func.call @twice(%c) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Blob bytes: alignment word, then little-endian values.
// RES: output 0: f16[2] = [1, 2]
// RES: output 1: f32[2] = [1, -2]
// RES: output 2: i64[2] = [3, -1]
func.func @resource() -> (tensor<2xf16>, tensor<2xf32>, tensor<2xi64>) {
  %0 = graph.constant dense_resource<half> : tensor<2xf16>
  %1 = graph.constant dense_resource<single> : tensor<2xf32>
  %2 = graph.constant dense_resource<longs> : tensor<2xi64>
  return %0, %1, %2 : tensor<2xf16>, tensor<2xf32>, tensor<2xi64>
}

{-#
  dialect_resources: {
    builtin: {
      half: "0x02000000003C0040",
      single: "0x040000000000803F000000C0",
      longs: "0x080000000300000000000000FFFFFFFFFFFFFFFF"
    }
  }
#-}
