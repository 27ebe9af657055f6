//===- Tuner.cpp - one tuning run: the space, candidates, records ----------===//
#include "Measure.h"
#include "Session.h"

#include "dlc/Analysis/Classifier.h"
#include "dlc/Analysis/Fingerprint.h"
#include "dlc/Driver/CPUCompiler.h"
#include "dlc/Runtime/Bench.h"
#include "dlc/Transforms/AutoPipeline.h"
#include "dlc/Transforms/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace dlc;

//===----------------------------------------------------------------------===//
// Objectives and space sizes
//===----------------------------------------------------------------------===//

double Objective::score(double latencyRatio, double compileRatio) const {
  switch (kind) {
  case Latency:
    return latencyRatio;
  case Compile:
    return compileRatio;
  case Mix:
    return weight * latencyRatio + (1 - weight) * compileRatio;
  }
  return latencyRatio;
}

std::string Objective::str() const {
  if (kind == Mix)
    return llvm::formatv("mix:{0}", weight).str();
  return kind == Latency ? "latency" : "compile";
}

llvm::Expected<Objective> dlc::parseObjective(llvm::StringRef text) {
  Objective o;
  if (text == "latency")
    return o;
  if (text == "compile") {
    o.kind = Objective::Compile;
    return o;
  }
  double w;
  llvm::StringRef weight = text;
  if (weight.consume_front("mix:") && !weight.getAsDouble(w) && w >= 0 && w <= 1) {
    o.kind = Objective::Mix;
    o.weight = w;
    return o;
  }
  return llvm::createStringError("bad objective '" + text.str() +
                                 "': expected latency, compile or mix:W with W in [0, 1] "
                                 "(the weight of latency)");
}

SpaceSize dlc::spaceSize(int64_t passes, int64_t maxLength) {
  SpaceSize s{passes, 0};
  double term = 1;
  for (int64_t k = 0; k <= maxLength; ++k, term *= passes)
    s.sequences += term;
  return s;
}

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

static double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

Session::Session(ModuleOp model, llvm::StringRef entry, llvm::ArrayRef<Tensor> inputs,
                 const TuneOptions &options, const std::atomic<bool> *stop,
                 llvm::raw_ostream &progress)
    : input(model), entry(entry.str()), inputs(inputs), options(options), stop(stop),
      progress(progress), started(std::chrono::steady_clock::now()) {}

bool Session::exhausted() const {
  if (interrupted())
    return true;
  if (options.budgetCandidates > 0 && summary.measured >= options.budgetCandidates)
    return true;
  return options.budgetSeconds > 0 && msSince(started) >= options.budgetSeconds * 1000;
}

