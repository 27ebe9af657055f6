//===- Tuner.cpp - one tuning run: the space, candidates, records ----------===//
#include "Session.h"

#include "dlc/Analysis/Classifier.h"
#include "dlc/Analysis/Fingerprint.h"
#include "dlc/Driver/CPUCompiler.h"
#include "dlc/Driver/TemporaryPayloads.h"
#include "dlc/Runtime/Bench.h"
#include "dlc/Runtime/OutputCheck.h"
#include "dlc/Runtime/SideBySide.h"
#include "dlc/Transforms/AutoPipeline.h"
#include "dlc/Transforms/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace mlir;
using namespace dlc;

//===----------------------------------------------------------------------===//
// Space sizes per class
//===----------------------------------------------------------------------===//

static std::string sci(double x) { return llvm::formatv("{0:e1}", x).str(); }

llvm::Error dlc::printClassSpaces(llvm::StringRef rulesPath, int64_t maxLength,
                                  llvm::raw_ostream &os) {
  llvm::Expected<ClassRules> rules = loadClassRules(rulesPath);
  if (!rules)
    return rules.takeError();
  SpaceSize full = spaceSize(passCatalogue().size(), maxLength);
  os << "catalogue: " << full.passes << " passes, " << sci(full.sequences)
     << " sequences of up to " << maxLength << " passes\n";
  std::vector<std::pair<std::string, std::string>> classes = {{"general", ""}};
  for (const ArchClass &c : rules->classes)
    classes.push_back({c.name, c.tag});
  for (const auto &[name, tag] : classes) {
    std::vector<std::string> tags;
    if (!tag.empty())
      tags.push_back(tag);
    PassSpace space = classPassSpace(tags);
    // The passes that run last end every sequence: they are not searched.
    int64_t searched = llvm::count_if(space.passes, [](const std::string &p) {
      return !lookupPass(p)->last;
    });
    SpaceSize pruned = spaceSize(searched, maxLength);
    os << llvm::formatv("{0,-10} {1,-4} {2,2} passes ({3:f1}% of the catalogue), {4} sequences "
                        "({5} of the catalogue's): {6}\n",
                        name, tag.empty() ? "-" : tag, searched,
                        100.0 * searched / full.passes, sci(pruned.sequences),
                        sci(pruned.sequences / full.sequences), llvm::join(space.passes, " "));
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// The session
//===----------------------------------------------------------------------===//

namespace {
/// Collects the errors diagnosed while it lives instead of printing them: a
/// candidate that fails is a result, not the end of the run.
class ErrorCollector {
public:
  explicit ErrorCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &d) {
          if (d.getSeverity() == DiagnosticSeverity::Error)
            errors += (errors.empty() ? "" : "; ") + d.str();
          return success();
        }) {}
  std::string errors;

private:
  ScopedDiagnosticHandler handler;
};
} // namespace

/// The latency figures of a side-by-side measurement (A: the record's).
static void setLatency(TuningRecord &r, const SideBySide &side) {
  LatencyStats stats = computeStats(side.samplesA);
  r.p50Ms = stats.p50;
  r.cv = stats.cv;
  r.samples = stats.count;
  r.latencyRatio = side.ratio.median;
  r.latencyLow = side.ratio.low;
  r.latencyHigh = side.ratio.high;
  r.rounds = side.ratio.n;
}

Session::Session(ModuleOp model, llvm::StringRef entry, llvm::ArrayRef<Tensor> inputs,
                 const TuneOptions &options, const std::atomic<bool> *stop,
                 llvm::raw_ostream &progress)
    : input(model), entry(entry.str()), inputs(inputs), options(options), stop(stop),
      progress(progress), started(std::chrono::steady_clock::now()),
      searchStarted(started) {}

bool Session::exhausted() const {
  if (interrupted())
    return true;
  if (options.budgetCandidates > 0 && summary.measured >= options.budgetCandidates)
    return true;
  return options.budgetSeconds > 0 && msSince(searchStarted) >= options.budgetSeconds * 1000;
}

