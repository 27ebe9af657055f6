// RUN: dlc-opt %s --dlc-cpu-pad-borders | FileCheck %s
// RUN: dlc-opt %s --dlc-cpu-pad-borders --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: dlc-cpu-pad-borders: borders 0, left 4{{$}}

// Left: a padding of dynamic size, a value that depends on the position, a
// negative padding (a crop), and a `nofold` pad.
// CHECK-LABEL: func @negative_pads
// CHECK-COUNT-4: tensor.pad
// CHECK-NOT: linalg.fill
func.func @negative_pads(%x: tensor<4xf32>, %n: index)
    -> (tensor<?xf32>, tensor<6xf32>, tensor<3xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[%n] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<4xf32> to tensor<?xf32>
  %q = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    tensor.yield %f : f32
  } : tensor<4xf32> to tensor<6xf32>
  %r = tensor.pad %x low[-2] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<4xf32> to tensor<3xf32>
  %s = tensor.pad %x nofold low[0] high[0] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<4xf32> to tensor<4xf32>
  return %p, %q, %r, %s : tensor<?xf32>, tensor<6xf32>, tensor<3xf32>, tensor<4xf32>
}