llvm::Error Session::runPasses(ModuleOp graph, llvm::StringRef spec, double &ms) {
  PassManager pm(graph.getContext());
  if (llvm::Error e = buildPipeline(spec, pm))
    return e;
  // A sequence that fails is a result, not the end of the run: its
  // diagnostics go to its record.
  std::string errors;
  ScopedDiagnosticHandler handler(graph.getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      errors += (errors.empty() ? "" : "; ") + d.str();
    return success();
  });
  auto start = std::chrono::steady_clock::now();
  LogicalResult result = pm.run(graph);
  ms = msSince(start);
  if (failed(result))
    return llvm::createStringError(errors.empty() ? "a pass failed" : errors);
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
  std::string diagnostics;
  std::unique_ptr<CPUExecutable> exe;
  {
    ScopedDiagnosticHandler handler(graph.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        diagnostics += (diagnostics.empty() ? "" : "; ") + d.str();
      return success();
    });
    auto compiled = compileForCPU(graph, entry, "none", options.threads, &noCache,
                                  options.compileThreads);
    if (!compiled)
      return failWith("error", llvm::toString(compiled.takeError()) +
                                   (diagnostics.empty() ? "" : ": " + diagnostics));
    exe = std::move(*compiled);
  }
  const CompileTimes &t = exe->compileTimes();
  r.loweringMs = t.loweringMs;
  r.codegenMs = t.codegenMs;
  r.compileMs = passesMs + t.totalMs();
  llvm::Expected<std::vector<Tensor>> outputs = exe->run(inputs);
  if (!outputs)
    return failWith("error", "running it: " + llvm::toString(outputs.takeError()));
  for (auto [i, out] : llvm::enumerate(*outputs)) {
    Comparison c = compareTensors(out, expected[i], options.atol, options.rtol);
    if (!c.reason.empty() || !c.match)
      return failWith("mismatch",
                      llvm::formatv("output {0} differs from O3's: {1}", i,
                                    !c.reason.empty()
                                        ? c.reason
                                        : llvm::formatv("{0} of {1} elements beyond atol {2} + "
                                                        "rtol {3}, max abs error {4:e2}",
                                                        c.mismatches, out.size(), options.atol,
                                                        options.rtol, c.maxAbsError)
                                              .str()));
  }
  llvm::Expected<SideBySide> side =
      measureSideBySide(*exe, *baseline, inputs, rounds, runsPerRound, stop);
  if (!side)
    return failWith("error", "measuring it: " + llvm::toString(side.takeError()));
  LatencyStats stats = computeStats(side->samplesA);
  r.p50Ms = stats.p50;
  r.cv = stats.cv;
  r.samples = stats.count;
  r.latencyRatio = side->ratio.median;
  r.latencyLow = side->ratio.low;
  r.latencyHigh = side->ratio.high;
  r.rounds = side->ratio.n;
  const TuningRecord &o3 = results.empty() ? r : results.front().record;
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

const Measured *Session::recordFailure(llvm::ArrayRef<std::string> sequence,
                                       llvm::StringRef strategy, const llvm::Twine &error) {
  countGenerated();
  ++summary.measured;
  ++summary.failed;
  Measured m{newRecord("candidate", strategy, sequence), ""};
  m.record.index = results.size();
  m.record.status = "error";
  m.record.error = "the passes failed: " + error.str();
  write(m.record);
  printProgress(m);
  results.push_back(std::move(m));
  return &results.back();
}

const Measured *Session::evaluate(llvm::ArrayRef<std::string> sequence,
                                  llvm::StringRef strategy) {
  if (exhausted())
    return nullptr;
  std::vector<std::string> full(sequence.begin(), sequence.end());
  auto name = [](llvm::StringRef item) { return item.split('{').first; };
  for (const std::string &last : lastPasses)
    if (full.empty() || name(full.back()) != name(last))
      full.push_back(last);
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
  full.insert(full.end(), lastPasses.begin(), lastPasses.end());
  OwningOpRef<ModuleOp> graph = prefix.clone();
  double ms = 0;
  if (!lastPasses.empty())
    if (llvm::Error e = runPasses(*graph, "list:" + llvm::join(lastPasses, ","), ms))
      return recordFailure(full, strategy, llvm::toString(std::move(e)));
  return consider(full, *graph, passesMs + ms, strategy);
}

