//===- PassLedger.cpp - what each graph pass did ---------------------------===//
#include "dlc/Transforms/PassLedger.h"
#include "dlc/Analysis/Fingerprint.h"
#include "dlc/Analysis/OpStats.h"
#include "dlc/Transforms/PassRegistry.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <chrono>
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

//===----------------------------------------------------------------------===//
// The ledger of passes run
//===----------------------------------------------------------------------===//

/// The top-level op `op` is nested in (the module).
static mlir::Operation *rootOf(mlir::Operation *op) {
  while (mlir::Operation *parent = op->getParentOp())
    op = parent;
  return op;
}

namespace dlc {
/// Fingerprints and counts the module before each pass and again after it.
class LedgerInstrumentation : public mlir::PassInstrumentation {
public:
  explicit LedgerInstrumentation(PassLedger &ledger) : ledger(ledger) {}

  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    if (pass->getArgument().empty()) // pass-manager adaptors
      return;
    std::lock_guard<std::mutex> lock(mutex);
    LedgerEntry e;
    e.pass = pass->getArgument().str();
    if (const CatalogueEntry *c = lookupPass(e.pass))
      e.tvmName = c->tvmName.str();
    auto symbol = op->getAttrOfType<mlir::StringAttr>(mlir::SymbolTable::getSymbolAttrName());
    e.anchor = symbol ? "@" + symbol.getValue().str() : op->getName().getStringRef().str();
    e.depth = open.size();
    mlir::Operation *root = rootOf(op);
    e.opsBefore = collectOpStats(root).ops;
    e.structureBefore = moduleFingerprint(root, /*withWeights=*/false);
    e.weightsBefore = moduleFingerprint(root, /*withWeights=*/true);
    open.push_back({std::move(e), std::chrono::steady_clock::now()});
  }

  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override { finish(pass, op); }
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override { finish(pass, op); }

private:
  void finish(mlir::Pass *pass, mlir::Operation *op) {
    if (pass->getArgument().empty())
      return;
    std::lock_guard<std::mutex> lock(mutex);
    auto [e, start] = std::move(open.back());
    open.pop_back();
    e.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
               .count();
    mlir::Operation *root = rootOf(op);
    e.opsAfter = collectOpStats(root).ops;
    e.structureAfter = moduleFingerprint(root, /*withWeights=*/false);
    e.weightsAfter = moduleFingerprint(root, /*withWeights=*/true);
    e.changed = e.weightsAfter != e.weightsBefore;
    ledger.log.push_back(std::move(e));
  }

  PassLedger &ledger;
  std::mutex mutex;
  std::vector<std::pair<LedgerEntry, std::chrono::steady_clock::time_point>> open;
};
} // namespace dlc

void PassLedger::attach(mlir::PassManager &pm) {
  // One function at a time: the instrumentation keeps a stack of open passes.
  pm.getContext()->disableMultithreading();
  pm.addInstrumentation(std::make_unique<LedgerInstrumentation>(*this));
}

/// The runs that changed nothing, "FoldConstant (run 9)" when the pass ran
/// more than once.
static std::vector<std::string> unchangedPasses(const std::vector<LedgerEntry> &log) {
  std::vector<std::string> names;
  for (auto [i, e] : llvm::enumerate(log)) {
    std::string name = e.tvmName.empty() ? e.pass : e.tvmName;
    int64_t runs = llvm::count_if(log, [&](const LedgerEntry &o) { return o.pass == e.pass; });
    if (!e.changed)
      names.push_back(runs > 1 ? name + " (run " + std::to_string(i + 1) + ")" : name);
  }
  return names;
}

llvm::Error PassLedger::write(llvm::StringRef path) const {
  llvm::json::Array passes;
  for (const LedgerEntry &e : log)
    passes.push_back(llvm::json::Object{
        {"pass", e.pass},
        {"tvm_name", e.tvmName},
        {"on", e.anchor},
        {"depth", e.depth},
        {"ms", e.ms},
        {"changed", e.changed},
        {"ops_before", e.opsBefore},
        {"ops_after", e.opsAfter},
        {"fingerprint_before", llvm::json::Object{{"structure", e.structureBefore},
                                                  {"with_weights", e.weightsBefore}}},
        {"fingerprint_after", llvm::json::Object{{"structure", e.structureAfter},
                                                 {"with_weights", e.weightsAfter}}}});
  llvm::json::Object root{{"passes", std::move(passes)},
                          {"unchanged", llvm::json::Array(unchangedPasses(log))}};
  // The IR the sequence ended at: two sequences that end at equal
  // fingerprints are equivalent.
  if (!log.empty())
    root["final"] = llvm::json::Object{{"structure", log.back().structureAfter},
                                       {"with_weights", log.back().weightsAfter},
                                       {"ops", log.back().opsAfter}};
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError(path.str() + ": cannot write the pass ledger: " + ec.message());
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return llvm::Error::success();
}

void PassLedger::printSummary(llvm::raw_ostream &os) const {
  std::vector<std::string> unchanged = unchangedPasses(log);
  double ms = 0;
  for (const LedgerEntry &e : log)
    ms += e.depth == 0 ? e.ms : 0;
  os << "pass ledger: " << log.size() << " passes run in " << llvm::format("%.1f", ms)
     << " ms; " << unchanged.size() << " changed nothing"
     << (unchanged.empty() ? "" : ": " + llvm::join(unchanged, ", ")) << "\n";
}
