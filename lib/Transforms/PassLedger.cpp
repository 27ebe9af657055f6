//===- PassLedger.cpp - what each graph pass did ---------------------------===//
#include "dlc/Transforms/PassLedger.h"

#include <mutex>

using namespace dlc;

static std::mutex ledgerMutex;
static PassCounts &ledger() {
  static PassCounts counts;
  return counts;
}

void dlc::recordPassStat(llvm::StringRef pass, llvm::StringRef counter,
                         int64_t n) {
  std::lock_guard<std::mutex> lock(ledgerMutex);
  ledger()[pass.str()][counter.str()] += n;
}

PassCounts dlc::passStats() {
  std::lock_guard<std::mutex> lock(ledgerMutex);
  return ledger();
}

void dlc::clearPassStats() {
  std::lock_guard<std::mutex> lock(ledgerMutex);
  ledger().clear();
}

void dlc::printPassStats(llvm::raw_ostream &os) {
  for (const auto &[pass, counters] : passStats()) {
    os << pass << ":";
    bool first = true;
    for (const auto &[name, value] : counters) {
      os << (first ? " " : ", ") << name << " " << value;
      first = false;
    }
    os << "\n";
  }
}