const Measured *Session::consider(llvm::ArrayRef<std::string> sequence, ModuleOp graph,
                                  double passesMs, llvm::StringRef strategy) {
  countGenerated();
  std::string fingerprint = moduleFingerprint(graph, /*withWeights=*/true);
  if (auto it = byFingerprint.find(fingerprint); it != byFingerprint.end()) {
    ++summary.deduplicated;
    const Measured &same = results[it->second];
    // A shorter route to a measured graph: the same code, compiled sooner.
    // It is recorded with the graph's figures and its own pass time.
    if (passesMs < 0.9 * same.record.graphPassesMs) {
      Measured m = same;
      m.record.kind = "candidate";
      m.record.strategy = strategy.str();
      m.record.sequence.assign(sequence.begin(), sequence.end());
      m.record.index = results.size();
      m.record.compileMs = same.record.compileMs - same.record.graphPassesMs + passesMs;
      m.record.graphPassesMs = passesMs;
      const TuningRecord &o3 = results.front().record;
      m.record.compileRatio = o3.compileMs > 0 ? m.record.compileMs / o3.compileMs : 1;
      m.record.score = options.objective.score(m.record.latencyRatio, m.record.compileRatio);
      m.record.date = currentProvenance().date;
      write(m.record);
      printProgress(strategy, llvm::formatv("#{0,-3} same graph as #{1} in {2:f1} ms of passes "
                                            "instead of {3:f1}: not measured again, compile "
                                            "{4:f2}x",
                                            m.record.index, same.record.index, passesMs,
                                            same.record.graphPassesMs, m.record.compileRatio));
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
  m.record.index = results.size();
  measure(graph, passesMs, options.rounds, m);
  if (interrupted())
    return nullptr; // measured in part: not a result
  ++summary.measured;
  if (!m.ok())
    ++summary.failed;
  write(m.record);
  printProgress(m);
  byFingerprint[fingerprint] = results.size();
  results.push_back(std::move(m));
  return &results.back();
}

llvm::Error Session::probeDormant(llvm::raw_ostream &report) {
  // A pass is dormant on the model when it changes nothing run alone on it
  // nor in the class order after the others: it is dropped from the space.
  std::vector<std::string> active;
  std::string before = moduleFingerprint(input, true);
  OwningOpRef<ModuleOp> chain = input.clone();
  std::string chainBefore = before;
  std::vector<std::string> dormant;
  for (const std::string &pass : passes) {
    double ms;
    llvm::Expected<OwningOpRef<ModuleOp>> alone = apply(input, pass, ms);
    bool changed = alone && moduleFingerprint(**alone, true) != before;
    if (!alone)
      llvm::consumeError(alone.takeError());
    llvm::Expected<OwningOpRef<ModuleOp>> next = apply(*chain, pass, ms);
    if (next) {
      std::string after = moduleFingerprint(**next, true);
      changed |= after != chainBefore;
      chain = std::move(*next);
      chainBefore = after;
    } else {
      llvm::consumeError(next.takeError());
    }
    (changed ? active : dormant).push_back(pass);
  }
  passes = std::move(active);
  report << "  dormant on this model (dropped): " << (dormant.empty() ? "none" : llvm::join(dormant, " "))
         << "\n";
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
  PassSpace space = classPassSpace(tags);
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

  // O3, compiled twice (its compile time is the smaller), run for the
  // outputs every candidate must match, then measured against itself: the
  // noise floor of the side-by-side ratios.
  llvm::Expected<std::vector<std::string>> o3 = pipelinePasses("O3");
  if (!o3)
    return o3.takeError();
  CacheOptions noCache;
  noCache.enabled = false;
  double compileMs = 0;
  for (int i = 0; i < 2; ++i) {
    auto exe = compileForCPU(input, entry, "O3", options.threads, &noCache,
                             options.compileThreads);
    if (!exe)
      return llvm::createStringError("compiling the model at O3: " +
                                     llvm::toString(exe.takeError()));
    double ms = (*exe)->compileTimes().totalMs();
    compileMs = i == 0 ? ms : std::min(compileMs, ms);
    baseline = std::move(*exe);
  }
  llvm::Expected<std::vector<Tensor>> outputs = baseline->run(inputs);
  if (!outputs)
    return llvm::createStringError("running the model compiled at O3: " +
                                   llvm::toString(outputs.takeError()));
  expected = std::move(*outputs);
  llvm::Expected<LatencyStats> probe = baseline->benchmark(inputs, 1, 3, 0);
  if (!probe)
    return probe.takeError();
  // Rounds of at least 100 ms per model.
  runsPerRound = std::clamp<int64_t>(std::ceil(100 / std::max(probe->p50, 1e-3)), 1, 1000);

  Measured m{newRecord("baseline", "O3", *o3), ""};
  OwningOpRef<ModuleOp> graph = input.clone();
  double passesMs = 0;
  if (llvm::Error e = runPasses(*graph, "O3", passesMs))
    return e;
  m.fingerprint = moduleFingerprint(*graph, true);
  m.record.irAfter = moduleFingerprint(*graph, false);
  const CompileTimes &t = baseline->compileTimes();
  m.record.graphPassesMs = passesMs; // as the candidates' (the CPU's own graph passes aside)
  m.record.loweringMs = t.loweringMs;
  m.record.codegenMs = t.codegenMs;
  m.record.compileMs = compileMs;
  llvm::Expected<SideBySide> side =
      measureSideBySide(*baseline, *baseline, inputs, options.rounds, runsPerRound, stop);
  if (!side)
    return side.takeError();
  LatencyStats stats = computeStats(side->samplesA);
  m.record.p50Ms = stats.p50;
  m.record.cv = stats.cv;
  m.record.samples = stats.count;
  m.record.latencyRatio = side->ratio.median;
  m.record.latencyLow = side->ratio.low;
  m.record.latencyHigh = side->ratio.high;
  m.record.rounds = side->ratio.n;
  m.record.score = options.objective.score(1, 1);
  write(m.record);
  report << llvm::formatv("  O3: latency {0:f2} ms (cv {1:f3}), compile {2:f2} s; O3 against "
                          "itself {3:f3}x [{4:f3}, {5:f3}] (the noise floor), {6} rounds of {7} "
                          "runs each\n",
                          stats.p50, stats.cv, compileMs / 1000, side->ratio.median,
                          side->ratio.low, side->ratio.high, side->ratio.n, runsPerRound);
  report.flush();
  byFingerprint[m.fingerprint] = 0;
  results.push_back(std::move(m));
  if (!dbError.empty())
    return llvm::createStringError(dbError);

  if (!options.seeds)
    return llvm::Error::success();
  // Seeds: the database's earlier bests for this model, then auto's choice.
  if (llvm::Expected<std::vector<TuningRecord>> earlier = readTuningDatabase(options.dbPath)) {
    for (const TuningRecord &r : *earlier)
      if (r.kind == "best" && r.structure == structure && r.status == "ok")
        evaluate(r.sequence, "seed-db");
  } else {
    progress << "dlc-tune: warning: " << llvm::toString(earlier.takeError())
             << ": its earlier bests are not tried first\n";
  }
  AutoPipeline autoChoice = chooseAutoPipeline(input, *rules);
  if (llvm::Expected<std::vector<std::string>> seq = pipelinePasses(autoChoice.spec))
    evaluate(*seq, "seed-auto");
  else
    llvm::consumeError(seq.takeError());
  return llvm::Error::success();
}

llvm::Expected<TuneSummary> Session::finish(llvm::raw_ostream &report) {
  if (!dbError.empty())
    return llvm::createStringError(dbError);
  summary.interrupted = interrupted();
  // The leading candidates, measured again for longer: the best of a
  // search is a biased figure (the winner's curse); this one is not.
  std::vector<const Measured *> ranked;
  for (const Measured &m : llvm::drop_begin(results))
    if (m.ok())
      ranked.push_back(&m);
  llvm::stable_sort(ranked, [](const Measured *a, const Measured *b) {
    return a->record.score < b->record.score;
  });
  std::vector<Measured> confirmed;
  if (!summary.interrupted)
    for (const Measured *m : llvm::ArrayRef(ranked).take_front(options.confirm)) {
      if (interrupted())
        break;
      OwningOpRef<ModuleOp> graph = input.clone();
      double ms = 0;
      if (llvm::Error e = runPasses(*graph, m->record.spec(), ms)) {
        llvm::consumeError(std::move(e));
        continue;
      }
      Measured again{newRecord("confirm", m->record.strategy, m->record.sequence),
                     m->fingerprint};
      again.record.index = m->record.index;
      measure(*graph, ms, options.confirmRounds, again);
      if (interrupted())
        break;
      // Of two cold compiles, the faster is the compile time.
      if (again.ok() && m->record.compileMs < again.record.compileMs) {
        again.record.compileMs = m->record.compileMs;
        again.record.compileRatio = m->record.compileRatio;
        again.record.score =
            options.objective.score(again.record.latencyRatio, again.record.compileRatio);
      }
      write(again.record);
      printProgress(again.record.strategy, llvm::formatv("#{0} confirmed: score {1:f3} "
                                                         "(latency {2:f3}x [{3:f3}, {4:f3}])",
                                                         again.record.index, again.record.score,
                                                         again.record.latencyRatio,
                                                         again.record.latencyLow,
                                                         again.record.latencyHigh));
      if (again.ok())
        confirmed.push_back(std::move(again));
    }
  // The choice, among the confirmed candidates (the measured ones when
  // none was: --confirm=0 or interrupted) and O3: the lowest score; for
  // the latency objective, of the candidates whose latency intervals
  // overlap the lowest one's (equal within noise), the fastest to compile.
  std::vector<const Measured *> pool = {&results.front()};
  for (const Measured &m : confirmed)
    pool.push_back(&m);
  if (confirmed.empty())
    pool.insert(pool.end(), ranked.begin(), ranked.end());
  const Measured *best = *llvm::min_element(pool, [](const Measured *a, const Measured *b) {
    return a->record.score < b->record.score;
  });
  if (options.objective.kind == Objective::Latency)
    for (const Measured *m : pool)
      if (m->record.latencyLow <= best->record.latencyHigh &&
          best->record.latencyLow <= m->record.latencyHigh &&
          m->record.compileMs < best->record.compileMs)
        best = m;
  summary.best = best->record;
  summary.best.kind = "best";
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
  bool significant = b.latencyHigh < 1;
  report << llvm::formatv("  best{8}: {0} (#{1}): latency {2:f3}x O3 [{3:f3}, {4:f3}] over {5} "
                          "rounds{6}, compile {7:f3}x O3\n",
                          b.strategy, b.index, b.latencyRatio, b.latencyLow, b.latencyHigh,
                          b.rounds,
                          b.strategy == "O3" ? " (nothing beat O3)"
                          : b.rounds < 6    ? " (too few rounds to tell)"
                          : significant     ? " (faster than O3 with 95% confidence)"
                                            : " (not faster than O3 beyond noise)",
                          b.compileRatio,
                          options.objective.kind == Objective::Latency
                              ? " (of the fastest within noise, the fastest to compile)"
                              : "");
  report << "  " << b.spec() << "\n";
  report << "  records appended to " << options.dbPath << "; replay with --pipeline=tuned:"
         << options.dbPath << "\n";
  return summary;
}

llvm::Expected<TuneSummary> dlc::tune(ModuleOp model, llvm::StringRef entry,
                                      llvm::ArrayRef<Tensor> inputs, const TuneOptions &options,
                                      const std::atomic<bool> *stop,
                                      llvm::raw_ostream &progress, llvm::raw_ostream &report) {
  using Strategy = void (*)(Session &);
  Strategy search = options.strategy == "random"       ? searchRandom
                    : options.strategy == "greedy"     ? searchGreedy
                    : options.strategy == "exhaustive" ? searchExhaustive
                                                       : nullptr;
  if (!search)
    return llvm::createStringError("unknown strategy '" + options.strategy +
                                   "' (expected random, greedy or exhaustive)");
  Session session(model, entry, inputs, options, stop, progress);
  if (llvm::Error e = session.start(report))
    return std::move(e);
  search(session);
  return session.finish(report);
}
