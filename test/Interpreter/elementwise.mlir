// Elementwise ops and numpy broadcasting on the reference interpreter.
// RUN: dlc-run %s --entry=unary --print-output | FileCheck %s --check-prefix=UNARY
// RUN: dlc-run %s --entry=activations --print-output | FileCheck %s --check-prefix=ACT
// RUN: dlc-run %s --entry=broadcast --print-output | FileCheck %s --check-prefix=BCAST
// RUN: dlc-run %s --entry=integers --print-output | FileCheck %s --check-prefix=INT
// RUN: not dlc-run %s --entry=int_div_zero 2>&1 | FileCheck %s --check-prefix=DIVZERO
// RUN: dlc-run %s --entry=compare_select --print-output | FileCheck %s --check-prefix=CMP
// RUN: dlc-run %s --entry=math --print-output | FileCheck %s --check-prefix=MATH
// RUN: dlc-run %s --entry=math --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=MATH
// RUN: dlc-run %s --entry=rounding --print-output | FileCheck %s --check-prefix=ROUND
// RUN: dlc-run %s --entry=rounding --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=ROUND
// RUN: dlc-run %s --entry=compare_select --target=cpu --pipeline=none --print-output | FileCheck %s --check-prefix=CMP

// UNARY: output 0: f32[3] = [0, 0, 2]
// UNARY: output 1: f32[3] = [1, 0, 2]
// UNARY: output 2: f32[3] = [0, 3, 6]
// UNARY: output 3: f32[3] = [2, 0.5, -0]
// UNARY: output 4: f32[3] = [1, 0, 0.5]
// UNARY: output 5: f32[3] = [-1, 0, 2]
func.func @unary() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %x = graph.constant dense<[-1.0, 0.0, 2.0]> : tensor<3xf32>
  %relu = graph.relu %x : tensor<3xf32>
  %abs = graph.abs %x : tensor<3xf32>
  %c = graph.constant dense<[-1.0, 3.0, 7.0]> : tensor<3xf32>
  %clip = graph.clip %c {min = 0.0 : f64, max = 6.0 : f64} : tensor<3xf32>
  %four = graph.constant dense<[4.0, 4.0, 0.0]> : tensor<3xf32>
  %sqrt = graph.sqrt %four : tensor<3xf32>
  %rsqrt = graph.rsqrt %four : tensor<3xf32>
  %m = graph.constant dense<[0.0, 1.0, 4.0]> : tensor<3xf32>
  %exp = graph.exp %m : tensor<3xf32>
  %log = graph.log %m : tensor<3xf32>
  %r = graph.rsqrt %m : tensor<3xf32>
  %e0 = graph.slice %exp {starts = array<i64: 0>, ends = array<i64: 1>, steps = array<i64: 1>} : (tensor<3xf32>) -> tensor<1xf32>
  %l1 = graph.slice %log {starts = array<i64: 1>, ends = array<i64: 2>, steps = array<i64: 1>} : (tensor<3xf32>) -> tensor<1xf32>
  %r2 = graph.slice %r {starts = array<i64: 2>, ends = array<i64: 3>, steps = array<i64: 1>} : (tensor<3xf32>) -> tensor<1xf32>
  %mix = graph.concat %e0, %l1, %r2 {axis = 0 : i64} : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
  %s0 = graph.slice %sqrt {starts = array<i64: 0>, ends = array<i64: 1>, steps = array<i64: 1>} : (tensor<3xf32>) -> tensor<1xf32>
  %q1 = graph.slice %rsqrt {starts = array<i64: 1>, ends = array<i64: 2>, steps = array<i64: 1>} : (tensor<3xf32>) -> tensor<1xf32>
  %negz = graph.neg %four : tensor<3xf32>
  %n2 = graph.slice %negz {starts = array<i64: 2>, ends = array<i64: 3>, steps = array<i64: 1>} : (tensor<3xf32>) -> tensor<1xf32>
  %roots = graph.concat %s0, %q1, %n2 {axis = 0 : i64} : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
  %drop = graph.dropout %x {rate = 0.5 : f64} : tensor<3xf32>
  return %relu, %abs, %clip, %roots, %mix, %drop : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// sigmoid(0) = 0.5, tanh(1) = 0.761594, erf(1) = 0.842701,