std::vector<std::string> Session::complete(llvm::ArrayRef<std::string> sequence) const {
  std::vector<std::string> full(sequence.begin(), sequence.end());
  auto name = [](llvm::StringRef item) { return item.split('{').first; };
  for (const std::string &last : lastPasses)
    if (full.empty() || name(full.back()) != name(last))
      full.push_back(last);
  if (!options.mixed.empty() && TuningRecord::sequencePrecision(full) == "f32")
    full = withMixedPrecision(std::move(full), options.mixed, "cpu");
  return full;
}

llvm::Error Session::runPasses(ModuleOp graph, llvm::StringRef spec, double &ms) {
  PassManager pm(graph.getContext());
  if (llvm::Error e = buildPipeline(spec, pm))
    return e;
  ErrorCollector collector(graph.getContext());
  auto start = std::chrono::steady_clock::now();
  LogicalResult result = pm.run(graph);
  ms = msSince(start);
  if (failed(result))
    return llvm::createStringError(collector.errors.empty() ? "a pass failed" : collector.errors);
  return llvm::Error::success();
}

llvm::Expected<OwningOpRef<ModuleOp>> Session::apply(ModuleOp graph, llvm::StringRef pass,
                                                     double &ms) {
  OwningOpRef<ModuleOp> copy = graph.clone();
  if (llvm::Error e = runPasses(*copy, "list:" + pass.str(), ms))
    return std::move(e);
  return copy;
}

TuningRecord Session::newRecord(llvm::StringRef kind, llvm::StringRef strategy,
                                llvm::ArrayRef<std::string> sequence) const {
  TuningRecord r;
  r.kind = kind.str();
  r.runId = runId;
  r.model = options.modelPath;
  r.structure = structure;
  r.weights = weights;
  r.classes = tags;
  r.strategy = strategy.str();
  r.sequence.assign(sequence.begin(), sequence.end());
  r.precision = options.precision();
  r.objective = options.objective.str();
  r.threads = options.threads;
  Provenance p = currentProvenance();
  r.hostCpu = p.hostCpu;
  r.dlcVersion = p.dlcVersion;
  r.llvmVersion = p.llvmVersion;
  r.date = p.date;
  return r;
}

void Session::write(const TuningRecord &record) {
  if (llvm::Error e = appendTuningRecord(options.dbPath, record)) {
    if (dbError.empty())
      dbError = llvm::toString(std::move(e));
    else
      llvm::consumeError(std::move(e));
  }
}

void Session::measure(ModuleOp graph, double passesMs, int64_t rounds, Measured &m) {
  TuningRecord &r = m.record;
  r.graphPassesMs = passesMs;
  r.irAfter = moduleFingerprint(graph, /*withWeights=*/false);
  auto failWith = [&](llvm::StringRef status, const llvm::Twine &why) {
    r.status = status.str();
    r.error = why.str();
  };
  CacheOptions noCache;
  noCache.enabled = false; // compile times are cold ones
  std::unique_ptr<CPUExecutable> exe;
  {
    ErrorCollector collector(graph.getContext());
    auto compiled = compileForCPU(graph, entry, "none", options.threads, &noCache,
                                  options.compileThreads, /*ledger=*/nullptr,
                                  options.weightsSource);
    if (!compiled)
      return failWith("error", llvm::toString(compiled.takeError()) +
                                   (collector.errors.empty() ? "" : ": " + collector.errors));
    exe = std::move(*compiled);
  }
  const CompileTimes &t = exe->compileTimes();
  r.loweringMs = t.loweringMs;
  r.codegenMs = t.codegenMs;
  r.compileMs = passesMs + t.totalMs();
  llvm::Expected<std::vector<Tensor>> outputs = exe->run(inputs);
  if (!outputs)
    return failWith("error", "running it: " + llvm::toString(outputs.takeError()));
  std::vector<Comparison> comparisons =
      compareOutputs(*outputs, expected, detections, options.atol, options.rtol);
  for (auto [i, c] : llvm::enumerate(comparisons)) {
    if (!c.reason.empty() || !c.match)
      return failWith("mismatch",
                      llvm::formatv("output {0} differs from O3's: {1}", i,
                                    !c.reason.empty()
                                        ? c.reason
                                        : llvm::formatv("{0} of {1} elements beyond atol {2} + "
                                                        "rtol {3}, max abs error {4:e2}",
                                                        c.mismatches, (*outputs)[i].size(),
                                                        options.atol, options.rtol, c.maxAbsError)
                                              .str()));
  }
  llvm::Expected<SideBySide> side =
      measureSideBySide(*exe, *baseline, inputs, rounds, runsPerRound, stop);
  if (!side) {
    std::string why = llvm::toString(side.takeError());
    return interrupted() ? failWith("interrupted", why) : failWith("error", "measuring it: " + why);
  }
  setLatency(r, *side);
  const TuningRecord &o3 = results.front().record;
  r.compileRatio = o3.compileMs > 0 ? r.compileMs / o3.compileMs : 1;
  r.score = options.objective.score(r.latencyRatio, r.compileRatio);
}

