//===- dlc-cuda-run.cpp - run a model compiled for NVIDIA GPUs -------------===//
//
// dlc-cuda-run MODEL.so [--weights=FILE | --random-weights=SEED]
//              [--input=FILE.npy|random:seed=N]... [--expect=FILE.npy]...
//              [--atol=A] [--rtol=R] [--output=FILE.npy]...
//              [--bench] [--warmup=N] [--runs=N] [--max-seconds=S] [--json=FILE]
//              [--profile=FILE] [--save-weights=FILE]
//
// Runs a library written by `dlc-run --target=cuda --emit=shared` on the
// machine's GPU, without LLVM or MLIR: the GPU machines that run dlc's
// models have no compiler. It reads the model's signature from the library
// (`dlc_<entry>_signature`), fills the weights it keeps outside
// (`--external-weights`) from their file (read, or regenerated from the
// zoo's recipes: Random.h), or with pseudo-random values for timing
// alone (--save-weights writes them as filled), feeds the inputs, compares
// the outputs with expected ones (|actual - expected| <= atol + rtol *
// |expected|; a graph.nms's detections as sets, as dlc-run compares them:
// Agreement.h) and measures latency:
// host wall time per call, the call returning once the GPU is done, with
// the GPU's power, memory, temperature and SM clock sampled through NVML
// during the timed runs where NVML is present. --profile writes each
// kernel's GPU time (CUDA events around every launch, summed over the runs;
// the events slow the runs, so profile and time in separate runs).
//
// Exit status: 0 on success, 1 on any error or mismatch, each with one
// diagnostic naming what was wrong.
//
//===----------------------------------------------------------------------===//
#include "Runner.h"
#include "dlc/Runtime/Agreement.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

using namespace dlc;
using namespace dlc::runner;

namespace {

double percentile(std::vector<double> sorted, double p) {
  if (sorted.empty())
    return 0;
  std::sort(sorted.begin(), sorted.end());
  double rank = p / 100.0 * (sorted.size() - 1);
  size_t lo = static_cast<size_t>(rank);
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
}

std::string jsonEscape(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

struct Options {
  std::string library, entry = "main", weights, jsonPath, profilePath, saveWeightsPath;
  int64_t randomWeightsSeed = -1;
  std::vector<std::string> inputs, expects, outputs;
  double atol = 1e-4, rtol = 1e-4;
  bool bench = false;
  int64_t warmup = 20, runs = 200;
  bool cudaGraph = false;
  double maxSeconds = 20; ///< bounds the warm-up and the timed runs, each
};

Options parseOptions(int argc, char **argv) {
  Options o;
  auto number = [](const std::string &flag, const std::string &v) {
    char *end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !std::isfinite(d) || d < 0)
      fail("--" + flag + " wants a finite number >= 0, got '" + v + "'");
    return d;
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::printf("usage: dlc-cuda-run MODEL.so [--entry=main] [--weights=FILE | "
                  "--random-weights=SEED]\n"
                  "         [--input=FILE.npy|random:seed=N]... [--expect=FILE.npy]... "
                  "[--atol=A] [--rtol=R]\n"
                  "         [--output=FILE.npy]... [--bench] [--warmup=N] [--runs=N] "
                  "[--json=FILE]\n");
      std::exit(0);
    }
    if (a.rfind("--", 0) != 0) {
      if (!o.library.empty())
        fail("one model library, got '" + o.library + "' and '" + a + "'");
      o.library = a;
      continue;
    }
    size_t eq = a.find('=');
    std::string flag = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    std::string value = eq == std::string::npos ? "" : a.substr(eq + 1);
    bool hasValue = eq != std::string::npos;
    if (flag == "bench" && !hasValue) o.bench = true;
    else if (flag == "cuda-graph" && !hasValue) o.cudaGraph = true;
    else if (!hasValue) fail("--" + flag + " needs a value (--" + flag + "=...)");
    else if (flag == "entry") o.entry = value;
    else if (flag == "weights") o.weights = value;
    else if (flag == "random-weights") o.randomWeightsSeed = static_cast<int64_t>(number(flag, value));
    else if (flag == "input") o.inputs.push_back(value);
    else if (flag == "expect") o.expects.push_back(value);
    else if (flag == "output") o.outputs.push_back(value);
    else if (flag == "atol") o.atol = number(flag, value);
    else if (flag == "rtol") o.rtol = number(flag, value);
    else if (flag == "warmup") o.warmup = static_cast<int64_t>(number(flag, value));
    else if (flag == "runs") o.runs = std::max<int64_t>(1, static_cast<int64_t>(number(flag, value)));
    else if (flag == "max-seconds") o.maxSeconds = number(flag, value);
    else if (flag == "json") o.jsonPath = value;
    else if (flag == "profile") o.profilePath = value;
    else if (flag == "save-weights") o.saveWeightsPath = value;
    else fail("unknown option --" + flag + " (see --help)");
  }
  if (o.library.empty())
    fail("no model library given (see --help)");
  if (!o.weights.empty() && o.randomWeightsSeed >= 0)
    fail("--weights and --random-weights exclude each other");
  if (!o.jsonPath.empty() && !o.bench)
    fail("--json reports a --bench run: give --bench");
  if (o.cudaGraph && !o.profilePath.empty())
    fail("--cuda-graph and --profile exclude each other (a replay has no per-kernel events)");
  return o;
}


