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
// zoo's recipes: ZooRandom.h), or with pseudo-random values for timing
// alone (--save-weights writes them as filled), feeds the inputs, compares the outputs with expected ones
// (|actual - expected| <= atol + rtol * |expected|) and measures latency:
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
#include "dlc/Support/ZooRandom.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "dlc-cuda-run: error: %s\n", message.c_str());
  std::fflush(nullptr);
  std::_Exit(1);
}

//===----------------------------------------------------------------------===//
// Tensors: element types, .npy files, conversions.
//===----------------------------------------------------------------------===//

struct DType {
  std::string name;  ///< dlc's name: f32, bf16, i64, ...
  std::string descr; ///< the .npy descr dlc writes for it
  size_t bytes;      ///< on the device
  bool isFloat;
};

const DType &dtypeNamed(const std::string &name) {
  static const std::vector<DType> kTypes = {
      {"f32", "<f4", 4, true},  {"f64", "<f8", 8, true},  {"f16", "<f2", 2, true},
      {"bf16", "<f4", 2, true}, {"i64", "<i8", 8, false}, {"i32", "<i4", 4, false},
      {"i8", "|i1", 1, false},  {"i1", "|b1", 1, false}};
  for (const DType &t : kTypes)
    if (t.name == name)
      return t;
  fail("the model has buffers of type '" + name + "', which dlc-cuda-run cannot feed");
}

struct Buffer {
  const DType *dtype;
  std::vector<int64_t> shape;
  /// Valid values of an integer input, [lo, hi), where the model says.
  int64_t lo = 0, hi = 10;
  int64_t count() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};

std::string formatShape(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else { // subnormal: normalize
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) {
        mant <<= 1;
        --exp;
      }
      bits = sign | (exp << 23) | ((mant & 0x3ff) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

float bf16ToFloat(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t floatToBF16(float f) { // round to nearest even
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1)) >> 16);
}

/// Element `i` of device-format `data` as a double.
double element(const DType &t, const char *data, int64_t i) {
  const char *p = data + i * t.bytes;
  auto load = [&](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  if (t.name == "f32") return load(float());
  if (t.name == "f64") return load(double());
  if (t.name == "f16") return halfToFloat(load(uint16_t()));
  if (t.name == "bf16") return bf16ToFloat(load(uint16_t()));
  if (t.name == "i64") return static_cast<double>(load(int64_t()));
  if (t.name == "i32") return load(int32_t());
  if (t.name == "i8") return load(int8_t());
  return load(uint8_t()) != 0; // i1
}

/// `text` as a decimal integer, or a diagnostic naming `what`.
int64_t parseInt(const std::string &text, const std::string &what) {
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end || errno)
    fail(what + ": '" + text + "' is not an integer");
  return v;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail(path + ": cannot read");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A .npy file's value of header field `key` ('descr', 'shape', ...).
std::string npyField(const std::string &header, const std::string &key, const std::string &path) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    fail(path + ": .npy header has no '" + key + "'");
  at = header.find(':', at) + 1;
  while (header[at] == ' ')
    ++at;
  size_t end = header[at] == '(' ? header.find(')', at) + 1
               : header[at] == '\'' ? header.find('\'', at + 1) + 1
                                    : header.find_first_of(",}", at);
  return header.substr(at, end - at);
}

