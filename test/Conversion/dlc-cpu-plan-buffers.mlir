// RUN: dlc-opt %s -split-input-file --dlc-pass-stats \
// RUN:   --pass-pipeline="builtin.module(dlc-cpu-plan-buffers{static-workspace=false})" \
// RUN:   2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: dlc-opt %s -split-input-file --dlc-cpu-plan-buffers | FileCheck %s --check-prefix=STATIC

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
// scf.if. %w alone is planned, into a workspace of its size.
// CHECK-LABEL: func @escapes
// CHECK: %[[WS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK: %[[R:.*]] = memref.alloc() : memref<16xf32>
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: %[[S:.*]] = memref.alloc() : memref<16xf32>
// CHECK: arith.select %{{.*}}, %[[S]]
// CHECK: memref.dealloc %[[S]]
// CHECK-NEXT: %[[W:.*]] = memref.view %[[WS]]
// CHECK-NEXT: call @kernel(%{{.*}}, %[[W]])
// CHECK-NOT: memref.dealloc
// CHECK: %[[Y:.*]] = memref.alloc() : memref<16xf32>
// CHECK: scf.yield %[[Y]]
// CHECK: memref.dealloc %[[WS]]
// CHECK-NEXT: return %[[R]]
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

// A kernel's temporaries share a workspace of their own, which becomes its
// last argument: each call passes a buffer of the caller live for the call
// alone. The two calls' workspaces share bytes (offset 0), and %a, live
// across both calls, lies beside them: 192 B in all.
// CHECK-LABEL: func private @k(
// CHECK-SAME: %[[KWS:[^:]*]]: memref<128xi8>)
// CHECK-NOT: memref.alloc
// CHECK-COUNT-2: memref.view %[[KWS]]
// CHECK-COUNT-3: memref.copy
// CHECK-NEXT: return
// CHECK-LABEL: func @model
// CHECK-DAG: %[[WS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<192xi8>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[A:.*]] = memref.view %[[WS]][%[[C128]]][] : memref<192xi8> to memref<16xf32>
// CHECK: %[[T1:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<192xi8> to memref<128xi8>
// CHECK-NEXT: call @k(%{{.*}}, %[[A]], %[[T1]])
// CHECK-NEXT: %[[T2:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<192xi8> to memref<128xi8>
// CHECK-NEXT: call @k(%[[A]], %{{.*}}, %[[T2]])
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
func.func @model(%x: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  call @k(%x, %a) : (memref<16xf32>, memref<16xf32>) -> ()
  call @k(%a, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// Kernels whose workspace stays theirs: a public one (callers outside the
// module could not pass it), and one called from another kernel.
// CHECK-LABEL: func @public_kernel(%{{[^,]*}}: memref<16xf32>, %{{[^,]*}}: memref<16xf32>)
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK-LABEL: func private @inner(%{{[^,]*}}: memref<16xf32>, %{{[^,]*}}: memref<16xf32>)
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK-LABEL: func private @outer
// CHECK: call @inner(%{{[^,]*}}, %{{[^,]*}}) :
func.func @public_kernel(%x: memref<16xf32>, %out: memref<16xf32>) attributes {dlc.kernel = "test"} {
  %t = memref.alloc() : memref<16xf32>
  memref.copy %x, %t : memref<16xf32> to memref<16xf32>
  memref.copy %t, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %t : memref<16xf32>
  return
}
func.func private @inner(%x: memref<16xf32>, %out: memref<16xf32>) attributes {dlc.kernel = "test"} {
  %t = memref.alloc() : memref<16xf32>
  memref.copy %x, %t : memref<16xf32> to memref<16xf32>
  memref.copy %t, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %t : memref<16xf32>
  return
}
func.func private @outer(%x: memref<16xf32>, %out: memref<16xf32>) attributes {dlc.kernel = "test"} {
  call @inner(%x, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  return
}

// -----

// By default a function's workspace is a global kept between runs. A run
// takes it by setting a flag, atomically, and clears the flag before
// returning; a run that finds the flag set allocates a workspace of its
// own and frees it.
// STATIC: memref.global "private" @static_chain_workspace_taken : memref<1xi32> = dense<0>
// STATIC-NEXT: memref.global "private" @static_chain_workspace : memref<128xi8> = uninitialized {alignment = 64 : i64}
// STATIC-LABEL: func @static_chain
// STATIC-DAG: %[[FLAG:.*]] = memref.get_global @static_chain_workspace_taken : memref<1xi32>
// STATIC-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// STATIC-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// STATIC-DAG: %[[I0:.*]] = arith.constant 0 : index
// STATIC: %[[BEFORE:.*]] = memref.atomic_rmw assign %[[ONE]], %[[FLAG]][%[[I0]]]
// STATIC: %[[OWN:.*]] = arith.cmpi eq, %[[BEFORE]], %[[ZERO]]
// STATIC: %[[WS:.*]] = scf.if %[[OWN]] -> (memref<128xi8>) {
// STATIC-NEXT: %[[G:.*]] = memref.get_global @static_chain_workspace : memref<128xi8>
// STATIC-NEXT: scf.yield %[[G]]
// STATIC-NEXT: } else {
// STATIC-NEXT: %[[FRESH:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// STATIC-NEXT: scf.yield %[[FRESH]]
// STATIC-NOT: memref.alloc
// STATIC-COUNT-4: call @kernel
// STATIC-NEXT: scf.if %[[OWN]] {
// STATIC-NEXT: memref.atomic_rmw assign %[[ZERO]], %[[FLAG]][%[[I0]]]
// STATIC-NEXT: } else {
// STATIC-NEXT: memref.dealloc %[[WS]]
// STATIC-NEXT: }
// STATIC-NEXT: return
func.func private @kernel(memref<16xf32>, memref<16xf32>)
func.func @static_chain(%x: memref<16xf32>, %out: memref<16xf32>) {
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

// The globals' names do not collide with symbols already there, and a
// workspace over 1 GiB (beyond what code reaches in a global) is allocated
// by each run.
// STATIC: memref.global "private" @named_workspace_taken
// STATIC: memref.global "private" @[[NAME:named_workspace_[0-9]+]] : memref<64xi8>
// STATIC-LABEL: func @named
// STATIC: memref.get_global @[[NAME]] : memref<64xi8>
// STATIC-LABEL: func @huge
// STATIC-NOT: memref.get_global
// STATIC: memref.alloc() {alignment = 64 : i64} : memref<1200000000xi8>
// STATIC-NOT: memref.get_global
// STATIC: return
func.func private @kernel(memref<16xf32>, memref<16xf32>)
memref.global "private" @named_workspace : memref<4xi8> = uninitialized
func.func @named(%x: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  call @kernel(%x, %a) : (memref<16xf32>, memref<16xf32>) -> ()
  call @kernel(%a, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}
func.func private @big(memref<300000000xf32>)
func.func @huge() {
  %a = memref.alloc() : memref<300000000xf32>
  call @big(%a) : (memref<300000000xf32>) -> ()
  memref.dealloc %a : memref<300000000xf32>
  return
}

// STATS: dlc-cpu-plan-buffers: buffer-bytes 1200001024, hoisted 1, kernel-workspaces 3, planned 19, static 0, workspace-bytes 1200000704
