// RUN: dlc-opt %s -split-input-file --dlc-pass-stats \
// RUN:   --pass-pipeline="builtin.module(func.func(dlc-cpu-plan-buffers))" \
// RUN:   2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats

// A chain: each kernel reads the buffer before it and writes the next.
// %a (64 B) and %b (64 B) are live together at the second call, %b and %c
// at the third, so %c reuses %a's bytes: a workspace of 128 B, one
// allocation, freed before the return, and no other deallocation.
// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[X:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK-DAG: %[[WS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[A:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<128xi8> to memref<16xf32>
// CHECK-NEXT: call @kernel(%[[X]], %[[A]])
// CHECK: %[[B:.*]] = memref.view %[[WS]][%[[C64]]][] : memref<128xi8> to memref<16xf32>
// CHECK-NEXT: call @kernel(%[[A]], %[[B]])
// CHECK: %[[C:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<128xi8> to memref<16xf32>
// CHECK-NEXT: call @kernel(%[[B]], %[[C]])
// CHECK-NEXT: call @kernel(%[[C]], %[[OUT]])
// CHECK-NEXT: memref.dealloc %[[WS]] : memref<128xi8>
// CHECK-NEXT: return
func.func private @kernel(memref<16xf32>, memref<16xf32>)
func.func @chain(%x: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  call @kernel(%x, %a) : (memref<16xf32>, memref<16xf32>) -> ()
  %b = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  call @kernel(%a, %b) : (memref<16xf32>, memref<16xf32>) -> ()
  %c = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  call @kernel(%b, %c) : (memref<16xf32>, memref<16xf32>) -> ()
  call @kernel(%c, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  return
}

// -----

// A residual: %a is read again by the last kernel, so it stays live across
// %b and %c, which share bytes with each other but not with %a. Uses
// through views (a collapse_shape) and from inside a loop count; the
// allocations all at the top do not make the buffers live there. Offsets
// keep each buffer's alignment, and the workspace the largest, 128.
// CHECK-LABEL: func @residual
// CHECK: %[[WS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<128xi8>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[A:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<128xi8> to memref<4x4xf32>
// CHECK-DAG: %[[B:.*]] = memref.view %[[WS]][%[[C64]]][] : memref<128xi8> to memref<16xf32>
// CHECK-DAG: %[[C:.*]] = memref.view %[[WS]][%[[C64]]][] : memref<128xi8> to memref<16xf32>
// CHECK-NOT: memref.dealloc %[[A]]
// CHECK: memref.dealloc %[[WS]]
func.func private @kernel(memref<16xf32>, memref<16xf32>)
func.func private @kernel2(memref<16xf32>, memref<16xf32>, memref<16xf32>)
func.func @residual(%x: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() {alignment = 128 : i64} : memref<4x4xf32>
  %b = memref.alloc() : memref<16xf32>
  %c = memref.alloc() : memref<16xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  call @kernel(%x, %flat) : (memref<16xf32>, memref<16xf32>) -> ()
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    func.call @kernel(%flat, %b) : (memref<16xf32>, memref<16xf32>) -> ()
  }
  call @kernel(%x, %c) : (memref<16xf32>, memref<16xf32>) -> ()
  call @kernel2(%flat, %c, %out) : (memref<16xf32>, memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %a : memref<4x4xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  return
}

// -----

// What stays: a returned buffer, a dynamic one, one that reaches an op
// producing a memref that is not a view (a select), one yielded out of an
// scf.if, and then fewer than two buffers to plan (%w alone): the function
// is unchanged.
// CHECK-LABEL: func @escapes
// CHECK-NOT: memref.view
// CHECK-COUNT-5: memref.alloc
// CHECK-NOT: memref.alloc
// CHECK: return
func.func private @kernel(memref<16xf32>, memref<16xf32>)
func.func @escapes(%x: memref<16xf32>, %n: index, %p: i1) -> memref<16xf32> {
  %r = memref.alloc() : memref<16xf32>
  call @kernel(%x, %r) : (memref<16xf32>, memref<16xf32>) -> ()
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  %s = memref.alloc() : memref<16xf32>
  %t = arith.select %p, %s, %x : memref<16xf32>
  call @kernel(%t, %x) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %s : memref<16xf32>
  %w = memref.alloc() : memref<16xf32>
  call @kernel(%x, %w) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %w : memref<16xf32>
  %y = memref.alloc() : memref<16xf32>
  %z = scf.if %p -> memref<16xf32> {
    scf.yield %y : memref<16xf32>
  } else {
    scf.yield %x : memref<16xf32>
  }
  call @kernel(%z, %x) : (memref<16xf32>, memref<16xf32>) -> ()
  return %r : memref<16xf32>
}

// -----

// A kernel's temporaries share a workspace of their own; the bytes counted
// are the model functions' only.
// CHECK-LABEL: func private @k
// CHECK: %[[WS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-COUNT-2: memref.view %[[WS]]
// CHECK-COUNT-3: memref.copy
// CHECK-NEXT: memref.dealloc %[[WS]]
// CHECK-NEXT: return
func.func private @k(%x: memref<16xf32>, %out: memref<16xf32>) attributes {dlc.kernel = "test"} {
  %t1 = memref.alloc() : memref<16xf32>
  %t2 = memref.alloc() : memref<16xf32>
  memref.copy %x, %t1 : memref<16xf32> to memref<16xf32>
  memref.copy %t1, %t2 : memref<16xf32> to memref<16xf32>
  memref.copy %t2, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %t1 : memref<16xf32>
  memref.dealloc %t2 : memref<16xf32>
  return
}

// STATS: dlc-cpu-plan-buffers: buffer-bytes 384, kernel-workspaces 1, planned 8, workspace-bytes 256