/// A .npy file's data in `buffer`'s device format, checked against its type
/// and shape.
std::vector<char> readNpy(const std::string &path, const Buffer &buffer) {
  std::string bytes = readFile(path);
  if (bytes.size() < 12 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    fail(path + ": not a .npy file");
  size_t headerLen, dataStart;
  if (bytes[6] == 1) {
    headerLen = static_cast<uint8_t>(bytes[8]) | static_cast<uint8_t>(bytes[9]) << 8;
    dataStart = 10 + headerLen;
  } else {
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    dataStart = 12 + headerLen;
  }
  if (dataStart > bytes.size())
    fail(path + ": truncated header");
  std::string header = bytes.substr(0, dataStart);
  std::string descr = npyField(header, "descr", path);
  if (descr.size() < 2)
    fail(path + ": bad descr in the .npy header");
  descr = descr.substr(1, descr.size() - 2);
  if (npyField(header, "fortran_order", path) != "False")
    fail(path + ": Fortran-ordered .npy files are not supported");
  std::string shapeText = npyField(header, "shape", path);
  std::vector<int64_t> shape;
  for (size_t i = 1; i < shapeText.size();) {
    size_t j = shapeText.find_first_of(",)", i);
    if (j == std::string::npos)
      fail(path + ": bad shape in the .npy header");
    std::string dim = shapeText.substr(i, j - i);
    dim.erase(0, dim.find_first_not_of(' '));
    if (!dim.empty())
      shape.push_back(parseInt(dim, path + ": a dimension"));
    i = j + 1;
  }
  const DType &t = *buffer.dtype;
  if (descr != t.descr && !(descr == "<i1" && t.descr == "|i1") &&
      !(descr == "<b1" && t.descr == "|b1"))
    fail(path + ": holds '" + descr + "' data; the model's buffer is " + t.name + " (expected '" +
         t.descr + "')");
  if (shape != buffer.shape)
    fail(path + ": shape " + formatShape(shape) + " differs from the model's " +
         formatShape(buffer.shape));
  int64_t n = buffer.count();
  size_t fileBytes = t.name == "bf16" ? 4 : t.bytes;
  if (bytes.size() - dataStart < n * fileBytes)
    fail(path + ": truncated data");
  std::vector<char> data(n * t.bytes);
  if (t.name == "bf16") { // written as f32
    for (int64_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, bytes.data() + dataStart + 4 * i, 4);
      uint16_t h = floatToBF16(f);
      std::memcpy(data.data() + 2 * i, &h, 2);
    }
  } else {
    std::memcpy(data.data(), bytes.data() + dataStart, data.size());
  }
  return data;
}

void writeNpy(const std::string &path, const Buffer &buffer, const std::vector<char> &data) {
  const DType &t = *buffer.dtype;
  std::string shape = "(";
  for (int64_t d : buffer.shape)
    shape += std::to_string(d) + ",";
  if (buffer.shape.size() > 1)
    shape.pop_back();
  shape += ")";
  std::string header =
      "{'descr': '" + t.descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  uint16_t len = static_cast<uint16_t>(header.size());
  out.write("\x93NUMPY\x01\x00", 8);
  out.put(static_cast<char>(len & 0xff));
  out.put(static_cast<char>(len >> 8));
  out << header;
  if (t.name == "bf16")
    for (int64_t i = 0; i < buffer.count(); ++i) {
      float f = static_cast<float>(element(t, data.data(), i));
      out.write(reinterpret_cast<const char *>(&f), 4);
    }
  else
    out.write(data.data(), data.size());
  if (!out)
    fail(path + ": cannot write");
}

/// splitmix64, as dlc's randomTensor.
struct Random {
  uint64_t state;
  explicit Random(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  double unit() { // [0, 1)
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
  }
};

/// Rounds to the nearest IEEE half, ties to even.
uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t abs = bits & 0x7fffffffu;
  if (abs > 0x7f800000u)
    return sign | 0x7e00;
  if (abs >= 0x477ff000u) // rounds to 65520 or more: infinity
    return sign | 0x7c00;
  if (abs < 0x38800000u) { // subnormal or zero: a multiple of 2^-24
    float scaled = std::fabs(f) * 16777216.0f;
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1);
  return sign | static_cast<uint16_t>((rounded - 0x38000000u) >> 13);
}

