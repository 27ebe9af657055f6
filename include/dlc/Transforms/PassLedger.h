//===- PassLedger.h - what each graph pass did ------------------*- C++ -*-===//
//
// Graph passes count their rewrites here, so a pipeline (and its user) can
// tell a dormant pass from an active one. (MLIR's own pass statistics compile
// to no-ops in LLVM builds without LLVM_ENABLE_STATS, such as Debian's.)
// Counters accumulate per process, keyed by pass flag, thread-safely.
//
// PassLedger records every pass a pass manager runs (`--dlc-pass-ledger`):
// its wall time, the op counts and IR fingerprints (structure only, and
// structure with weights) before and after, and whether it changed the IR.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TRANSFORMS_PASSLEDGER_H
#define DLC_TRANSFORMS_PASSLEDGER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir {
class PassManager;
} // namespace mlir

namespace dlc {

/// pass flag -> counter name -> value; a pass that ran appears even when all
/// its counters are 0.
using PassCounts = std::map<std::string, std::map<std::string, int64_t>>;

/// Adds `n` to `counter` of `pass`.
void recordPassStat(llvm::StringRef pass, llvm::StringRef counter, int64_t n);
/// A snapshot of every counter so far.
PassCounts passStats();
void clearPassStats();
/// "graph-fold-constant: folded 12, skipped-large 0" per line.
void printPassStats(llvm::raw_ostream &os);

struct LedgerEntry {
  std::string pass;      ///< the pass's flag (its TVM name when it has one)
  std::string tvmName;   ///< "" for passes outside the catalogue
  std::string anchor;    ///< what it ran on: "module" or "@function"
  int depth = 0;         ///< passes a dynamic pipeline (auto) ran are nested
  double ms = 0;
  bool changed = false;
  /// Of the whole module, whatever the pass ran on.
  int64_t opsBefore = 0, opsAfter = 0;
  std::string structureBefore, structureAfter; ///< weights excluded
  std::string weightsBefore, weightsAfter;     ///< weights included
};

/// Records the passes of the pass managers it is attached to.
class PassLedger {
public:
  /// Adds an instrumentation to `pm` that records into this ledger (which
  /// must outlive the runs), and disables multithreading on `pm`'s context
  /// (the ledger follows one pass at a time): a context other threads are
  /// using at the same time must not be given a ledger.
  void attach(mlir::PassManager &pm);

  const std::vector<LedgerEntry> &entries() const { return log; }

  /// Writes the JSON ledger: every entry, the passes that changed nothing
  /// and the final fingerprints.
  llvm::Error write(llvm::StringRef path) const;
  /// "pass ledger: 12 passes, 4 changed nothing: A, B, C, D".
  void printSummary(llvm::raw_ostream &os) const;

private:
  friend class LedgerInstrumentation;
  std::vector<LedgerEntry> log;
};

} // namespace dlc

#endif // DLC_TRANSFORMS_PASSLEDGER_H
