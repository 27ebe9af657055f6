//===- Tensor.cpp - host tensors -------------------------------------------===//
#include "dlc/Runtime/Tensor.h"
#include "dlc/Support/Random.h"

#include "llvm/ADT/bit.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace dlc;

llvm::StringRef dlc::dtypeName(DType type) {
  switch (type) {
  case DType::F32: return "f32";
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::F64: return "f64";
  case DType::I8: return "i8";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::I1: return "i1";
  }
  return "?";
}

std::optional<DType> dlc::parseDType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Case("f32", DType::F32)
      .Case("f16", DType::F16)
      .Case("bf16", DType::BF16)
      .Case("f64", DType::F64)
      .Case("i8", DType::I8)
      .Case("i32", DType::I32)
      .Case("i64", DType::I64)
      .Case("i1", DType::I1)
      .Default(std::nullopt);
}

bool dlc::isFloat(DType type) {
  return type == DType::F32 || type == DType::F16 || type == DType::BF16 ||
         type == DType::F64;
}

int64_t dlc::dtypeBytes(DType type) {
  switch (type) {
  case DType::F64:
  case DType::I64: return 8;
  case DType::F32:
  case DType::I32: return 4;
  case DType::F16:
  case DType::BF16: return 2;
  case DType::I8:
  case DType::I1: return 1;
  }
  return 0;
}

/// The mantissa and exponent bits of f16 or bf16.
static std::pair<int, int> halfFormat(DType type) {
  return type == DType::F16 ? std::pair{10, 5} : std::pair{7, 8};
}

uint64_t dlc::narrowFloatBits(double value, int mant, int expBits) {
  int bias = (1 << (expBits - 1)) - 1, maxExp = (1 << expBits) - 1;
  uint64_t b = llvm::bit_cast<uint64_t>(value);
  uint64_t sign = (b >> 63) << (mant + expBits), inf = uint64_t(maxExp) << mant;
  int exp = static_cast<int>((b >> 52) & 0x7ff);
  uint64_t frac = b & ((uint64_t(1) << 52) - 1);
  if (exp == 0x7ff)
    return sign | inf | (frac ? uint64_t(1) << (mant - 1) : 0);
  if (exp == 0) // a double subnormal is below half the least subnormal
    return sign;
  int e = exp - 1023 + bias;
  int shift = 52 - mant + (e < 1 ? 1 - e : 0);
  if (shift > 53)
    return sign;
  uint64_t m = (uint64_t(1) << 52) | frac;
  uint64_t rounded = m >> shift, rest = m & ((uint64_t(1) << shift) - 1);
  uint64_t halfway = uint64_t(1) << (shift - 1);
  if (rest > halfway || (rest == halfway && (rounded & 1)))
    ++rounded;
  // A carry out of the mantissa moves into the exponent, up to infinity.
  uint64_t h = e < 1 ? rounded : (uint64_t(e - 1) << mant) + rounded;
  return sign | std::min(h, inf);
}

double dlc::widenFloatBits(uint64_t bits, int mant, int expBits) {
  // The double's bits, built directly (every f16 and bf16 value is a
  // normal double): models convert millions of weights through here.
  int bias = (1 << (expBits - 1)) - 1, maxExp = (1 << expBits) - 1;
  int e = static_cast<int>((bits >> mant) & maxExp);
  uint64_t f = bits & ((uint64_t(1) << mant) - 1);
  uint64_t sign = ((bits >> (mant + expBits)) & 1) << 63;
  if (e == maxExp)
    return llvm::bit_cast<double>(sign | (uint64_t(0x7ff) << 52) | (f ? uint64_t(1) << 51 : 0));
  if (e == 0) { // subnormal: f units of 2^(1 - bias - mant), exact in double
    double unit = llvm::bit_cast<double>(uint64_t(1023 + 1 - bias - mant) << 52);
    double v = static_cast<double>(f) * unit;
    return sign ? -v : v;
  }
  return llvm::bit_cast<double>(sign | (uint64_t(e - bias + 1023) << 52) | (f << (52 - mant)));
}

int64_t dlc::toInt64(double value) {
  if (std::isnan(value))
    return 0;
  if (value >= 9223372036854775807.0)
    return std::numeric_limits<int64_t>::max();
  if (value <= -9223372036854775808.0)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(value);
}

