// Branch-free exp, sigmoid and tanh over float arrays in float arithmetic; see FastMath.h.
#include "kernels/cpu/FastMath.h"
#include "kernels/cpu/TargetClones.h"
#include "ops/FastMathConstants.h"

// The clamps below are selects; with FP traps modelled GCC turns them back
// into branches around the (constant-folded) saturated cases and gives up
// vectorising. Nothing here reads the FP exception flags.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>

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
  using namespace fastmath;
  x = clampF(x, kExpLow, kExpHigh);
  float kd = std::fma(x, kLog2e, kRoundShifter);  // round(x / ln 2) in the low mantissa bits
  const int32_t k = static_cast<int32_t>(std::bit_cast<uint32_t>(kd) - std::bit_cast<uint32_t>(kRoundShifter));
  kd -= kRoundShifter;
  float r = std::fma(-kd, kLn2Hi, x);
  r = std::fma(-kd, kLn2Lo, r);
  float p = kExpPolynomial[0];
#pragma GCC unroll 16  // straight-line code: the array loops around it must vectorise
  for (size_t i = 1; i < std::size(kExpPolynomial); ++i) p = std::fma(p, r, kExpPolynomial[i]);
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
  using namespace fastmath;
  float d = clampF(x, -kTanhClamp, kTanhClamp);
  float a = std::fabs(d);
  float a2 = a * a;
  float s = kTanhSeries[0];
#pragma GCC unroll 16
  for (size_t i = 1; i < std::size(kTanhSeries); ++i) s = std::fma(a2, s, kTanhSeries[i]);
  float series = std::fma(a, a2 * s, a);
  float big = 1.0f - 2.0f / (expCoreF32(a + a) + 1.0f);
  return std::copysign(a < kTanhSeriesBelow ? series : big, d);  // -0 stays -0, NaN stays NaN
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
