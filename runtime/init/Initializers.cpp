#include "init/Initializers.h"

#include "kernels/cpu/Parallel.h"

#include <cmath>
#include <numbers>

namespace tempo {

float hashInitValue(uint64_t flatIndex, uint64_t key, double scale) {
  uint32_t x = uint32_t(flatIndex) + uint32_t(key) * 0x9E3779B9u;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return float(scale * (2.0 * (double(x) / 4294967296.0) - 1.0));
}

uint64_t randomBits(uint64_t seed, uint64_t counter) {
  uint64_t z = seed + (counter + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double uniform01(uint64_t bits) { return double(bits >> 11) * 0x1.0p-53; }

namespace {

/// A tensor of `dtype`/`shape` whose element n is value(n) (a double), converted once;
/// elements are independent, so large arrays fill on every core.
template <class ValueOf>
Tensor fill(DType dtype, std::vector<int64_t> shape, ValueOf value) {
  Tensor t = Tensor::uninitialized(dtype, std::move(shape));
  visitDType(dtype, [&]<class T>() {
    T* p = t.data<T>();
    cpu::parallelFor(t.numel(), 16, [&](int64_t begin, int64_t end) {
      for (int64_t n = begin; n < end; ++n) p[n] = fromDouble<T>(value(uint64_t(n)));
    });
  });
  return t;
}

}  // namespace

Tensor hashInit(DType dtype, std::vector<int64_t> shape, uint64_t key, double scale) {
  return fill(dtype, std::move(shape), [&](uint64_t n) { return double(hashInitValue(n, key, scale)); });
}

Tensor normalInit(DType dtype, std::vector<int64_t> shape, uint64_t seed, double mean, double std) {
  return fill(dtype, std::move(shape), [&](uint64_t n) {
    double u1 = 1.0 - uniform01(randomBits(seed, 2 * n));
    double u2 = uniform01(randomBits(seed, 2 * n + 1));
    return mean + std * (std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2));
  });
}

Tensor uniformInit(DType dtype, std::vector<int64_t> shape, uint64_t seed, double low, double high) {
  return fill(dtype, std::move(shape),
              [&](uint64_t n) { return low + (high - low) * uniform01(randomBits(seed, n)); });
}

}  // namespace tempo