/// `count` elements of `b` in device format, as dlc-run's random:seed=N:
/// floats uniform in [-1, 1), integers in the input's range, booleans 0
/// or 1.
std::vector<char> randomInput(const Buffer &b, uint64_t seed) {
  const DType &t = *b.dtype;
  int64_t count = b.count();
  Random rng(seed);
  std::vector<char> data(count * t.bytes);
  for (int64_t i = 0; i < count; ++i) {
    double u = rng.unit();
    char *p = data.data() + i * t.bytes;
    auto store = [&](auto v) { std::memcpy(p, &v, sizeof(v)); };
    double v = t.isFloat ? 2 * u - 1 : std::floor(b.lo + u * static_cast<double>(b.hi - b.lo));
    if (t.name == "f32") store(static_cast<float>(v));
    else if (t.name == "f64") store(v);
    else if (t.name == "bf16") store(floatToBF16(static_cast<float>(v)));
    else if (t.name == "f16") store(floatToHalf(static_cast<float>(v)));
    else if (t.name == "i64") store(static_cast<int64_t>(v));
    else if (t.name == "i32") store(static_cast<int32_t>(v));
    else if (t.name == "i8") store(static_cast<int8_t>(v));
    else store(static_cast<uint8_t>(u < 0.5 ? 0 : 1));
  }
  return data;
}

//===----------------------------------------------------------------------===//
// The model library.
//===----------------------------------------------------------------------===//

struct WeightEntry {
  const char *name;
  void *data;
  int64_t bytes;
};

struct Model {
  void *handle = nullptr;
  std::vector<Buffer> inputs, outputs;
  void (*packed)(void **) = nullptr;
  void *(*memAlloc)(uint64_t, void *, bool) = nullptr;
  void (*memcpy)(void *, void *, size_t, void *) = nullptr;
  void (*synchronize)(void *) = nullptr;
  const WeightEntry *weights = nullptr;
  int64_t numWeights = 0;
};

void *symbol(void *handle, const std::string &name, const std::string &library) {
  void *s = dlsym(handle, name.c_str());
  if (!s)
    fail(library + ": no symbol " + name + " (not a library from dlc-run --target=cuda --emit=shared?)");
  return s;
}

/// Loads `path` (which loads the kernels: a driver or device problem ends
/// the process with the runtime's diagnostic) and reads its signature.
Model loadModel(const std::string &path, const std::string &entry) {
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
/// Fills the model's external weights from `path` (dlc-run's
/// --external-weights file): read, or regenerated from zoo recipes.
/// Returns the bytes regenerated.
uint64_t loadWeights(const Model &m, const std::string &path) {
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
      dlc::zoo::uniformParameter(static_cast<float *>(w.data), w.bytes / 4,
                            dlc::zoo::parameterSeed(parameter, seed), range[0], range[1]);
      regenerated += w.bytes;
    } else {
      fail(path + ": corrupt (weight " + name + " of unknown kind " + std::to_string(kind) + ")");
    }
  }
  return regenerated;
}

/// Writes the model's external weights as they are now to `path`, every
/// one as bytes (a weights file that needs no regeneration).
void saveWeights(const Model &m, const std::string &path) {
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

//===----------------------------------------------------------------------===//
// NVML: the GPU's state during the timed runs.
//===----------------------------------------------------------------------===//

struct NVML {
  using Device = void *;
  int (*init)() = nullptr;
  int (*handle)(unsigned, Device *) = nullptr;
  int (*power)(Device, unsigned *) = nullptr;
  int (*temperature)(Device, int, unsigned *) = nullptr;
  int (*clock)(Device, int, unsigned *) = nullptr;
  int (*memory)(Device, unsigned long long *) = nullptr;
  int (*name)(Device, char *, unsigned) = nullptr;
  int (*driver)(char *, unsigned) = nullptr;
  Device device = nullptr;
  std::string why; ///< why there are no samples

  NVML() {
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      why = "no NVML (libnvidia-ml.so.1)";
      return;
    }
    auto bind = [&](auto &fn, const char *s) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, s));
      return fn != nullptr;
    };
    if (!bind(init, "nvmlInit_v2") || !bind(handle, "nvmlDeviceGetHandleByIndex_v2") ||
        !bind(power, "nvmlDeviceGetPowerUsage") || !bind(temperature, "nvmlDeviceGetTemperature") ||
        !bind(clock, "nvmlDeviceGetClockInfo") || !bind(memory, "nvmlDeviceGetMemoryInfo") ||
        !bind(name, "nvmlDeviceGetName") || !bind(driver, "nvmlSystemGetDriverVersion")) {
      why = "NVML lacks an entry point";
      return;
    }
    // NVML's device 0 (PCI order) is CUDA's device 0, which the runtime
    // uses, unless CUDA_VISIBLE_DEVICES or CUDA_DEVICE_ORDER reorder them.
    if (init() != 0 || handle(0, &device) != 0) {
      why = "NVML did not start";
      device = nullptr;
    }
  }
  bool ok() const { return device != nullptr; }
};