// gelu(1) = 0.841345 exactly and 0.841192 with the tanh approximation.
// ACT: output 0: f32[5] = [0.5, 0.761594, 0.842701, 0.841345, 0.841192]
func.func @activations() -> tensor<5xf32> {
  %z = graph.constant dense<0.0> : tensor<1xf32>
  %o = graph.constant dense<1.0> : tensor<1xf32>
  %0 = graph.sigmoid %z : tensor<1xf32>
  %1 = graph.tanh %o : tensor<1xf32>
  %2 = graph.erf %o : tensor<1xf32>
  %3 = graph.gelu %o : tensor<1xf32>
  %4 = graph.gelu %o {approximate = "tanh"} : tensor<1xf32>
  %r = graph.concat %0, %1, %2, %3, %4 {axis = 0 : i64}
     : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// BCAST: output 0: f32[2x3] = {{\[\[}}11, 22, 33], [14, 25, 36]]
// BCAST: output 1: f32[2x3] = {{\[\[}}1, 2, 3], [2, 4, 6]]
// BCAST: output 2: f32[2x3] = {{\[\[}}0, 1, 2], [3, 4, 5]]
// BCAST: output 3: f32[2x3] = {{\[\[}}0.0909091, 0.0909091, 0.0909091], [0.285714, 0.2, 0.166667]]
// BCAST: output 4: f32[2x3] = {{\[\[}}1, 2, 3], [16, 25, 36]]
// BCAST: output 5: f32[2x3] = {{\[\[}}2, 2, 3], [4, 5, 6]]
// BCAST: output 6: f32[2x3] = {{\[\[}}1, 2, 2], [2, 2, 2]]
func.func @broadcast() -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %a = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %row = graph.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %col = graph.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %r13 = graph.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %two = graph.constant dense<2.0> : tensor<f32>
  %0 = graph.add %a, %row : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.mul %col, %r13 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %2 = graph.sub %a, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = graph.div %a, %0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = graph.pow %a, %col : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %5 = graph.maximum %a, %two : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %6 = graph.minimum %two, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// i8 wraps on overflow (100 + 100 = -56); integer division truncates.
// INT: output 0: i8[2] = [-56, 0]
// INT: output 1: i32[2] = [3, -3]
// INT: output 2: i32[2] = [7, 7]
func.func @integers() -> (tensor<2xi8>, tensor<2xi32>, tensor<2xi32>) {
  %a = graph.constant dense<[100, -1]> : tensor<2xi8>
  %b = graph.constant dense<[100, 1]> : tensor<2xi8>
  %0 = graph.add %a, %b : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  %n = graph.constant dense<[7, -7]> : tensor<2xi32>
  %d = graph.constant dense<2> : tensor<i32>
  %1 = graph.div %n, %d : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  %2 = graph.abs %n : tensor<2xi32>
  return %0, %1, %2 : tensor<2xi8>, tensor<2xi32>, tensor<2xi32>
}

func.func @int_div_zero() -> tensor<2xi32> {
  %n = graph.constant dense<[7, -7]> : tensor<2xi32>
  %d = graph.constant dense<[1, 0]> : tensor<2xi32>
  // DIVZERO: elementwise.mlir:[[@LINE+1]]:8: error: div: integer division by zero
  %0 = graph.div %n, %d : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// Comparisons (NaN unequal to everything, ordered with nothing) and select,
// broadcasting; the same on the reference and compiled for the CPU.
// CMP: output 0: i1[4] = [1, 0, 0, 0]
// CMP: output 1: i1[4] = [0, 1, 1, 1]
// CMP: output 2: i1[4] = [0, 0, 1, 0]
// CMP: output 3: i1[4] = [1, 1, 0, 1]
// CMP: output 4: i1[4] = [0, 0, 0, 0]
// CMP: output 5: i1[4] = [1, 0, 0, 0]
// CMP: output 6: f32[2x4] = {{\[}}[1, 2, 3, 4], [9, 9, 9, 9]]
func.func @compare_select() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2x4xf32>) {
  %x = graph.constant dense<[1.0, 2.0, 3.0, 0x7FC00000]> : tensor<4xf32>
  %t = graph.constant dense<1.0> : tensor<f32>
  %eq = graph.compare "eq", %x, %t : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %ne = graph.compare "ne", %x, %t : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %two = graph.constant dense<2.0> : tensor<f32>
  %gt = graph.compare "gt", %x, %two : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %le = graph.compare "le", %x, %t : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %lt = graph.compare "lt", %x, %t : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %bools = graph.constant dense<[true, false, true, false]> : tensor<4xi1>
  %beq = graph.compare "eq", %bools, %eq : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %c = graph.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %nine = graph.constant dense<9.0> : tensor<f32>
  %v = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %sel = graph.select %c, %v, %nine : (tensor<2x1xi1>, tensor<4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %eq, %ne, %gt, %beq, %lt, %le, %sel : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2x4xf32>
}

// Trigonometric and hyperbolic functions and their inverses at 0.5 (acosh
// at 1.5), to the six digits printed.
// MATH: output 0: f32[6] = [0.479426, 0.877583, 0.546302, 0.523599, 1.0472, 0.463648]
// MATH: output 1: f32[5] = [0.521095, 1.12763, 0.481212, 0.962424, 0.549306]
// MATH: output 2: f64[2] = [0.479426, 0.877583]
func.func @math() -> (tensor<6xf32>, tensor<5xf32>, tensor<2xf64>) {
  %x = graph.constant dense<0.5> : tensor<1xf32>
  %sin = graph.sin %x : tensor<1xf32>
  %cos = graph.cos %x : tensor<1xf32>
  %tan = graph.tan %x : tensor<1xf32>
  %asin = graph.asin %x : tensor<1xf32>
  %acos = graph.acos %x : tensor<1xf32>
  %atan = graph.atan %x : tensor<1xf32>
  %trig = graph.concat %sin, %cos, %tan, %asin, %acos, %atan {axis = 0 : i64} : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6xf32>
  %y = graph.constant dense<1.5> : tensor<1xf32>
  %sinh = graph.sinh %x : tensor<1xf32>
  %cosh = graph.cosh %x : tensor<1xf32>
  %asinh = graph.asinh %x : tensor<1xf32>
  %acosh = graph.acosh %y : tensor<1xf32>
  %atanh = graph.atanh %x : tensor<1xf32>
  %hyp = graph.concat %sinh, %cosh, %asinh, %acosh, %atanh {axis = 0 : i64} : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<5xf32>
  %d = graph.constant dense<0.5> : tensor<1xf64>
  %dsin = graph.sin %d : tensor<1xf64>
  %dcos = graph.cos %d : tensor<1xf64>
  %wide = graph.concat %dsin, %dcos {axis = 0 : i64} : (tensor<1xf64>, tensor<1xf64>) -> tensor<2xf64>
  return %trig, %hyp, %wide : tensor<6xf32>, tensor<5xf32>, tensor<2xf64>
}

// Floor, ceil, and round with halves to the even neighbour.
// ROUND: output 0: f32[6] = [-3, -2, -1, 0, 1, 2]
// ROUND: output 1: f32[6] = [-2, -1, -0, 1, 2, 3]
// ROUND: output 2: f32[6] = [-2, -2, -0, 0, 2, 2]
func.func @rounding() -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %x = graph.constant dense<[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5]> : tensor<6xf32>
  %f = graph.floor %x : tensor<6xf32>
  %c = graph.ceil %x : tensor<6xf32>
  %r = graph.round %x : tensor<6xf32>
  return %f, %c, %r : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}
