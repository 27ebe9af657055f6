//===- Fingerprint.h - structural fingerprints of ops -----------*- C++ -*-===//
//
// The one identity of a piece of computation: two ops (kernels, functions,
// regions) with the same fingerprint compute the same thing on the same
// types. Kernel deduplication, the compile cache, the pass ledger and the
// tuning database key on it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_ANALYSIS_FINGERPRINT_H
#define DLC_ANALYSIS_FINGERPRINT_H

#include "mlir/IR/Operation.h"

#include <string>

namespace dlc {

/// SHA-256 (hex) of `op`'s structure: op names, operand and result types,
/// attributes, regions and the dataflow between the ops, with the payloads
/// of constants written in the IR (dense and dense_resource alike: they are
/// part of the computation). Locations, and a function's symbol name and
/// visibility, are not part of it. Stable across processes and machines.
/// Without `withWeights`, constants of more than 16 elements count by
/// their type only (the pass ledger's "structure only": two graphs that
/// differ only in their weights' values are the same).
std::string structuralFingerprint(mlir::Operation *op, bool withWeights = true);

/// The fingerprint of a whole module (`root`), made of its top-level ops'
/// (printing the module itself would print every weight's bytes): the pass
/// ledger's and the tuning database's identity of a model.
std::string moduleFingerprint(mlir::Operation *root, bool withWeights);

} // namespace dlc

#endif // DLC_ANALYSIS_FINGERPRINT_H
