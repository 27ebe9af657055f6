//===- Random.h - dlc's pseudo-random streams -------------------*- C++ -*-===//
//
// splitmix64, the generator behind random inputs (randomTensor, dlc-run and
// dlc-cuda-run's random:seed=N) and the zoo's weights, header-only and
// without LLVM: dlc-cuda-run regenerates inputs and zoo weights on a GPU
// machine with the same code that made them here.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_RANDOM_H
#define DLC_SUPPORT_RANDOM_H

#include <cstdint>
#include <string_view>

namespace dlc {

/// splitmix64: the same stream on every platform.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed)
      : state(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  /// The next value, uniform in [0, 1).
  double unit() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
  }

private:
  uint64_t state;
};

namespace zoo {

/// The seed of parameter `name` in a model built with `modelSeed`: FNV-1a
/// of the name, mixed with the model's seed.
inline uint64_t parameterSeed(std::string_view name, uint64_t modelSeed) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : name)
    h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h ^ (modelSeed * 0x9E37ull);
}

/// Writes `count` values uniform in [lo, hi) from `seed`'s stream, each
/// rounded to f32 twice as the zoo does: u in [-1, 1) first (randomTensor's
/// f32 values), then lo + (u + 1) / 2 * (hi - lo).
inline void uniformParameter(float *out, int64_t count, uint64_t seed, double lo, double hi) {
  SplitMix64 random(seed);
  for (int64_t i = 0; i < count; ++i) {
    double u = static_cast<float>(2.0 * random.unit() - 1.0);
    out[i] = static_cast<float>(lo + (u + 1.0) * 0.5 * (hi - lo));
  }
}

} // namespace zoo
} // namespace dlc

#endif // DLC_SUPPORT_RANDOM_H
