//===- PassLedger.h - what each graph pass did ------------------*- C++ -*-===//
//
// Graph passes count their rewrites here, so a pipeline (and its user) can
// tell a dormant pass from an active one. (MLIR's own pass statistics compile
// to no-ops in LLVM builds without LLVM_ENABLE_STATS, such as Debian's.)
// Counters accumulate per process, keyed by pass flag, thread-safely.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TRANSFORMS_PASSLEDGER_H
#define DLC_TRANSFORMS_PASSLEDGER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>

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

} // namespace dlc

#endif // DLC_TRANSFORMS_PASSLEDGER_H