void Session::printProgress(llvm::StringRef strategy, const llvm::Twine &what) {
  int64_t s = static_cast<int64_t>(msSince(started) / 1000);
  progress << llvm::formatv("[{0,3} | {1,2}:{2:d2}] {3,-10} ", summary.measured, s / 60, s % 60,
                            strategy)
           << what;
  const Measured *best = nullptr;
  for (const Measured &m : results)
    if (m.ok() && (!best || m.record.score < best->record.score))
      best = &m;
  if (best)
    progress << llvm::formatv(" | best {0:f3} (#{1})", best->record.score, best->record.index);
  progress << "\n";
  progress.flush();
}

void Session::printProgress(const Measured &m) {
  const TuningRecord &r = m.record;
  std::string what = llvm::formatv("#{0,-3} {1,2} passes  ", r.index, r.sequence.size());
  if (!m.ok())
    what += r.status + ": " + r.error.substr(0, 160);
  else
    what += llvm::formatv("latency {0:f3}x [{1:f3}, {2:f3}] ({3:f2} ms), compile {4:f2}x "
                          "({5:f2} s), score {6:f3}",
                          r.latencyRatio, r.latencyLow, r.latencyHigh, r.p50Ms, r.compileRatio,
                          r.compileMs / 1000, r.score)
                .str();
  printProgress(r.strategy, what);
}

const Measured *Session::keep(Measured m) {
  ++summary.measured;
  if (!m.ok())
    ++summary.failed;
  m.record.index = results.size();
  write(m.record);
  printProgress(m);
  if (!m.fingerprint.empty()) // a graph that failed is not tried again either
    byFingerprint[m.fingerprint] = results.size();
  results.push_back(std::move(m));
  return &results.back();
}

const Measured *Session::recordFailure(llvm::ArrayRef<std::string> sequence,
                                       llvm::StringRef strategy, const llvm::Twine &error) {
  countGenerated();
  Measured m{newRecord("candidate", strategy, sequence), ""};
  m.record.status = "error";
  m.record.error = "the passes failed: " + error.str();
  return keep(std::move(m));
}

const Measured *Session::evaluate(llvm::ArrayRef<std::string> sequence,
                                  llvm::StringRef strategy) {
  if (exhausted())
    return nullptr;
  std::vector<std::string> full = complete(sequence);
  TemporaryPayloads payloads(input.getContext()); // the weights the passes wrote
  OwningOpRef<ModuleOp> graph = input.clone();
  double ms = 0;
  if (llvm::Error e = runPasses(*graph, "list:" + llvm::join(full, ","), ms))
    return recordFailure(full, strategy, llvm::toString(std::move(e)));
  return consider(full, *graph, ms, strategy);
}

