//===- TunedPipeline.cpp - replay the sequence dlc-tune found best ---------===//
#include "dlc/Analysis/Fingerprint.h"
#include "dlc/Runtime/Bench.h"
#include "dlc/Transforms/PassLedger.h"
#include "dlc/Transforms/Passes.h"
#include "dlc/Transforms/Pipelines.h"
#include "dlc/Transforms/TuningDatabase.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

#include <set>

namespace dlc {
#define GEN_PASS_DEF_TUNEDPIPELINEPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct TunedPipelinePass : dlc::impl::TunedPipelinePassBase<TunedPipelinePass> {
  using TunedPipelinePassBase::TunedPipelinePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto fail = [&](const llvm::Twine &why) {
      module.emitError() << "graph-tuned-pipeline: " << why;
      signalPassFailure();
    };
    if (db.empty())
      return fail("db= (the tuning database dlc-tune wrote) is required");
    if (!mixed.empty() && !isMixedPrecisionType(mixed))
      return fail("mixed=" + mixed + ": expected f16 or bf16");
    std::string precision = mixed.empty() ? std::string("f32") : mixed.getValue();
    llvm::Expected<std::vector<TuningRecord>> records = readTuningDatabase(db);
    if (!records)
      return fail(llvm::toString(records.takeError()));
    std::string structure = moduleFingerprint(module, /*withWeights=*/false);
    std::string host = currentProvenance().hostCpu;
    const TuningRecord *record = findTunedRecord(*records, structure, host, precision);
    if (!record) {
      // The model tuned in another precision: say how to replay that (f32
      // where it can, giving up no precision).
      std::set<std::string> others;
      for (const TuningRecord &r : *records)
        if (r.kind == "best" && r.structure == structure && r.status == "ok")
          others.insert(r.precision);
      if (!others.empty()) {
        std::string replay = others.count("f32")
                                 ? "tuned:" + db
                                 : "'tuned:" + db + ";mixed=" + *others.begin() + "'";
        return fail(db + " has no tuned sequence for this model in " + precision + ", only in " +
                    llvm::join(others, " and ") + ": replay one with " + replay +
                    ", or run dlc-tune" + (mixed.empty() ? "" : " --mixed=" + mixed) + " on it");
      }
      llvm::StringSet<> models;
      for (const TuningRecord &r : *records)
        models.insert(r.structure);
      return fail(db + " has no tuned sequence for this model (structure fingerprint " +
                  structure.substr(0, 16) + "; the file holds " +
                  std::to_string(records->size()) + " records of " +
                  std::to_string(models.size()) + " other model" +
                  (models.size() == 1 ? "" : "s") + "): run dlc-tune on it first, or use auto");
    }
    if (explain) {
      llvm::raw_ostream &os = llvm::errs();
      os << "tuned: " << db << ", record of " << record->date << " (" << record->strategy
         << " candidate " << record->index << ", dlc " << record->dlcVersion << ")"
         << (record->hostCpu == host ? "" : ", measured on another CPU (" + record->hostCpu + ")")
         << "\n";
      os << llvm::format("tuned: latency %.3fx O3 [%.3f, %.3f] over %lld rounds, compile time "
                         "%.3fx O3, objective %s\n",
                         record->latencyRatio, record->latencyLow, record->latencyHigh,
                         static_cast<long long>(record->rounds), record->compileRatio,
                         record->objective.c_str());
      os << "tuned: " << record->spec() << "\n";
    }
    recordPassStat(getArgument(), "passes-replayed", record->sequence.size());
    OpPassManager pm("builtin.module");
    if (llvm::Error e = buildPipeline(record->spec(), pm))
      return fail(db + ": the recorded sequence does not run in this dlc: " +
                  llvm::toString(std::move(e)));
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
    if (!record->irAfter.empty() &&
        moduleFingerprint(module, /*withWeights=*/false) != record->irAfter)
      module.emitWarning() << "graph-tuned-pipeline: the sequence from " << db
                           << " now ends at another graph than when it was tuned (with dlc "
                           << record->dlcVersion << "): its figures may no longer hold; "
                           << "run dlc-tune again";
  }
};
} // namespace