/// Fills the model's external weights as the options say, or says what is
/// missing.
void fillWeights(const Model &m, const Options &o) {
  if (!o.weights.empty() && m.numWeights == 0)
    fail("--weights: " + o.library + " keeps no weights outside (it was compiled without "
         "--external-weights)");
  if (!o.weights.empty()) {
    uint64_t regenerated = loadWeights(m, o.weights);
    if (regenerated)
      std::printf("weights: %.1f MiB regenerated from the zoo's generator\n",
                  regenerated / 1048576.0);
  } else if (o.randomWeightsSeed >= 0) {
    fillRandomWeights(m, o.randomWeightsSeed);
  } else if (m.numWeights) {
    int64_t bytes = 0;
    for (int64_t i = 0; i < m.numWeights; ++i)
      bytes += m.weights[i].bytes;
    fail(o.library + " keeps " + std::to_string(m.numWeights) + " weights (" +
         (bytes < (1 << 20) ? std::to_string(bytes) + " bytes" : std::to_string(bytes >> 20) + " MiB") +
         ") outside the library: give --weights=FILE, or --random-weights=SEED to time it");
  }
  if (!o.saveWeightsPath.empty())
    saveWeights(m, o.saveWeightsPath);
}

/// The model's buffers: inputs filled on the host and the device, outputs
/// on both, and the packed arguments of its entry point (args[i] points at
/// a pointer to descriptor i: allocated, aligned, offset, sizes, strides).
struct Buffers {
  std::vector<std::vector<char>> hostIn, hostOut;
  std::vector<void *> device; ///< inputs, then outputs
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<void *> descriptorPtrs, args;

  Buffers(const Model &m, const Options &o) {
    for (size_t i = 0; i < m.inputs.size(); ++i) {
      const Buffer &b = m.inputs[i];
      std::string spec =
          o.inputs.empty() ? "random:seed=1" : o.inputs[o.inputs.size() == 1 ? 0 : i];
      if (spec.rfind("random:seed=", 0) == 0)
        hostIn.push_back(randomInput(b, parseInt(spec.substr(12), "--input=" + spec) + i));
      else
        hostIn.push_back(readNpy(spec, b));
    }
    for (const Buffer &b : m.outputs)
      hostOut.emplace_back(b.count() * b.dtype->bytes);
    for (auto &h : hostIn) {
      void *d = m.memAlloc(std::max<size_t>(h.size(), 1), nullptr, false);
      m.memcpy(d, h.data(), h.size(), nullptr);
      device.push_back(d);
    }
    for (auto &h : hostOut)
      device.push_back(m.memAlloc(std::max<size_t>(h.size(), 1), nullptr, false));
    m.synchronize(nullptr);
    std::vector<Buffer> all(m.inputs);
    all.insert(all.end(), m.outputs.begin(), m.outputs.end());
    for (size_t i = 0; i < all.size(); ++i) {
      std::vector<int64_t> d{reinterpret_cast<int64_t>(device[i]),
                             reinterpret_cast<int64_t>(device[i]), 0};
      d.insert(d.end(), all[i].shape.begin(), all[i].shape.end());
      std::vector<int64_t> strides(all[i].shape.size(), 1);
      for (int64_t k = static_cast<int64_t>(strides.size()) - 2; k >= 0; --k)
        strides[k] = strides[k + 1] * all[i].shape[k + 1];
      d.insert(d.end(), strides.begin(), strides.end());
      descriptors.push_back(std::move(d));
    }
    for (auto &d : descriptors)
      descriptorPtrs.push_back(d.data());
    for (void *&p : descriptorPtrs)
      args.push_back(&p);
  }

