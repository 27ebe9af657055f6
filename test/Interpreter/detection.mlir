// graph.nms: greedy per-class suppression, then the best detections overall.
// RUN: dlc-run %s --print-output | FileCheck %s

// Class 1 scores boxes 0, 1, 2 with 0.9, 0.8, 0.3: box 1 overlaps box 0 with
// IoU 0.9 and is dropped. Class 2 keeps box 1 (0.95); its other scores are
// under the 0.05 threshold. Class 0 is the background. Ranked: (box 1, class
// 2, 0.95), (box 0, class 1, 0.9), (box 2, class 1, 0.3), then an empty slot.
// CHECK: output 0: f32[1x4x4] = {{\[\[\[}}0, 0, 1, 0.9], [0, 0, 1, 1], [2, 2, 3, 3], [0, 0, 0, 0]]]
// CHECK: output 1: f32[1x4] = {{\[\[}}0.95, 0.9, 0.3, 0]]
// CHECK: output 2: i64[1x4] = {{\[\[}}2, 1, 1, -1]]
func.func @main() -> (tensor<1x4x4xf32>, tensor<1x4xf32>, tensor<1x4xi64>) {
  %boxes = graph.constant dense<[[[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.9], [2.0, 2.0, 3.0, 3.0]]]> : tensor<1x3x4xf32>
  %scores = graph.constant dense<[[[0.99, 0.99, 0.99], [0.9, 0.8, 0.3], [0.01, 0.95, 0.02]]]> : tensor<1x3x3xf32>
  %0:3 = graph.nms %boxes, %scores {max_detections = 4 : i64}
     : (tensor<1x3x4xf32>, tensor<1x3x3xf32>) -> (tensor<1x4x4xf32>, tensor<1x4xf32>, tensor<1x4xi64>)
  return %0#0, %0#1, %0#2 : tensor<1x4x4xf32>, tensor<1x4xf32>, tensor<1x4xi64>
}
