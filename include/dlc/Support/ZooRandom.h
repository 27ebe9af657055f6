//===- ZooRandom.h - the zoo's pseudo-random weights ------------*- C++ -*-===//
//
// The generator of the zoo's parameters, header-only and without LLVM: the
// zoo builds its weights with it, and dlc-cuda-run regenerates them on a GPU
// machine from a weights file's recipes (a name, the model's seed and a
// range) instead of carrying their bytes.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_ZOORANDOM_H
#define DLC_SUPPORT_ZOORANDOM_H

#include <cstdint>
#include <string_view>

namespace dlc::zoo {

/// The seed of parameter `name` in a model built with `modelSeed`: FNV-1a
/// of the name, mixed with the model's seed.
inline uint64_t parameterSeed(std::string_view name, uint64_t modelSeed) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : name)
    h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h ^ (modelSeed * 0x9E37ull);
}

/// Writes `count` values uniform in [lo, hi) from `seed`'s splitmix64
/// stream, each rounded to f32 twice as the zoo does: u in [-1, 1) first,
/// then lo + (u + 1) / 2 * (hi - lo).
inline void uniformParameter(float *out, int64_t count, uint64_t seed, double lo, double hi) {
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  for (int64_t i = 0; i < count; ++i) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    double unit = static_cast<double>(z >> 11) * 0x1.0p-53;
    double u = static_cast<float>(2.0 * unit - 1.0);
    out[i] = static_cast<float>(lo + (u + 1.0) * 0.5 * (hi - lo));
  }
}

} // namespace dlc::zoo

#endif // DLC_SUPPORT_ZOORANDOM_H