  void *deviceOutput(const Model &m, size_t i) const { return device[m.inputs.size() + i]; }

  /// Output `i` copied back from the device.
  std::vector<char> readOutput(const Model &m, size_t i) const {
    std::vector<char> host(hostOut[i].size());
    m.memcpy(host.data(), deviceOutput(m, i), host.size(), nullptr);
    m.synchronize(nullptr);
    return host;
  }
};

/// Device-format `data` of `b` as doubles.
std::vector<double> values(const Buffer &b, const std::vector<char> &data) {
  std::vector<double> v(b.count());
  for (int64_t k = 0; k < b.count(); ++k)
    v[k] = element(*b.dtype, data.data(), k);
  return v;
}

/// Writes the outputs --output asks for and compares those --expect gives:
/// the boxes, scores and classes of a graph.nms as sets of detections when
/// all three are expected, the others element by element (Agreement.h).
/// Prints a line per compared output; returns whether all match.
bool checkOutputs(const Model &m, const Options &o, const Buffers &buffers) {
  size_t n = std::min(o.expects.size(), m.outputs.size());
  std::vector<std::vector<double>> actual(n), expected(n);
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    if (i < o.outputs.size())
      writeNpy(o.outputs[i], m.outputs[i], buffers.hostOut[i]);
    if (i < n) {
      actual[i] = values(m.outputs[i], buffers.hostOut[i]);
      expected[i] = values(m.outputs[i], readNpy(o.expects[i], m.outputs[i]));
    }
  }
  std::vector<std::optional<Comparison>> results(n);
  for (const DetectionOutputs &d : m.detections) {
    if (std::max<size_t>({d.boxes, d.scores, d.classes}) >= n)
      continue;
    const std::vector<int64_t> &scoresShape = m.outputs[d.scores].shape;
    std::array<Comparison, 3> group = compareDetections(
        {actual[d.boxes].data(), actual[d.scores].data(), actual[d.classes].data()},
        {expected[d.boxes].data(), expected[d.scores].data(), expected[d.classes].data()},
        scoresShape[0], scoresShape[1], o.atol, o.rtol);
    results[d.boxes] = group[0];
    results[d.scores] = group[1];
    results[d.classes] = group[2];
  }
  bool match = true;
  std::string report;
  for (size_t i = 0; i < n; ++i) {
    const Buffer &b = m.outputs[i];
    char line[512];
    std::snprintf(line, sizeof line, "output %zu: %s %s ", i, b.dtype->name.c_str(),
                  formatShape(b.shape).c_str());
    std::string text = line;
    if (const std::optional<Comparison> &sets = results[i]) {
      std::snprintf(line, sizeof line,
                    "max abs error %.3g, max rel error %.3g, as detections: %lld unpaired, "
                    "%lld excused as tied at the cut-off",
                    sets->maxAbsError, sets->maxRelError, static_cast<long long>(sets->mismatches),
                    static_cast<long long>(sets->excusedDetections));
      text += line;
      if (!sets->match)
        text += "\n  " + sets->reason;
      match &= sets->match;
    } else {
      Comparison c =
          compareValues(actual[i].data(), expected[i].data(), b.count(), o.atol, o.rtol);
      std::snprintf(line, sizeof line,
                    "max abs error %.3g, max rel error %.3g, %lld of %lld elements outside atol "
                    "%g rtol %g",
                    c.maxAbsError, c.maxRelError, static_cast<long long>(c.mismatches),
                    static_cast<long long>(b.count()), o.atol, o.rtol);
      text += line;
      if (!c.match) {
        int64_t first = c.firstMismatch;
        std::snprintf(line, sizeof line, "\n  first at element %lld: %.9g, expected %.9g",
                      static_cast<long long>(first), actual[i][first], expected[i][first]);
        text += line;
        match = false;
      }
    }
    report += text + "\n";
  }
  std::printf("%s", report.c_str());
  if (!o.expects.empty())
    std::printf("%s\n", match ? "outputs match" : "OUTPUTS DIFFER");
  return match;
}