struct Sample {
  double watts, memoryMiB, celsius, smMHz;
};

//===----------------------------------------------------------------------===//
// Statistics and output.
//===----------------------------------------------------------------------===//

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

} // namespace

int main(int argc, char **argv) {
  Options o = parseOptions(argc, argv);
  if (!o.profilePath.empty())
    setenv("DLC_CUDA_PROFILE", "1", 1); // read when the library loads its kernels
  Model m = loadModel(o.library, o.entry);
  if (!o.weights.empty() && m.numWeights == 0)
    fail("--weights: " + o.library + " keeps no weights outside (it was compiled without "
         "--external-weights)");
  if (!o.weights.empty()) {
    uint64_t regenerated = loadWeights(m, o.weights);
    if (regenerated)
      std::printf("weights: %.1f MiB regenerated from the zoo's generator\n",
                  regenerated / 1048576.0);
  } else if (o.randomWeightsSeed >= 0) {
    // Timing only: floating-point weights pseudo-random and small, integer
    // ones (indices, shapes) zero, so that no gather leaves its table.
    for (int64_t i = 0; i < m.numWeights; ++i) {
      const WeightEntry &w = m.weights[i];
      Random rng(o.randomWeightsSeed + i);
      auto *f = static_cast<float *>(w.data);
      // A constant's name ends in its element type (__constant_64x3x7x7xf32).
      std::string name = w.name;
      if (name.find("f32") != std::string::npos)
        for (int64_t k = 0; k < w.bytes / 4; ++k)
          f[k] = static_cast<float>(0.05 * (2 * rng.unit() - 1));
    }
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
  if (!o.inputs.empty() && o.inputs.size() != m.inputs.size() && o.inputs.size() != 1)
    fail(std::to_string(o.inputs.size()) + " --input given; the model takes " +
         std::to_string(m.inputs.size()));
  if (o.expects.size() > m.outputs.size())
    fail(std::to_string(o.expects.size()) + " --expect given; the model has " +
         std::to_string(m.outputs.size()) + " outputs");
  if (o.outputs.size() > m.outputs.size())
    fail(std::to_string(o.outputs.size()) + " --output given; the model has " +
         std::to_string(m.outputs.size()) + " outputs");

  // Device buffers: inputs filled, outputs written by the model.
  std::vector<std::vector<char>> hostIn, hostOut;
  std::vector<void *> device;
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    const Buffer &b = m.inputs[i];
    std::string spec = o.inputs.empty() ? "random:seed=1" : o.inputs[o.inputs.size() == 1 ? 0 : i];
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

  // The descriptors (allocated, aligned, offset, sizes, strides) and the
  // packed arguments: args[i] points at a pointer to descriptor i.
  std::vector<std::vector<int64_t>> descriptors;
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
  std::vector<void *> descriptorPtrs;
  for (auto &d : descriptors)
    descriptorPtrs.push_back(d.data());
  std::vector<void *> args;
  for (void *&p : descriptorPtrs)
    args.push_back(&p);
  std::function<void()> call = [&] { m.packed(args.data()); };

  auto start = std::chrono::steady_clock::now();
  call(); // the first call uploads the weights
  double firstMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  for (size_t i = 0; i < hostOut.size(); ++i)
    m.memcpy(hostOut[i].data(), device[m.inputs.size() + i], hostOut[i].size(), nullptr);
  m.synchronize(nullptr);

  // Outputs.
  bool match = true;
  std::string report;
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    const Buffer &b = m.outputs[i];
    if (i < o.outputs.size())
      writeNpy(o.outputs[i], b, hostOut[i]);
    if (i >= o.expects.size())
      continue;
    std::vector<char> expected = readNpy(o.expects[i], b);
    double maxAbs = 0, maxRel = 0;
    int64_t mismatches = 0, first = -1;
    for (int64_t k = 0; k < b.count(); ++k) {
      double a = element(*b.dtype, hostOut[i].data(), k);
      double e = element(*b.dtype, expected.data(), k);
      if (std::isnan(a) && std::isnan(e))
        continue;
      double err = std::fabs(a - e);
      if (std::isinf(e) && a == e)
        err = 0;
      if (!(err <= o.atol + o.rtol * std::fabs(e))) {
        ++mismatches;
        if (first < 0)
          first = k;
      }
      if (std::isfinite(err)) {
        maxAbs = std::max(maxAbs, err);
        if (e != 0)
          maxRel = std::max(maxRel, err / std::fabs(e));
      }
    }
    char line[512];
    std::snprintf(line, sizeof line,
                  "output %zu: %s %s max abs error %.3g, max rel error %.3g, %lld of %lld "
                  "elements outside atol %g rtol %g",
                  i, b.dtype->name.c_str(), formatShape(b.shape).c_str(), maxAbs, maxRel,
                  static_cast<long long>(mismatches), static_cast<long long>(b.count()), o.atol,
                  o.rtol);
    report += std::string(line) + "\n";
    if (mismatches) {
      match = false;
      std::snprintf(line, sizeof line, "  first at element %lld: %.9g, expected %.9g\n",
                    static_cast<long long>(first), element(*b.dtype, hostOut[i].data(), first),
                    element(*b.dtype, expected.data(), first));
      report += line;
    }
  }
  std::printf("%s", report.c_str());
  if (!o.expects.empty())
    std::printf("%s\n", match ? "outputs match" : "OUTPUTS DIFFER");
  std::printf("first call (weights uploaded): %.3f ms\n", firstMs);

  if (o.cudaGraph) {
    // A second call first: from it on, the memory pool hands each call the
    // same blocks, which the graph then keeps. The replay must give the
    // call's outputs exactly (the outputs are overwritten with a pattern
    // before it).
    auto begin = reinterpret_cast<void (*)()>(symbol(m.handle, "dlc_cuda_graph_begin", o.library));
    auto end = reinterpret_cast<void (*)()>(symbol(m.handle, "dlc_cuda_graph_end", o.library));
    auto launch =
        reinterpret_cast<void (*)()>(symbol(m.handle, "dlc_cuda_graph_launch", o.library));
    auto memset32 = reinterpret_cast<void (*)(void *, unsigned, size_t, void *)>(
        symbol(m.handle, "mgpuMemset32", o.library));
    call();
    begin();
    call();
    end();
    for (size_t i = 0; i < hostOut.size(); ++i)
      memset32(device[m.inputs.size() + i], 0x7fc00001u, hostOut[i].size() / 4, nullptr);
    launch();
    for (size_t i = 0; i < hostOut.size(); ++i) {
      std::vector<char> replayed(hostOut[i].size());
      m.memcpy(replayed.data(), device[m.inputs.size() + i], replayed.size(), nullptr);
      m.synchronize(nullptr);
      if (replayed != hostOut[i])
        fail("the CUDA graph's output " + std::to_string(i) +
             " differs from the call's: the model's call cannot be replayed");
    }
    std::printf("CUDA graph: captured, replayed, outputs equal to the call's\n");
    call = [&] { launch(); };
  }

  // Latency.
  std::vector<double> samplesMs;
  std::vector<Sample> gpu;
  NVML nvml;
  std::string gpuName, driverVersion;
  if (o.bench) {
    using Clock = std::chrono::steady_clock;
    auto seconds = [](Clock::time_point since) {
      return std::chrono::duration<double>(Clock::now() - since).count();
    };
    auto warmStart = Clock::now();
    for (int64_t i = 0; i < o.warmup && seconds(warmStart) < o.maxSeconds; ++i)
      call();
    std::atomic<bool> sampling{true};
    std::thread sampler;
    if (nvml.ok()) {
      char name[96] = {0}, version[96] = {0};
      nvml.name(nvml.device, name, sizeof name);
      nvml.driver(version, sizeof version);
      gpuName = name;
      driverVersion = version;
      sampler = std::thread([&] {
        while (sampling) {
          unsigned mw = 0, c = 0, mhz = 0;
          unsigned long long mem[3] = {0, 0, 0}; // total, free, used
          bool read = nvml.power(nvml.device, &mw) == 0 &&
                      nvml.temperature(nvml.device, 0, &c) == 0 &&
                      nvml.clock(nvml.device, 1, &mhz) == 0 && nvml.memory(nvml.device, mem) == 0;
          if (read)
            gpu.push_back({mw / 1000.0, mem[2] / 1048576.0, double(c), double(mhz)});
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
      });
    }
    auto timedStart = Clock::now();
    for (int64_t i = 0; i < o.runs && (i < 5 || seconds(timedStart) < o.maxSeconds); ++i) {
      auto t0 = std::chrono::steady_clock::now();
      call();
      samplesMs.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    sampling = false;
    if (sampler.joinable())
      sampler.join();
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
                percentile(samplesMs, 50),
                percentile(samplesMs, 90), percentile(samplesMs, 99),
                *std::min_element(samplesMs.begin(), samplesMs.end()), mean, 100 * cv,
                1000.0 * batch / mean, static_cast<long long>(batch));
    if (!gpu.empty()) {
      std::vector<double> watts, mem, temp, clock;
      for (const Sample &s : gpu) {
        watts.push_back(s.watts);
        mem.push_back(s.memoryMiB);
        temp.push_back(s.celsius);
        clock.push_back(s.smMHz);
      }
      std::printf("GPU (%s, driver %s, %zu NVML samples): power median %.1f W max %.1f W, "
                  "energy %.3f J/inference, memory used max %.0f MiB, temperature max %.0f C, "
                  "SM clock median %.0f MHz\n",
                  gpuName.c_str(), driverVersion.c_str(), gpu.size(), percentile(watts, 50),
                  percentile(watts, 100), percentile(watts, 50) * mean / 1000.0 / batch,
                  percentile(mem, 100), percentile(temp, 100), percentile(clock, 50));
    } else {
      std::printf("GPU power, memory, temperature: not sampled (%s)\n",
                  nvml.why.empty() ? "the run was shorter than one sample" : nvml.why.c_str());
    }
    if (!o.jsonPath.empty()) {
      std::ofstream j(o.jsonPath);
      auto stat = [&](const char *k, const std::vector<double> &v) {
        j << "\"" << k << "\": {\"p50\": " << percentile(v, 50) << ", \"max\": " << percentile(v, 100)
          << "}";
      };
      j << "{\"library\": \"" << jsonEscape(o.library) << "\", \"gpu\": \"" << jsonEscape(gpuName)
        << "\", \"driver\": \"" << jsonEscape(driverVersion) << "\", \"batch\": " << batch
        << ", \"cuda_graph\": " << (o.cudaGraph ? "true" : "false")
        << ", \"first_call_ms\": " << firstMs << ", \"outputs_match\": "
        << (o.expects.empty() ? "null" : match ? "true" : "false") << ", \"latency_ms\": {\"p50\": "
        << percentile(samplesMs, 50) << ", \"p90\": " << percentile(samplesMs, 90)
        << ", \"p99\": " << percentile(samplesMs, 99) << ", \"mean\": " << mean << ", \"cv\": " << cv
        << "}, \"runs\": " << samplesMs.size() << ", \"throughput_per_s\": " << 1000.0 * batch / mean;
      if (!gpu.empty()) {
        std::vector<double> watts, mem;
        for (const Sample &s : gpu) {
          watts.push_back(s.watts);
          mem.push_back(s.memoryMiB);
        }
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
  }
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
