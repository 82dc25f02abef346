#include "init/Initializers.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tempo {
namespace {

/// The peers' rule written out again, independently of the library.
float hashByHand(uint32_t n, uint64_t key, double scale) {
  uint32_t x = n + uint32_t(key) * 0x9E3779B9u;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return float(scale * (2.0 * (double(x) / 4294967296.0) - 1.0));
}

TEST(Initializers, HashInitKnownValues) {
  // Values computed outside C++ (Python integer arithmetic, rounded to float32).
  EXPECT_EQ(hashInitValue(0, 0, 1.0), -1.0f);
  EXPECT_EQ(hashInitValue(1, 0, 1.0), -0x1.7766f4p-3f);
  EXPECT_EQ(hashInitValue(2, 7, 0.5), -0x1.6be9a6p-2f);
  EXPECT_EQ(hashInitValue(5, 42, 0.1), 0x1.e5f3f8p-7f);
  EXPECT_EQ(hashInitValue(123456, (uint64_t(1) << 32) + 3, 2.0), 0x1.79e404p+0f);  // key truncated to 32 bits
}

TEST(Initializers, HashInitTensorMatchesTheFormula) {
  Tensor t = hashInit(DType::F32, {3, 5}, 99, 0.25);
  ASSERT_EQ(t.shape(), (std::vector<int64_t>{3, 5}));
  for (int64_t n = 0; n < t.numel(); ++n) {
    EXPECT_EQ(t.data<float>()[n], hashByHand(uint32_t(n), 99, 0.25));
    EXPECT_GE(t.data<float>()[n], -0.25f);
    EXPECT_LE(t.data<float>()[n], 0.25f);
  }
  Tensor d = hashInit(DType::F64, {4}, 99, 0.25);
  for (int64_t n = 0; n < 4; ++n) EXPECT_EQ(d.data<double>()[n], double(t.data<float>()[n]));  // the float, widened
}

TEST(Initializers, SplitMix64Reference) {
  // The published splitmix64 sequence for seed 0.
  EXPECT_EQ(randomBits(0, 0), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(randomBits(0, 1), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(randomBits(0, 2), 0x06C45D188009454Full);
  EXPECT_EQ(uniform01(0), 0.0);
  EXPECT_LT(uniform01(~uint64_t(0)), 1.0);
}

TEST(Initializers, UniformKnownValuesAndRange) {
  Tensor t = uniformInit(DType::F64, {2}, 1234, -2.0, 1.0);
  EXPECT_DOUBLE_EQ(t.at(0), 0.1919995736218718);
  EXPECT_DOUBLE_EQ(t.at(1), -0.2213304259550415);
  Tensor big = uniformInit(DType::F32, {10000}, 5, 3.0, 4.0);
  double sum = 0;
  for (int64_t i = 0; i < big.numel(); ++i) {
    EXPECT_GE(big.at(i), 3.0);
    EXPECT_LE(big.at(i), 4.0);
    sum += big.at(i);
  }
  EXPECT_NEAR(sum / big.numel(), 3.5, 0.01);
}

TEST(Initializers, NormalKnownValues) {
  Tensor t = normalInit(DType::F64, {2}, 1234, 0.0, 1.0);
  EXPECT_NEAR(t.at(0), -1.3516217050209425, 1e-14);
  EXPECT_NEAR(t.at(1), -0.23235116624207014, 1e-14);
  Tensor shifted = normalInit(DType::F32, {2}, 1234, 10.0, 2.0);
  EXPECT_EQ(shifted.at(0), double(float(10.0 + 2.0 * t.at(0))));
}

TEST(Initializers, NormalStatistics) {
  const int64_t n = 100000;
  Tensor t = normalInit(DType::F64, {n}, 42, 1.5, 0.5);
  double sum = 0, sumSq = 0;
  int64_t withinOneSigma = 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = t.at(i);
    ASSERT_TRUE(std::isfinite(v));
    sum += v;
    sumSq += v * v;
    withinOneSigma += std::abs(v - 1.5) < 0.5;
  }
  double mean = sum / n, stddev = std::sqrt(sumSq / n - mean * mean);
  EXPECT_NEAR(mean, 1.5, 0.01);    // standard error 0.0016
  EXPECT_NEAR(stddev, 0.5, 0.01);
  EXPECT_NEAR(double(withinOneSigma) / n, 0.6827, 0.01);
}

TEST(Initializers, DeterministicAndSeedSensitive) {
  Tensor a = normalInit(DType::F32, {7, 3}, 9, 0, 1), b = normalInit(DType::F32, {7, 3}, 9, 0, 1);
  Tensor c = normalInit(DType::F32, {7, 3}, 10, 0, 1);
  bool differs = false;
  for (int64_t i = 0; i < a.numel(); ++i) {
    EXPECT_EQ(a.at(i), b.at(i));
    differs |= a.at(i) != c.at(i);
  }
  EXPECT_TRUE(differs);
  // Element n depends on n only, not on the shape it sits in.
  Tensor flat = normalInit(DType::F32, {21}, 9, 0, 1);
  for (int64_t i = 0; i < 21; ++i) EXPECT_EQ(flat.at(i), a.at(i));
}

TEST(Initializers, IntegerAndBoolDTypesConvert) {
  Tensor i = uniformInit(DType::I32, {100}, 3, 0.0, 10.0);
  for (int64_t k = 0; k < i.numel(); ++k) {
    EXPECT_GE(i.at(k), 0);
    EXPECT_LE(i.at(k), 9);
  }
  EXPECT_EQ(hashInit(DType::Bool, {1}, 0, 1.0).at(0), 1.0);  // -1.0 != 0
}

}  // namespace
}  // namespace tempo
