// Branch-free exp, sigmoid and tanh over float arrays in float arithmetic; see FastMath.h.
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

[[gnu::always_inline]] inline float clampF(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }  // keeps NaN

/// e^x in float arithmetic, every multiply-add an explicit fma (the generated kernels and the CUDA
/// prelude emit the same operations, so all give the same bits): x clamped to [-104, 89], where the
/// float result is already 0 or inf (NaN stays NaN); x = k ln 2 + r by Cody-Waite, |r| <= ln 2 / 2;
/// e^r by its degree-7 Taylor polynomial; 2^k applied as two normal factors, so that a result down
/// to the smallest denormal is rounded once. Within 1 ulp of the reference (double e^x rounded to
/// float) on every float, 0.24% of them off by that ulp.
[[gnu::always_inline]] inline float expCoreF32(float x) {
  x = clampF(x, -104.0f, 89.0f);
  constexpr float shifter = 0x1.8p23f;
  float kd = std::fma(x, 1.44269504f, shifter);  // round(x / ln 2) in the low mantissa bits
  const int32_t k = static_cast<int32_t>(std::bit_cast<uint32_t>(kd) - std::bit_cast<uint32_t>(shifter));
  kd -= shifter;
  float r = std::fma(-kd, 0x1.62e43p-1f, x);
  r = std::fma(-kd, -0x1.05c610p-29f, r);  // ln 2 - 0x1.62e43p-1
  float p = 1.0f / 5040;
  p = std::fma(p, r, 1.0f / 720);
  p = std::fma(p, r, 1.0f / 120);
  p = std::fma(p, r, 1.0f / 24);
  p = std::fma(p, r, 1.0f / 6);
  p = std::fma(p, r, 0.5f);
  p = std::fma(p, r, 1.0f);
  p = std::fma(p, r, 1.0f);
  const int32_t half = k >> 1;  // k in [-150, 128]: both halves are normal exponents
  const float lower = std::bit_cast<float>(static_cast<uint32_t>(half + 127) << 23);
  const float upper = std::bit_cast<float>(static_cast<uint32_t>(k - half + 127) << 23);
  return p * lower * upper;
}

/// 1 / (1 + e^-x): e = e^-|x| in float (never overflows), then 1 / (1 + e) for x >= 0 or
/// e / (1 + e) below, in double and rounded once. Within 1 ulp of the reference on every float
/// (1.7% of them off by that ulp); -0 gives 0.5, NaN stays NaN.
[[gnu::always_inline]] inline float sigmoidCoreF32(float x) {
  const double e = static_cast<double>(expCoreF32(-std::fabs(x)));
  return static_cast<float>((x < 0.0f ? e : 1.0) / (1.0 + e));
}

/// tanh in float arithmetic, every multiply-add an explicit fma: the odd Taylor series up to
/// x^21 below |x| = 0.625, above it 1 - 2 / (e^2|x| + 1) with expCoreF32. Within 2 ulp of the
/// correctly rounded tanh (tested on every float).
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
  float big = 1.0f - 2.0f / (expCoreF32(a + a) + 1.0f);
  return std::copysign(a < 0.625f ? series : big, d);  // -0 stays -0, NaN stays NaN
}

/// `Core` over an array, compiled per ISA with FMA (its explicit fmas are instructions only
/// where the ISA has them) and picked by what the CPU reports: target_clones cannot ask for two
/// features in one clone, and "arch=" clones are chosen by CPU model, which a VM may hide.
template <float (*Core)(float)>
TEMPO_TARGET("avx512f,avx512dq,fma") void mapAvx512(const float* __restrict in, float* __restrict out, int64_t n) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = Core(in[i]);
}

template <float (*Core)(float)>
TEMPO_TARGET("avx2,fma") void mapAvx2(const float* __restrict in, float* __restrict out, int64_t n) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = Core(in[i]);
}

template <float (*Core)(float)>
void mapBaseline(const float* __restrict in, float* __restrict out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = Core(in[i]);
}

template <float (*Core)(float)>
void map(const float* in, float* out, int64_t n) {
  using Kernel = void (*)(const float*, float*, int64_t);
  static const Kernel kernel = [] {
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma"))
      return Kernel(mapAvx512<Core>);
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Kernel(mapAvx2<Core>);
#endif
    return Kernel(mapBaseline<Core>);
  }();
  kernel(in, out, n);
}

}  // namespace

void expF32(const float* in, float* out, int64_t n) { map<expCoreF32>(in, out, n); }
void tanhF32(const float* in, float* out, int64_t n) { map<tanhCoreF32>(in, out, n); }
void sigmoidF32(const float* in, float* out, int64_t n) { map<sigmoidCoreF32>(in, out, n); }

}  // namespace tempo