const Measured *Session::evaluatePrefix(llvm::ArrayRef<std::string> sequence, ModuleOp prefix,
                                        double passesMs, llvm::StringRef strategy) {
  if (exhausted())
    return nullptr;
  std::vector<std::string> full(sequence.begin(), sequence.end());
  std::vector<std::string> last = complete({}); // the last passes, in the run's precision
  full.insert(full.end(), last.begin(), last.end());
  TemporaryPayloads payloads(input.getContext()); // the weights the last passes wrote
  OwningOpRef<ModuleOp> graph = prefix.clone();
  double ms = 0;
  if (!last.empty())
    if (llvm::Error e = runPasses(*graph, "list:" + llvm::join(last, ","), ms))
      return recordFailure(full, strategy, llvm::toString(std::move(e)));
  return consider(full, *graph, passesMs + ms, strategy);
}

const Measured *Session::consider(llvm::ArrayRef<std::string> sequence, ModuleOp graph,
                                  double passesMs, llvm::StringRef strategy) {
  countGenerated();
  std::string fingerprint = moduleFingerprint(graph, /*withWeights=*/true);
  if (auto it = byFingerprint.find(fingerprint); it != byFingerprint.end()) {
    ++summary.deduplicated;
    Measured &same = results[it->second];
    // A route to a measured graph through fewer passes, and quicker: the
    // same code, compiled sooner. It is recorded with that graph's latency
    // and its own pass time, and replaces it in the ranking.
    if (same.ok() && sequence.size() < same.record.sequence.size() &&
        passesMs < same.record.graphPassesMs) {
      Measured m = same;
      TuningRecord &r = m.record;
      r.kind = "candidate";
      r.strategy = strategy.str();
      r.sequence.assign(sequence.begin(), sequence.end());
      r.sameGraphAs = same.record.sameGraphAs >= 0 ? same.record.sameGraphAs : same.record.index;
      r.compileMs = same.record.compileMs - same.record.graphPassesMs + passesMs;
      r.graphPassesMs = passesMs;
      const TuningRecord &o3 = results.front().record;
      r.compileRatio = o3.compileMs > 0 ? r.compileMs / o3.compileMs : 1;
      r.score = options.objective.score(r.latencyRatio, r.compileRatio);
      r.date = currentProvenance().date;
      r.index = results.size();
      same.superseded = true;
      write(r);
      printProgress(strategy, llvm::formatv("#{0,-3} same graph as #{1} through {2} passes "
                                            "instead of {3} ({4:f1} ms of passes, not {5:f1}): "
                                            "not measured again, compile {6:f2}x",
                                            r.index, same.record.index, sequence.size(),
                                            same.record.sequence.size(), passesMs,
                                            same.record.graphPassesMs, r.compileRatio));
      it->second = results.size();
      results.push_back(std::move(m));
      return &results.back();
    }
    printProgress(strategy, llvm::formatv("same graph as #{0}: not measured again",
                                          same.record.index));
    return &same;
  }
  if (exhausted())
    return nullptr;
  Measured m{newRecord("candidate", strategy, sequence), fingerprint};
  measure(graph, passesMs, options.rounds, m);
  if (m.record.status == "interrupted")
    return nullptr; // measured in part: not a result
  return keep(std::move(m));
}

