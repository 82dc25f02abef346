// SplitMixRng: the deterministic random stream of the program generators.
//
// splitmix64 with a seed scramble and a few drawing helpers (a range, a
// chance, a pick, a weighted index), written without std distributions so
// that a seed gives the same program text on every platform and library.
#pragma once

#include <cstdint>
#include <vector>

namespace tempo::testing {

class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed * 0xD1B54A32D192ED03ULL + 0x632BE59BD9B4E019ULL) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<uint64_t>(hi - lo + 1)); }
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
  template <class T> const T& pick(const std::vector<T>& v) { return v[static_cast<size_t>(range(0, static_cast<int>(v.size()) - 1))]; }
  /// Index drawn with the given (non-negative, not all zero) weights.
  size_t weighted(const std::vector<double>& w) {
    double total = 0;
    for (double x : w) total += x;
    double r = static_cast<double>(next() >> 11) * 0x1.0p-53 * total;
    for (size_t i = 0; i < w.size(); ++i) {
      if (r < w[i]) return i;
      r -= w[i];
    }
    for (size_t i = w.size(); i-- > 0;)
      if (w[i] > 0) return i;
    return 0;
  }

private:
  uint64_t state_;
};

}  // namespace tempo::testing
