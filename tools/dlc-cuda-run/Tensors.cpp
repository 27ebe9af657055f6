//===- Tensors.cpp - dlc-cuda-run's tensors: .npy files, element types ----===//
#include "Runner.h"
#include "dlc/Support/Random.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace dlc;
using namespace dlc::runner;

[[noreturn]] void runner::fail(const std::string &message) {
  std::fprintf(stderr, "dlc-cuda-run: error: %s\n", message.c_str());
  std::fflush(nullptr);
  std::_Exit(1);
}

const DType &runner::dtypeNamed(const std::string &name) {
  static const std::vector<DType> kTypes = {
      {"f32", "<f4", 4, true},  {"f64", "<f8", 8, true},  {"f16", "<f2", 2, true},
      {"bf16", "<f4", 2, true}, {"i64", "<i8", 8, false}, {"i32", "<i4", 4, false},
      {"i8", "|i1", 1, false},  {"i1", "|b1", 1, false}};
  for (const DType &t : kTypes)
    if (t.name == name)
      return t;
  fail("the model has buffers of type '" + name + "', which dlc-cuda-run cannot feed");
}

std::string runner::formatShape(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

static float halfToFloat(uint16_t h) {
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

static float bf16ToFloat(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

static uint16_t floatToBF16(float f) { // round to nearest even
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1)) >> 16);
}

double runner::element(const DType &t, const char *data, int64_t i) {
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

int64_t runner::parseInt(const std::string &text, const std::string &what) {
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end || errno)
    fail(what + ": '" + text + "' is not an integer");
  return v;
}

static std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail(path + ": cannot read");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A .npy file's value of header field `key` ('descr', 'shape', ...).
static std::string npyField(const std::string &header, const std::string &key, const std::string &path) {
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

std::vector<char> runner::readNpy(const std::string &path, const Buffer &buffer) {
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

void runner::writeNpy(const std::string &path, const Buffer &buffer, const std::vector<char> &data) {
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

/// Rounds to the nearest IEEE half, ties to even.
static uint16_t floatToHalf(float f) {
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

void runner::setElement(const DType &t, char *data, int64_t i, double v) {
  char *p = data + i * t.bytes;
  auto store = [&](auto x) { std::memcpy(p, &x, sizeof(x)); };
  if (t.name == "f32") store(static_cast<float>(v));
  else if (t.name == "f64") store(v);
  else if (t.name == "bf16") store(floatToBF16(static_cast<float>(v)));
  else if (t.name == "f16") store(floatToHalf(static_cast<float>(v)));
  else if (t.name == "i64") store(static_cast<int64_t>(v));
  else if (t.name == "i32") store(static_cast<int32_t>(v));
  else if (t.name == "i8") store(static_cast<int8_t>(v));
  else store(static_cast<uint8_t>(v != 0)); // i1
}

std::vector<char> runner::randomInput(const Buffer &b, uint64_t seed) {
  const DType &t = *b.dtype;
  int64_t count = b.count();
  SplitMix64 rng(seed);
  std::vector<char> data(count * t.bytes);
  for (int64_t i = 0; i < count; ++i) {
    double u = rng.unit();
    double v = t.isFloat                 ? 2 * u - 1
               : t.name == "i1"          ? (u < 0.5 ? 0 : 1)
                                         : std::floor(b.lo + u * static_cast<double>(b.hi - b.lo));
    setElement(t, data.data(), i, v);
  }
  return data;
}