llvm::Error Session::probeDormant(llvm::raw_ostream &report) {
  // A pass is dormant on the model when it changes nothing run alone on
  // it, in the class order after the others, nor after all of them: it is
  // dropped from the space, as is a pass that fails on the model.
  std::string inputPrint = moduleFingerprint(input, true);
  TemporaryPayloads payloads(input.getContext()); // the weights the probes wrote
  OwningOpRef<ModuleOp> chain = input.clone();
  std::string chainPrint = inputPrint;
  llvm::StringSet<> active, failing;
  auto tryOn = [&](ModuleOp graph, llvm::StringRef before, const std::string &pass)
      -> std::optional<std::pair<OwningOpRef<ModuleOp>, std::string>> {
    double ms;
    llvm::Expected<OwningOpRef<ModuleOp>> after = apply(graph, pass, ms);
    if (!after) {
      llvm::consumeError(after.takeError());
      failing.insert(pass);
      return std::nullopt;
    }
    std::string print = moduleFingerprint(**after, true);
    if (print != before)
      active.insert(pass);
    return std::make_pair(std::move(*after), print);
  };
  for (const std::string &pass : passes) {
    tryOn(input, inputPrint, pass);
    if (auto next = tryOn(*chain, chainPrint, pass)) {
      chain = std::move(next->first);
      chainPrint = next->second;
    }
  }
  for (const std::string &pass : passes)
    if (!active.contains(pass) && !failing.contains(pass))
      tryOn(*chain, chainPrint, pass);
  std::vector<std::string> kept, dormant, failed;
  for (const std::string &pass : passes)
    (active.contains(pass) ? kept : failing.contains(pass) ? failed : dormant).push_back(pass);
  passes = std::move(kept);
  report << "  dormant on this model (dropped): "
         << (dormant.empty() ? "none" : llvm::join(dormant, " ")) << "\n";
  if (!failed.empty())
    report << "  failing on this model (dropped): " << llvm::join(failed, " ") << "\n";
  return llvm::Error::success();
}