/// Captures a call as a CUDA graph and checks that a replay gives the
/// call's outputs exactly (the outputs are overwritten with a pattern
/// before it); returns the replay. A second call comes first: from it on,
/// the memory pool hands each call the same blocks, which the graph keeps.
std::function<void()> captureGraph(const Model &m, const Options &o, const Buffers &buffers,
                                   const std::function<void()> &call) {
  auto begin = reinterpret_cast<void (*)()>(symbol(m.handle, "dlc_cuda_graph_begin", o.library));
  auto end = reinterpret_cast<void (*)()>(symbol(m.handle, "dlc_cuda_graph_end", o.library));
  auto launch = reinterpret_cast<void (*)()>(symbol(m.handle, "dlc_cuda_graph_launch", o.library));
  auto memset32 = reinterpret_cast<void (*)(void *, unsigned, size_t, void *)>(
      symbol(m.handle, "mgpuMemset32", o.library));
  call();
  begin();
  call();
  end();
  for (size_t i = 0; i < buffers.hostOut.size(); ++i)
    memset32(buffers.deviceOutput(m, i), 0x7fc00001u, buffers.hostOut[i].size() / 4, nullptr);
  launch();
  for (size_t i = 0; i < buffers.hostOut.size(); ++i)
    if (buffers.readOutput(m, i) != buffers.hostOut[i])
      fail("the CUDA graph's output " + std::to_string(i) +
           " differs from the call's: the model's call cannot be replayed");
  std::printf("CUDA graph: captured, replayed, outputs equal to the call's\n");
  return launch;
}

/// --bench: times `call` (warm-up, then the timed runs, each bounded by
/// --max-seconds) while the GPU monitor samples; prints the statistics and
/// writes --json.
void benchmark(const Model &m, const Options &o, const std::function<void()> &call,
               double firstMs, std::optional<bool> match) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
  };
  auto warmStart = Clock::now();
  for (int64_t i = 0; i < o.warmup && seconds(warmStart) < o.maxSeconds; ++i)
    call();
  GPUMonitor gpu;
  gpu.start();
  std::vector<double> samplesMs;
  auto timedStart = Clock::now();
  for (int64_t i = 0; i < o.runs && (i < 5 || seconds(timedStart) < o.maxSeconds); ++i) {
    auto t0 = Clock::now();
    call();
    samplesMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  gpu.stop();
  double sum = 0;
  for (double s : samplesMs)
    sum += s;
  double mean = sum / samplesMs.size(), var = 0;
  for (double s : samplesMs)
    var += (s - mean) * (s - mean);
  double cv = samplesMs.size() > 1 ? std::sqrt(var / (samplesMs.size() - 1)) / mean : 0;
  int64_t batch = m.inputs.empty() || m.inputs[0].shape.empty() ? 1 : m.inputs[0].shape[0];
  std::printf("latency over %lld runs (host wall time per call%s): p50 %.3f ms, p90 %.3f ms, "
              "p99 %.3f ms, min %.3f ms, mean %.3f ms, cv %.1f%%; throughput %.1f "
              "inferences/s (batch %lld)\n",
              static_cast<long long>(samplesMs.size()), o.cudaGraph ? ", CUDA graph" : "",
              percentile(samplesMs, 50), percentile(samplesMs, 90), percentile(samplesMs, 99),
              *std::min_element(samplesMs.begin(), samplesMs.end()), mean, 100 * cv,
              1000.0 * batch / mean, static_cast<long long>(batch));
  std::vector<double> watts, mem, temp, clock;
  for (const GPUMonitor::Sample &s : gpu.samples) {
    watts.push_back(s.watts);
    mem.push_back(s.memoryMiB);
    temp.push_back(s.celsius);
    clock.push_back(s.smMHz);
  }
  if (!gpu.samples.empty())
    std::printf("GPU (%s, driver %s, %zu NVML samples): power median %.1f W max %.1f W, "
                "energy %.3f J/inference, memory used max %.0f MiB, temperature max %.0f C, "
                "SM clock median %.0f MHz\n",
                gpu.gpuName.c_str(), gpu.driverVersion.c_str(), gpu.samples.size(),
                percentile(watts, 50), percentile(watts, 100),
                percentile(watts, 50) * mean / 1000.0 / batch, percentile(mem, 100),
                percentile(temp, 100), percentile(clock, 50));
  else
    std::printf("GPU power, memory, temperature: not sampled (%s)\n",
                gpu.why.empty() ? "the run was shorter than one sample" : gpu.why.c_str());
  if (o.jsonPath.empty())
    return;
  std::ofstream j(o.jsonPath);
  auto stat = [&](const char *k, const std::vector<double> &v) {
    j << "\"" << k << "\": {\"p50\": " << percentile(v, 50) << ", \"max\": " << percentile(v, 100)
      << "}";
  };
  j << "{\"library\": \"" << jsonEscape(o.library) << "\", \"gpu\": \"" << jsonEscape(gpu.gpuName)
    << "\", \"driver\": \"" << jsonEscape(gpu.driverVersion) << "\", \"batch\": " << batch
    << ", \"cuda_graph\": " << (o.cudaGraph ? "true" : "false")
    << ", \"first_call_ms\": " << firstMs << ", \"outputs_match\": "
    << (!match ? "null" : *match ? "true" : "false") << ", \"latency_ms\": {\"p50\": "
    << percentile(samplesMs, 50) << ", \"p90\": " << percentile(samplesMs, 90)
    << ", \"p99\": " << percentile(samplesMs, 99) << ", \"mean\": " << mean << ", \"cv\": " << cv
    << "}, \"runs\": " << samplesMs.size() << ", \"throughput_per_s\": " << 1000.0 * batch / mean;
  if (!gpu.samples.empty()) {
    j << ", ";
    stat("power_w", watts);
    j << ", ";
    stat("memory_used_mib", mem);
    j << ", \"energy_j_per_inference\": " << percentile(watts, 50) * mean / 1000.0 / batch;
  }
  j << ", \"samples_ms\": [";
  for (size_t i = 0; i < samplesMs.size(); ++i)
    j << (i ? ", " : "") << samplesMs[i];
  j << "]}\n";
}

} // namespace

