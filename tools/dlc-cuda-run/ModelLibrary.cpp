//===- ModelLibrary.cpp - dlc-cuda-run's model library and its weights ----===//
#include "Runner.h"
#include "dlc/Support/Random.h"

#include <algorithm>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>

using namespace dlc;
using namespace dlc::runner;

void *runner::symbol(void *handle, const std::string &name, const std::string &library) {
  void *s = dlsym(handle, name.c_str());
  if (!s)
    fail(library + ": no symbol " + name + " (not a library from dlc-run --target=cuda --emit=shared?)");
  return s;
}

Model runner::loadModel(const std::string &path, const std::string &entry) {
  Model m;
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  m.handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!m.handle)
    fail(std::string("cannot load ") + path + ": " + dlerror());
  std::string signature =
      static_cast<const char *>(symbol(m.handle, "dlc_" + entry + "_signature", path));
  std::istringstream lines(signature);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kind, type, shape, range;
    if (line.rfind("detections ", 0) == 0) {
      DetectionOutputs d;
      if (!(words >> kind >> d.boxes >> d.scores >> d.classes))
        fail(path + ": bad signature line '" + line + "'");
      m.detections.push_back(d);
      continue;
    }
    words >> kind >> type >> shape >> range;
    Buffer b{&dtypeNamed(type), {}};
    if (range == "range")
      words >> b.lo >> b.hi;
    for (size_t i = 1; i + 1 < shape.size();) {
      size_t j = shape.find_first_of(",]", i);
      if (j == std::string::npos)
        fail(path + ": bad signature line '" + line + "'");
      b.shape.push_back(parseInt(shape.substr(i, j - i), path + ": a dimension of the signature"));
      i = j + 1;
    }
    (kind == "in" ? m.inputs : m.outputs).push_back(b);
  }
  for (const DetectionOutputs &d : m.detections) {
    size_t n = m.outputs.size();
    if (std::max({d.boxes, d.scores, d.classes}) >= n ||
        !hasDetectionShapes(m.outputs[d.boxes].shape, m.outputs[d.scores].shape,
                            m.outputs[d.classes].shape))
      fail(path + ": the signature's detections " + std::to_string(d.boxes) + " " +
           std::to_string(d.scores) + " " + std::to_string(d.classes) +
           " are not the boxes, scores and classes of graph.nms");
  }
  m.packed = reinterpret_cast<void (*)(void **)>(
      symbol(m.handle, "_mlir__mlir_ciface_dlc_" + entry, path));
  m.memAlloc = reinterpret_cast<void *(*)(uint64_t, void *, bool)>(
      symbol(m.handle, "mgpuMemAlloc", path));
  m.memcpy = reinterpret_cast<void (*)(void *, void *, size_t, void *)>(
      symbol(m.handle, "mgpuMemcpy", path));
  m.synchronize = reinterpret_cast<void (*)(void *)>(
      symbol(m.handle, "mgpuStreamSynchronize", path));
  if (void *count = dlsym(m.handle, ("dlc_" + entry + "_weights_count").c_str())) {
    m.numWeights = *static_cast<const int64_t *>(count);
    m.weights =
        static_cast<const WeightEntry *>(symbol(m.handle, "dlc_" + entry + "_weights", path));
  }
  return m;
}

/// Fills the model's external weights from `path` (dlc-run's
/// --external-weights file).
uint64_t runner::loadWeights(const Model &m, const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail(path + ": cannot read");
  auto u64 = [&] {
    unsigned char b[8];
    if (!in.read(reinterpret_cast<char *>(b), 8))
      fail(path + ": truncated");
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= static_cast<uint64_t>(b[i]) << (8 * i);
    return v;
  };
  auto string = [&](const char *what) {
    uint64_t length = u64();
    if (length > 4096)
      fail(path + ": corrupt (" + what + " of " + std::to_string(length) + " bytes)");
    std::string s(length, '\0');
    if (!in.read(s.data(), s.size()))
      fail(path + ": truncated");
    return s;
  };
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "DLCWGT02", 8) != 0)
    fail(path + ": not a dlc weights file (of this version)");
  uint64_t count = u64();
  if (count != static_cast<uint64_t>(m.numWeights))
    fail(path + ": holds " + std::to_string(count) + " weights; the model has " +
         std::to_string(m.numWeights) + " (weights of another compilation?)");
  uint64_t regenerated = 0;
  for (int64_t i = 0; i < m.numWeights; ++i) {
    std::string name = string("a weight's name");
    uint64_t bytes = u64();
    const WeightEntry &w = m.weights[i];
    if (name != w.name || bytes != static_cast<uint64_t>(w.bytes))
      fail(path + ": weight " + std::to_string(i) + " is " + name + " (" + std::to_string(bytes) +
           " bytes); the model's is " + w.name + " (" + std::to_string(w.bytes) + " bytes)");
    char kind = 0;
    if (!in.get(kind))
      fail(path + ": truncated in " + name);
    if (kind == 0) {
      if (!in.read(static_cast<char *>(w.data), w.bytes))
        fail(path + ": truncated in " + name);
    } else if (kind == 1) { // the zoo's generator
      std::string parameter = string("a parameter's name");
      uint64_t seed = u64(), lo = u64(), hi = u64();
      double range[2];
      std::memcpy(&range[0], &lo, 8);
      std::memcpy(&range[1], &hi, 8);
      zoo::uniformParameter(static_cast<float *>(w.data), w.bytes / 4,
                            zoo::parameterSeed(parameter, seed), range[0], range[1]);
      regenerated += w.bytes;
    } else {
      fail(path + ": corrupt (weight " + name + " of unknown kind " + std::to_string(kind) + ")");
    }
  }
  return regenerated;
}

void runner::saveWeights(const Model &m, const std::string &path) {
  std::ofstream out(path, std::ios::binary);
  auto u64 = [&](uint64_t v) {
    for (int i = 0; i < 8; ++i)
      out.put(static_cast<char>(v >> (8 * i)));
  };
  out.write("DLCWGT02", 8);
  u64(m.numWeights);
  for (int64_t i = 0; i < m.numWeights; ++i) {
    const WeightEntry &w = m.weights[i];
    u64(std::strlen(w.name));
    out << w.name;
    u64(w.bytes);
    out.put(0);
    out.write(static_cast<const char *>(w.data), w.bytes);
  }
  if (!out)
    fail(path + ": cannot write");
}

void runner::fillRandomWeights(const Model &m, uint64_t seed) {
  for (int64_t i = 0; i < m.numWeights; ++i) {
    const WeightEntry &w = m.weights[i];
    SplitMix64 rng(seed + i);
    // A constant's name ends in its element type (__constant_64x3x7x7xf32,
    // ...xf16_3, ...xbf16); integers stay zero.
    std::string name = w.name;
    const char *type = name.find("xbf16") != std::string::npos ? "bf16"
                       : name.find("xf16") != std::string::npos ? "f16"
                       : name.find("f32") != std::string::npos  ? "f32"
                                                                : nullptr;
    if (!type)
      continue;
    const DType &t = dtypeNamed(type);
    for (int64_t k = 0; k < w.bytes / static_cast<int64_t>(t.bytes); ++k)
      setElement(t, static_cast<char *>(w.data), k, 0.05 * (2 * rng.unit() - 1));
  }
}