llvm::Error Session::start(llvm::raw_ostream &report) {
  {
    // A database that cannot be written fails the run before it measures.
    std::error_code ec;
    llvm::raw_fd_ostream db(options.dbPath, ec, llvm::sys::fs::OF_Append);
    if (ec)
      return llvm::createStringError(options.dbPath + ": cannot append to the tuning database: " +
                                     ec.message());
  }
  structure = moduleFingerprint(input, false);
  weights = moduleFingerprint(input, true);
  runId = currentProvenance().date + "-" + std::to_string(llvm::sys::Process::getProcessId());
  std::string rulesPath =
      options.classesPath.empty() ? defaultClassRulesPath() : options.classesPath;
  llvm::Expected<ClassRules> rules = loadClassRules(rulesPath);
  if (!rules)
    return rules.takeError();
  Classification classes = classify(computeFeatures(input), *rules);
  tags = classes.tags();
  autoSpec = chooseAutoPipeline(input, *rules, {}, {}, options.mixed).spec;
  PassSpace space = classPassSpace(tags, options.mixed);
  for (const std::string &p : space.passes)
    (lookupPass(p)->last ? lastPasses : passes).push_back(p);
  SpaceSize full = spaceSize(passCatalogue().size(), options.maxLength);
  SpaceSize pruned = spaceSize(passes.size(), options.maxLength);
  report << "dlc-tune: " << options.modelPath << ": "
         << (classes.general() ? "general" : llvm::join(classes.detected, " + ")) << " ("
         << (tags.empty() ? "O3's passes" : "CF'22 classes " + llvm::join(tags, " ")) << ")\n";
  report << "  space: catalogue " << full.passes << " passes, " << sci(full.sequences)
         << " sequences of up to " << options.maxLength << "; pruned by class "
         << pruned.passes << " passes, " << sci(pruned.sequences) << " sequences ("
         << sci(pruned.sequences / full.sequences) << " of the catalogue's)"
         << (lastPasses.empty() ? "" : "; " + llvm::join(lastPasses, " ") + " ends every sequence")
         << "\n";
  if (!options.mixed.empty())
    report << "  precision: every sequence computes in " << options.mixed
           << " where it is safe (ToMixedPrecision and FoldConstant before FuseOps), against O3 "
              "in f32 within atol "
           << llvm::format("%g", options.atol) << " + rtol " << llvm::format("%g", options.rtol)
           << "\n";
  if (llvm::Error e = probeDormant(report))
    return e;
  SpaceSize probed = spaceSize(passes.size(), options.maxLength);
  if (passes.empty())
    report << "  searched: nothing (every pass of the space is dormant on this model: "
           << (lastPasses.empty() ? "no pass" : llvm::join(lastPasses, " ")) << " alone is left)\n";
  else
    report << "  searched: " << llvm::join(passes, " ") << " (" << probed.passes << " passes, "
           << sci(probed.sequences) << " sequences)\n";
  report.flush();

  // O3, compiled twice (the first compile of a process pays for warming it
  // up: the faster is its compile time), run for the outputs every
  // candidate must match, then measured against itself: the noise floor of
  // the side-by-side ratios. Its own ratio is 1 by definition.
  llvm::Expected<std::vector<std::string>> o3 = pipelinePasses("O3");
  if (!o3)
    return o3.takeError();
  Measured m{newRecord("baseline", "O3", *o3), ""};
  CacheOptions noCache;
  noCache.enabled = false;
  for (int i = 0; i < 2; ++i) {
    auto exe = compileForCPU(input, entry, "O3", options.threads, &noCache,
                             options.compileThreads, /*ledger=*/nullptr, options.weightsSource);
    if (!exe)
      return llvm::createStringError("compiling the model at O3: " +
                                     llvm::toString(exe.takeError()));
    const CompileTimes &t = (*exe)->compileTimes();
    if (i == 0 || t.totalMs() < m.record.compileMs) {
      m.record.compileMs = t.totalMs();
      m.record.loweringMs = t.loweringMs;
      m.record.codegenMs = t.codegenMs;
    }
    baseline = std::move(*exe);
  }
  llvm::Expected<std::vector<Tensor>> outputs = baseline->run(inputs);
  if (!outputs)
    return llvm::createStringError("running the model compiled at O3: " +
                                   llvm::toString(outputs.takeError()));
  expected = std::move(*outputs);
  if (auto func = input.lookupSymbol<mlir::func::FuncOp>(entry))
    detections = findDetectionOutputs(func);
  llvm::Expected<LatencyStats> probe = baseline->benchmark(inputs, 1, 3, 0);
  if (!probe)
    return probe.takeError();
  // Rounds of at least 100 ms per model.
  runsPerRound = dlc::runsPerRound(probe->p50);
  TemporaryPayloads payloads(input.getContext()); // the weights O3's passes wrote
  OwningOpRef<ModuleOp> graph = input.clone();
  double passesMs = 0;
  if (llvm::Error e = runPasses(*graph, "O3", passesMs))
    return e;
  m.fingerprint = moduleFingerprint(*graph, true);
  m.record.irAfter = moduleFingerprint(*graph, false);
  // As the candidates' (the CPU's own graph passes are in the rest).
  m.record.graphPassesMs = passesMs;
  llvm::Expected<SideBySide> side =
      measureSideBySide(*baseline, *baseline, inputs, options.rounds, runsPerRound, stop);
  if (!side) {
    if (interrupted()) {
      llvm::consumeError(side.takeError());
      return llvm::createStringError("interrupted before O3 was measured: nothing recorded");
    }
    return side.takeError();
  }
  setLatency(m.record, *side);
  noiseFloor = side->ratio;
  m.record.latencyRatio = m.record.latencyLow = m.record.latencyHigh = 1;
  m.record.score = options.objective.score(1, 1);
  write(m.record);
  report << llvm::formatv("  O3: latency {0:f2} ms (cv {1:f3}), compile {2:f2} s; O3 against "
                          "itself {3:f3}x [{4:f3}, {5:f3}] (the noise floor), {6} rounds of {7} "
                          "runs each\n",
                          m.record.p50Ms, m.record.cv, m.record.compileMs / 1000,
                          noiseFloor.median, noiseFloor.low, noiseFloor.high, noiseFloor.n,
                          runsPerRound);
  report.flush();
  byFingerprint[m.fingerprint] = 0;
  results.push_back(std::move(m));
  if (!dbError.empty())
    return llvm::createStringError(dbError);
  return llvm::Error::success();
}