/// Truncates toward zero and wraps into a `bits`-bit two's complement value.
static double wrapInteger(double value, unsigned bits) {
  if (std::isnan(value))
    return 0;
  double t = std::trunc(value);
  // Out-of-range values saturate to int64 first (C leaves them undefined).
  if (t >= 9.2233720368547758e18)
    t = 9.2233720368547748e18;
  if (t < -9.2233720368547758e18)
    t = -9.2233720368547758e18;
  int64_t i = static_cast<int64_t>(t);
  if (bits == 64)
    return static_cast<double>(i);
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t u = static_cast<uint64_t>(i) & mask;
  if (u >> (bits - 1))
    return static_cast<double>(static_cast<int64_t>(u) -
                               static_cast<int64_t>(mask) - 1);
  return static_cast<double>(u);
}

double dlc::roundToDType(DType type, double value) {
  switch (type) {
  case DType::F32: return static_cast<double>(static_cast<float>(value));
  case DType::F64: return value;
  case DType::F16:
  case DType::BF16: {
    auto [mant, exp] = halfFormat(type);
    return widenFloatBits(narrowFloatBits(value, mant, exp), mant, exp);
  }
  case DType::I8: return wrapInteger(value, 8);
  case DType::I32: return wrapInteger(value, 32);
  case DType::I64: return wrapInteger(value, 64);
  case DType::I1: return value != 0 ? 1.0 : 0.0;
  }
  return value;
}

double dlc::decodeElement(DType type, const char *bytes) {
  switch (type) {
  case DType::F32: {
    float f;
    std::memcpy(&f, bytes, 4);
    return f;
  }
  case DType::F64: {
    double d;
    std::memcpy(&d, bytes, 8);
    return d;
  }
  case DType::F16:
  case DType::BF16: {
    uint16_t bits;
    std::memcpy(&bits, bytes, 2);
    auto [mant, exp] = halfFormat(type);
    return widenFloatBits(bits, mant, exp);
  }
  case DType::I8: return static_cast<int8_t>(bytes[0]);
  case DType::I32: {
    int32_t i;
    std::memcpy(&i, bytes, 4);
    return i;
  }
  case DType::I64: {
    int64_t i;
    std::memcpy(&i, bytes, 8);
    return static_cast<double>(i);
  }
  case DType::I1: return bytes[0] != 0;
  }
  return 0;
}

void dlc::encodeElement(DType type, double value, char *bytes) {
  // Floats round as they are stored; integers wrap first.
  if (!isFloat(type))
    value = roundToDType(type, value);
  switch (type) {
  case DType::F32: {
    float f = static_cast<float>(value);
    std::memcpy(bytes, &f, 4);
    return;
  }
  case DType::F64: std::memcpy(bytes, &value, 8); return;
  case DType::F16:
  case DType::BF16: {
    auto [mant, exp] = halfFormat(type);
    auto bits = static_cast<uint16_t>(narrowFloatBits(value, mant, exp));
    std::memcpy(bytes, &bits, 2);
    return;
  }
  case DType::I8: bytes[0] = static_cast<char>(static_cast<int8_t>(value)); return;
  case DType::I32: {
    int32_t i = static_cast<int32_t>(value);
    std::memcpy(bytes, &i, 4);
    return;
  }
  case DType::I64: {
    int64_t i = toInt64(value);
    std::memcpy(bytes, &i, 8);
    return;
  }
  case DType::I1: bytes[0] = value != 0; return;
  }
}

std::string Tensor::describe() const {
  return dtypeName(dtype).str() + "[" + formatShape(shape) + "]";
}

Tensor dlc::randomTensor(DType type, llvm::ArrayRef<int64_t> shape,
                         uint64_t seed,
                         std::optional<std::pair<int64_t, int64_t>> intRange) {
  Tensor t(type, shape);
  SplitMix64 random(seed);
  for (double &v : t.data) {
    double unit = random.unit();
    if (intRange && !isFloat(type))
      v = intRange->first +
          std::floor(unit * static_cast<double>(intRange->second - intRange->first));
    else if (isFloat(type))
      v = roundToDType(type, 2.0 * unit - 1.0);
    else if (type == DType::I1)
      v = unit < 0.5 ? 0.0 : 1.0;
    else
      v = std::floor(unit * 10.0);
  }
  return t;
}

Comparison dlc::compareTensors(const Tensor &actual, const Tensor &expected,
                               double atol, double rtol) {
  if (actual.shape != expected.shape) {
    Comparison c;
    c.match = false;
    c.reason = "shape " + formatShape(actual.shape) + " differs from expected " +
               formatShape(expected.shape);
    return c;
  }
  return compareValues(actual.data.data(), expected.data.data(), actual.size(), atol, rtol);
}
