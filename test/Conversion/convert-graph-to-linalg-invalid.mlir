// RUN: dlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(func.func(convert-graph-to-linalg))"

// Non-maximum suppression indexes its candidates in 32 bits: more boxes are
// an error naming the count, not a wrong result.
func.func @nms_too_many_boxes(%b: tensor<1x2147483648x4xf32>, %s: tensor<1x2x2147483648xf32>)
    -> (tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xi64>) {
  // expected-error @below {{'graph.nms' op has 2147483648 boxes: more than an i32 indexes (at most 2147483647)}}
  // expected-error @below {{failed to legalize operation 'graph.nms'}}
  %0:3 = graph.nms %b, %s {max_detections = 2 : i64}
      : (tensor<1x2147483648x4xf32>, tensor<1x2x2147483648xf32>) -> (tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xi64>)
  return %0#0, %0#1, %0#2 : tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xi64>
}