int main(int argc, char **argv) {
  Options o = parseOptions(argc, argv);
  if (!o.profilePath.empty())
    setenv("DLC_CUDA_PROFILE", "1", 1); // read when the library loads its kernels
  Model m = loadModel(o.library, o.entry);
  fillWeights(m, o);
  if (!o.inputs.empty() && o.inputs.size() != m.inputs.size() && o.inputs.size() != 1)
    fail(std::to_string(o.inputs.size()) + " --input given; the model takes " +
         std::to_string(m.inputs.size()));
  if (o.expects.size() > m.outputs.size())
    fail(std::to_string(o.expects.size()) + " --expect given; the model has " +
         std::to_string(m.outputs.size()) + " outputs");
  if (o.outputs.size() > m.outputs.size())
    fail(std::to_string(o.outputs.size()) + " --output given; the model has " +
         std::to_string(m.outputs.size()) + " outputs");

  Buffers buffers(m, o);
  std::function<void()> call = [&] { m.packed(buffers.args.data()); };
  auto start = std::chrono::steady_clock::now();
  call(); // the first call uploads the weights
  double firstMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  for (size_t i = 0; i < buffers.hostOut.size(); ++i)
    buffers.hostOut[i] = buffers.readOutput(m, i);
  bool match = checkOutputs(m, o, buffers);
  std::printf("first call (weights uploaded): %.3f ms\n", firstMs);

  if (o.cudaGraph)
    call = captureGraph(m, o, buffers, call);
  if (o.bench)
    benchmark(m, o, call, firstMs,
              o.expects.empty() ? std::nullopt : std::optional<bool>(match));
  if (!o.profilePath.empty()) {
    auto write = reinterpret_cast<int (*)(const char *)>(
        symbol(m.handle, "dlc_cuda_profile_write", o.library));
    if (write(o.profilePath.c_str()) != 0)
      fail(o.profilePath + ": cannot write the profile");
    std::printf("kernel profile written to %s\n", o.profilePath.c_str());
  }
  std::fflush(nullptr);
  // Without exit handlers: the model's module unload would run after the
  // runtime's state is gone.
  std::_Exit(match ? 0 : 1);
}