void Session::seed() {
  searchStarted = std::chrono::steady_clock::now();
  if (!options.seeds)
    return;
  llvm::Expected<std::vector<TuningRecord>> earlier = readTuningDatabase(options.dbPath);
  if (!earlier) {
    progress << "dlc-tune: warning: " << llvm::toString(earlier.takeError())
             << ": its earlier bests are not tried first\n";
  } else {
    std::set<std::vector<std::string>> tried;
    for (const TuningRecord &r : llvm::reverse(*earlier))
      // Only the bests computed in this run's precision.
      if (r.kind == "best" && r.structure == structure && r.status == "ok" &&
          r.precision == options.precision() && tried.insert(r.sequence).second)
        evaluate(r.sequence, "seed-db");
  }
  if (llvm::Expected<std::vector<std::string>> seq = pipelinePasses(autoSpec)) {
    if (const Measured *m = evaluate(*seq, "seed-auto"))
      autoFingerprint = m->fingerprint;
  } else
    llvm::consumeError(seq.takeError());
}

llvm::Expected<TuneSummary> Session::finish(llvm::raw_ostream &report) {
  if (!dbError.empty())
    return llvm::createStringError(dbError);
  // The leading candidates, measured again for longer: the best of a
  // search is a biased figure (the winner's curse); this one is not.
  std::vector<const Measured *> ranked;
  for (const Measured &m : llvm::drop_begin(results))
    if (m.ok() && !m.superseded)
      ranked.push_back(&m);
  llvm::stable_sort(ranked, [](const Measured *a, const Measured *b) {
    return a->record.score < b->record.score;
  });
  // Auto's graph is measured again too, wherever it ranked: the choice
  // leaves it only on evidence (chooseBest).
  auto toConfirm = llvm::to_vector(llvm::ArrayRef(ranked).take_front(options.confirm));
  auto isAuto = [&](const Measured *m) {
    return !autoFingerprint.empty() && m->fingerprint == autoFingerprint;
  };
  if (options.confirm > 0 && llvm::none_of(toConfirm, isAuto))
    if (auto it = llvm::find_if(ranked, isAuto); it != ranked.end())
      toConfirm.push_back(*it);
  std::vector<Measured> confirmed;
  bool attempted = false;
  for (const Measured *m : toConfirm) {
    if (interrupted())
      break;
    attempted = true;
    Measured again{newRecord("confirm", m->record.strategy, m->record.sequence),
                   m->fingerprint};
    again.record.index = m->record.index;
    TemporaryPayloads payloads(input.getContext()); // the weights the passes wrote
    OwningOpRef<ModuleOp> graph = input.clone();
    double ms = 0;
    if (llvm::Error e = runPasses(*graph, m->record.spec(), ms)) {
      again.record.status = "error";
      again.record.error = "the passes failed: " + llvm::toString(std::move(e));
    } else {
      measure(*graph, ms, options.confirmRounds, again);
    }
    if (again.record.status == "interrupted")
      break;
    // Of two cold compiles, the faster is the compile time.
    if (again.ok() && m->record.compileMs < again.record.compileMs) {
      again.record.compileMs = m->record.compileMs;
      again.record.compileRatio = m->record.compileRatio;
      again.record.score =
          options.objective.score(again.record.latencyRatio, again.record.compileRatio);
    }
    write(again.record);
    if (again.ok())
      printProgress(again.record.strategy,
                    llvm::formatv("#{0} confirmed: score {1:f3} (latency {2:f3}x [{3:f3}, "
                                  "{4:f3}])",
                                  again.record.index, again.record.score,
                                  again.record.latencyRatio, again.record.latencyLow,
                                  again.record.latencyHigh));
    else
      printProgress(again.record.strategy,
                    llvm::formatv("#{0} measured again: {1}: {2}", again.record.index,
                                  again.record.status, again.record.error.substr(0, 160)));
    if (again.ok())
      confirmed.push_back(std::move(again));
  }
  summary.interrupted = interrupted();
  // The choice, among O3 and the confirmed candidates (the measured ones
  // when none was measured again: --confirm=0, or interrupted before).
  const Measured &o3 = results.front();
  std::vector<const Measured *> pool = {&o3};
  for (const Measured &m : confirmed)
    pool.push_back(&m);
  if (!attempted)
    pool.insert(pool.end(), ranked.begin(), ranked.end());
  std::vector<const TuningRecord *> records;
  // Auto's graph (O3's own when auto's passes make the same graph).
  std::optional<size_t> incumbent;
  for (const Measured *m : pool) {
    if (isAuto(m) && !incumbent)
      incumbent = records.size();
    records.push_back(&m->record);
  }
  const Measured *best = pool[chooseBest(records, options.objective, incumbent)];
  summary.best = best->record;
  summary.best.kind = "best";
  summary.best.confirmed = attempted;
  summary.best.date = currentProvenance().date;
  write(summary.best);
  if (!dbError.empty())
    return llvm::createStringError(dbError);
  for (const Measured *m : ranked)
    summary.ranked.push_back(m->record);

  int64_t seconds = static_cast<int64_t>(msSince(started) / 1000);
  report << llvm::formatv("  candidates: {0} proposed, {1} measured, {2} deduplicated (their "
                          "graph had been measured), {3} failed; {4}:{5:d2}{6}\n",
                          summary.generated, summary.measured, summary.deduplicated,
                          summary.failed, seconds / 60, seconds % 60,
                          summary.interrupted ? " (interrupted)" : "");
  if (!ranked.empty()) {
    report << "  leading candidates (objective " << options.objective.str() << "):\n";
    for (const Measured *m : llvm::ArrayRef(ranked).take_front(5))
      report << llvm::formatv("    #{0,-3} {1,-10} score {2:f3}  latency {3:f3}x [{4:f3}, {5:f3}]"
                              "  compile {6:f3}x  {7}\n",
                              m->record.index, m->record.strategy, m->record.score,
                              m->record.latencyRatio, m->record.latencyLow,
                              m->record.latencyHigh, m->record.compileRatio, m->record.spec());
  }
  const TuningRecord &b = summary.best;
  report << llvm::formatv("  best{0}: {1} (#{2}): latency {3:f3}x O3 [{4:f3}, {5:f3}] over {6} "
                          "rounds{7}, compile {8:f3}x O3\n",
                          options.objective.kind == Objective::Latency
                              ? " (of the fastest within noise and no slower than O3, the "
                                "fastest to compile)"
                              : "",
                          b.strategy, b.index, b.latencyRatio, b.latencyLow, b.latencyHigh,
                          b.rounds,
                          best == &o3         ? " (nothing beat O3)"
                          : b.rounds < 6      ? " (too few rounds to tell)"
                          : b.latencyHigh < 1 ? " (faster than O3 with 95% confidence)"
                                              : " (not faster than O3 beyond noise)",
                          b.compileRatio);
  report << "  " << b.spec() << "\n";
  report << "  records appended to " << options.dbPath << "; replay with "
         << (options.mixed.empty()
                 ? "--pipeline=tuned:" + options.dbPath
                 : "'--pipeline=tuned:" + options.dbPath + ";mixed=" + options.mixed + "'")
         << "\n";
  return summary;
}

llvm::Error dlc::checkStrategy(llvm::StringRef strategy) {
  if (strategy == "random" || strategy == "greedy" || strategy == "exhaustive")
    return llvm::Error::success();
  return llvm::createStringError("unknown strategy '" + strategy.str() +
                                 "' (expected random, greedy or exhaustive)");
}

llvm::Expected<TuneSummary> dlc::tune(ModuleOp model, llvm::StringRef entry,
                                      llvm::ArrayRef<Tensor> inputs, const TuneOptions &options,
                                      const std::atomic<bool> *stop,
                                      llvm::raw_ostream &progress, llvm::raw_ostream &report) {
  if (llvm::Error e = checkStrategy(options.strategy))
    return std::move(e);
  void (*search)(Session &) = options.strategy == "random"   ? searchRandom
                              : options.strategy == "greedy" ? searchGreedy
                                                             : searchExhaustive;
  Session session(model, entry, inputs, options, stop, progress);
  if (llvm::Error e = session.start(report))
    return std::move(e);
  session.seed();
  search(session);
  return session.finish(report);
}
