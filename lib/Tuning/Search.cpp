//===- Search.cpp - the strategies that propose pass sequences -------------===//
#include "Session.h"

#include "dlc/Analysis/Fingerprint.h"
#include "dlc/Driver/TemporaryPayloads.h"

#include "llvm/ADT/StringSet.h"

#include <random>

using namespace mlir;
using namespace dlc;

/// A random proposal that reaches no new graph this many times in a row
/// means the space is (nearly) exhausted.
static constexpr int64_t kMaxRepeats = 50;

/// Greedy construction extends its sequence only for a score this much
/// lower: below it, the difference is within the noise of the ratios.
static constexpr double kMinGain = 0.01;

void dlc::searchRandom(Session &s) {
  // The study's PO-x: a random subset of the pruned space in a random order.
  std::mt19937_64 rng(s.opts().seed);
  llvm::ArrayRef<std::string> alphabet = s.alphabet();
  if (alphabet.empty()) {
    // Every pass is dormant on the model: one sequence is left.
    s.evaluate({}, "random");
    return;
  }
  int64_t longest = std::min<int64_t>(s.opts().maxLength, alphabet.size());
  for (int64_t repeats = 0; repeats < kMaxRepeats && !s.exhausted();) {
    std::vector<std::string> sequence(alphabet.begin(), alphabet.end());
    std::shuffle(sequence.begin(), sequence.end(), rng);
    int64_t length =
        longest == 0 ? 0 : std::uniform_int_distribution<int64_t>(1, longest)(rng);
    sequence.resize(length);
    int64_t before = s.measuredCount();
    if (!s.evaluate(sequence, "random"))
      return;
    repeats = s.measuredCount() == before ? repeats + 1 : 0;
  }
}

void dlc::searchGreedy(Session &s) {
  // Start from the last passes alone; add the pass that lowers the score
  // most, as long as one does.
  std::vector<std::string> current;
  const Measured *here = s.evaluate(current, "greedy");
  while (here && static_cast<int64_t>(current.size()) < s.opts().maxLength) {
    const Measured *best = nullptr;
    std::vector<std::string> bestSequence;
    for (const std::string &pass : s.alphabet()) {
      std::vector<std::string> next = current;
      next.push_back(pass);
      const Measured *m = s.evaluate(next, "greedy");
      if (!m)
        return;
      if (m->ok() && (!best || m->record.score < best->record.score)) {
        best = m;
        bestSequence = next;
      }
    }
    double score = here->ok() ? here->record.score : INFINITY;
    if (!best || best->record.score >= score * (1 - kMinGain))
      return;
    current = std::move(bestSequence);
    here = best;
  }
}

void dlc::searchExhaustive(Session &s) {
  // Breadth first over the distinct graphs the alphabet reaches in up to
  // maxLength passes: a pass that leaves a graph unchanged, or reaches one
  // seen before, is not followed (CompilerGym's explore: self, back and
  // cross edges add nothing).
  struct State {
    std::vector<std::string> sequence;
    OwningOpRef<ModuleOp> graph;
    double ms = 0;
  };
  std::vector<State> frontier;
  frontier.push_back({{}, s.model().clone(), 0});
  llvm::StringSet<> seen;
  seen.insert(moduleFingerprint(s.model(), /*withWeights=*/true));
  if (!s.evaluatePrefix({}, s.model(), 0, "exhaustive"))
    return;
  for (int64_t depth = 1; depth <= s.opts().maxLength && !frontier.empty(); ++depth) {
    std::vector<State> next;
    for (State &state : frontier)
      for (const std::string &pass : s.alphabet()) {
        if (s.exhausted())
          return;
        std::vector<std::string> sequence = state.sequence;
        sequence.push_back(pass);
        double ms = 0;
        // The weights the pass wrote, kept only with a graph followed further.
        TemporaryPayloads payloads(s.model().getContext());
        llvm::Expected<OwningOpRef<ModuleOp>> child = s.apply(*state.graph, pass, ms);
        if (!child) {
          s.recordFailure(s.complete(sequence), "exhaustive", llvm::toString(child.takeError()));
          continue;
        }
        if (!seen.insert(moduleFingerprint(**child, /*withWeights=*/true)).second) {
          s.countGenerated();
          s.countDeduplicated();
          continue;
        }
        if (!s.evaluatePrefix(sequence, **child, state.ms + ms, "exhaustive"))
          return;
        if (depth < s.opts().maxLength) {
          next.push_back({std::move(sequence), std::move(*child), state.ms + ms});
          payloads.keep();
        }
      }
    frontier = std::move(next);
  }
}
