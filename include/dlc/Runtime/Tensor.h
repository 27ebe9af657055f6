//===- Tensor.h - host tensors for the runtime and the tools ---*- C++ -*-===//
//
// A host tensor: element type, shape and values. Values are held as double
// whatever the element type, already rounded to it (see roundToDType), so
// that the reference interpreter is plain, obviously-correct C++. Integers
// beyond 2^53 in magnitude are not represented exactly.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_TENSOR_H
#define DLC_RUNTIME_TENSOR_H

#include "dlc/Runtime/Agreement.h"
#include "dlc/Support/Shape.h"
#include "llvm/ADT/StringRef.h"

#include <cstring>
#include <optional>
#include <vector>

namespace dlc {

/// Element types of graph tensors (the dialect's f32, f16, bf16, i8, i32, i64
/// and i1), plus f64 for files written by numpy's defaults.
enum class DType { F32, F16, BF16, F64, I8, I32, I64, I1 };

/// "f32", "i8", ... as in MLIR types.
llvm::StringRef dtypeName(DType type);
/// Parses "f32", "i8", ...
std::optional<DType> parseDType(llvm::StringRef name);
bool isFloat(DType type);
/// Bytes per element in files (i1 uses one byte).
int64_t dtypeBytes(DType type);

/// `value` as an int64, truncated toward zero and saturating at the int64
/// range (INT64_MAX, which exports write for "to the end", is 2^63 as a
/// double: out of range for a plain cast); NaN gives 0.
int64_t toInt64(double value);

/// Rounds `value` to a representable value of `type`: floats round to
/// nearest even, integers truncate toward zero and wrap, i1 is `value != 0`.
double roundToDType(DType type, double value);

/// The bits of `value` rounded to nearest even (as APFloat rounds) in a
/// binary float of `mant` mantissa and `expBits` exponent bits (f16: 10 and
/// 5, bf16: 7 and 8), with no APFloat on the way: every weight of a model
/// converted to f16 or bf16 goes through here.
uint64_t narrowFloatBits(double value, int mant, int expBits);
/// The value of the bits `bits` of such a float.
double widenFloatBits(uint64_t bits, int mant, int expBits);
/// The bf16 bits of the f32 bits `f`, as narrowFloatBits rounds them: the
/// same exponent range, so rounding the mantissa to nearest even is an
/// integer addition (a NaN becomes the quiet NaN of its sign).
inline uint16_t bf16FromF32Bits(uint32_t f) {
  return static_cast<uint16_t>((f & 0x7fffffff) > 0x7f800000 ? ((f >> 16) & 0x8000) | 0x7fc0
                                                             : (f + 0x7fff + ((f >> 16) & 1)) >> 16);
}
/// The f32 value of the bf16 bits `h` (exact: its upper half).
inline float f32FromBF16Bits(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}
/// The f16 bits of the f32 bits `f`, as narrowFloatBits rounds them (to
/// nearest even; past 65504 to infinity; a NaN to the quiet NaN of its sign).
inline uint16_t f16FromF32Bits(uint32_t f) {
  uint32_t sign = (f >> 16) & 0x8000, a = f & 0x7fffffff;
  if (a > 0x7f800000)
    return static_cast<uint16_t>(sign | 0x7e00);
  if (a >= 0x477ff000) // 65520 and up: infinity
    return static_cast<uint16_t>(sign | 0x7c00);
  if (a >= 0x38800000) // normal in f16: rebias, round off 13 mantissa bits
    return static_cast<uint16_t>(sign | ((a - (112u << 23) + 0xfff + ((a >> 13) & 1)) >> 13));
  // Subnormal in f16: units of 2^-24, rounded to nearest even.
  int shift = 126 - static_cast<int>(a >> 23);
  if (shift > 24)
    return static_cast<uint16_t>(sign);
  uint32_t m = (a & 0x7fffff) | 0x800000, rounded = m >> shift, rest = m & ((1u << shift) - 1),
           half = 1u << (shift - 1);
  rounded += rest > half || (rest == half && (rounded & 1));
  return static_cast<uint16_t>(sign | rounded);
}
/// The f32 value of the f16 bits `h` (exact).
inline float f32FromF16Bits(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) { // zero or subnormal: m units of 2^-24
    float v = static_cast<float>(m) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  uint32_t bits = sign | (e == 0x1f ? 0x7f800000 | (m << 13) : ((e + 112) << 23) | (m << 13));
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

/// Little-endian element encoding shared by files and constant payloads.
double decodeElement(DType type, const char *bytes);
void encodeElement(DType type, double value, char *bytes);

struct Tensor {
  DType dtype = DType::F32;
  Shape shape;
  std::vector<double> data;

  Tensor() = default;
  Tensor(DType dtype, llvm::ArrayRef<int64_t> shape)
      : dtype(dtype), shape(shape), data(numElements(shape), 0.0) {}

  int64_t size() const { return static_cast<int64_t>(data.size()); }
  /// "f32[1x3x224x224]" for messages.
  std::string describe() const;
};

/// Values that `seed` always produces: floats uniform in [-1, 1), integers in
/// [0, 10), i1 either value.
/// With `intRange`, integers are uniform in [first, second) instead.
Tensor randomTensor(DType type, llvm::ArrayRef<int64_t> shape, uint64_t seed,
                    std::optional<std::pair<int64_t, int64_t>> intRange =
                        std::nullopt);

/// Compares element by element (withinTolerance): the largest absolute and
/// relative errors, and no match on a shape or value mismatch.
Comparison compareTensors(const Tensor &actual, const Tensor &expected,
                          double atol, double rtol);

} // namespace dlc

#endif // DLC_RUNTIME_TENSOR_H
