// Branch-free exp/sigmoid (double precision) and tanh (float) over float arrays; see FastMath.h.
#include "kernels/cpu/FastMath.h"
#include "kernels/cpu/TargetClones.h"

// The clamps below are selects; with FP traps modelled GCC turns them back
// into branches around the (constant-folded) saturated cases and gives up
// vectorising. Nothing here reads the FP exception flags.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

#include <bit>
#include <cmath>
#include <cstdint>

namespace tempo::cpu {
namespace {

/// e^x for |x| <= 700 (callers clamp), relative error < 2e-16.
inline double expCore(double x) {
  constexpr double log2e = 1.4426950408889634, shifter = 0x1.8p52;
  constexpr double ln2hi = 0x1.62e42fefa3800p-1, ln2lo = 0x1.ef35793c76730p-45;
  double kd = x * log2e + shifter;                    // round(x / ln 2) in the low mantissa bits
  uint64_t kbits = std::bit_cast<uint64_t>(kd);
  kd -= shifter;
  double r = (x - kd * ln2hi) - kd * ln2lo;           // |r| <= ln2 / 2
  double p = 1.0 / 479001600;                          // 1/12!
  p = p * r + 1.0 / 39916800;
  p = p * r + 1.0 / 3628800;
  p = p * r + 1.0 / 362880;
  p = p * r + 1.0 / 40320;
  p = p * r + 1.0 / 5040;
  p = p * r + 1.0 / 720;
  p = p * r + 1.0 / 120;
  p = p * r + 1.0 / 24;
  p = p * r + 1.0 / 6;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  double scale = std::bit_cast<double>((kbits << 52) + (uint64_t(1023) << 52));  // 2^k
  return p * scale;
}

inline double clamp(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }  // keeps NaN

[[gnu::always_inline]] inline float clampF(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }  // keeps NaN

/// tanh in float arithmetic, every multiply-add an explicit fma (the generated kernels emit
/// the same operations, so both give the same bits): the odd Taylor series up to x^21 below
/// |x| = 0.625, above it 1 - 2 / (e^2|x| + 1) with e^y by Cody-Waite reduction and a
/// degree-7 polynomial. Within 2 ulp of the correctly rounded tanh (tested on every float).
[[gnu::always_inline]] inline float tanhCoreF32(float x) {
  float d = clampF(x, -10.0f, 10.0f);  // tanh rounds to +-1 beyond 9.01
  float a = std::fabs(d);
  float a2 = a * a;
  float s = 18888466084.0f / 194896477400625.0f;
  s = std::fma(a2, s, -443861162.0f / 1856156927625.0f);
  s = std::fma(a2, s, 6404582.0f / 10854718875.0f);
  s = std::fma(a2, s, -929569.0f / 638512875.0f);
  s = std::fma(a2, s, 21844.0f / 6081075.0f);
  s = std::fma(a2, s, -1382.0f / 155925.0f);
  s = std::fma(a2, s, 62.0f / 2835.0f);
  s = std::fma(a2, s, -17.0f / 315.0f);
  s = std::fma(a2, s, 2.0f / 15.0f);
  s = std::fma(a2, s, -1.0f / 3.0f);
  float series = std::fma(a, a2 * s, a);
  // e^y for y = 2a in [1.25, 20]: y = k ln 2 + r, |r| <= ln 2 / 2, e^y = 2^k e^r.
  float y = a + a;
  constexpr float shifter = 0x1.8p23f;
  float kd = std::fma(y, 1.44269504f, shifter);  // round(y / ln 2) in the low mantissa bits
  uint32_t kbits = std::bit_cast<uint32_t>(kd);
  kd -= shifter;
  float r = std::fma(-kd, 0x1.62e43p-1f, y);
  r = std::fma(-kd, -0x1.05c610p-29f, r);  // ln 2 - 0x1.62e43p-1
  float p = 1.0f / 5040;
  p = std::fma(p, r, 1.0f / 720);
  p = std::fma(p, r, 1.0f / 120);
  p = std::fma(p, r, 1.0f / 24);
  p = std::fma(p, r, 1.0f / 6);
  p = std::fma(p, r, 0.5f);
  p = std::fma(p, r, 1.0f);
  p = std::fma(p, r, 1.0f);
  float e = p * std::bit_cast<float>((kbits << 23) + (uint32_t(127) << 23));  // p * 2^k
  float big = 1.0f - 2.0f / (e + 1.0f);
  return std::copysign(a < 0.625f ? series : big, d);  // -0 stays -0, NaN stays NaN
}

}  // namespace

TEMPO_CLONES void expF32(const float* __restrict in, float* __restrict out, int64_t n) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = float(expCore(clamp(double(in[i]), -110.0, 100.0)));
}

// tanh's explicit fmas are instructions only where the ISA has them, so its loop is
// compiled per ISA with FMA and picked by what the CPU reports (target_clones cannot ask
// for two features in one clone; "arch=" clones are chosen by CPU model, which a VM may hide).
namespace {

TEMPO_TARGET("avx512f,avx512dq,fma") void tanhAvx512(const float* __restrict in, float* __restrict out, int64_t n) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = tanhCoreF32(in[i]);
}

TEMPO_TARGET("avx2,fma") void tanhAvx2(const float* __restrict in, float* __restrict out, int64_t n) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = tanhCoreF32(in[i]);
}

void tanhBaseline(const float* __restrict in, float* __restrict out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = tanhCoreF32(in[i]);
}

}  // namespace

void tanhF32(const float* in, float* out, int64_t n) {
  using Kernel = void (*)(const float*, float*, int64_t);
  static const Kernel kernel = [] {
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma"))
      return Kernel(tanhAvx512);
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Kernel(tanhAvx2);
#endif
    return Kernel(tanhBaseline);
  }();
  kernel(in, out, n);
}

TEMPO_CLONES void sigmoidF32(const float* __restrict in, float* __restrict out, int64_t n) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = float(1.0 / (1.0 + expCore(clamp(-double(in[i]), -110.0, 110.0))));
}

}  // namespace tempo::cpu
