// Branch-free double-precision exp/tanh/sigmoid over float arrays; see FastMath.h.
#include "kernels/cpu/FastMath.h"

// The clamps below are selects; with FP traps modelled GCC turns them back
// into branches around the (constant-folded) saturated cases and gives up
// vectorising. Nothing here reads the FP exception flags.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

#include <bit>
#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TEMPO_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TEMPO_CLONES
#endif

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

inline double tanhCore(double x) {
  double d = clamp(x, -20.0, 20.0);
  double a = d < 0 ? -d : d;
  double a2 = a * a;
  // Odd Taylor series of tanh: below 1/16 the next term is < 1e-19 relative.
  double series =
      a * (1 + a2 * (-1.0 / 3 + a2 * (2.0 / 15 + a2 * (-17.0 / 315 + a2 * (62.0 / 2835 +
           a2 * (-1382.0 / 155925 + a2 * (21844.0 / 6081075)))))));
  double big = 1.0 - 2.0 / (expCore(2 * a) + 1.0);
  double t = a < 0.0625 ? series : big;
  return d < 0 ? -t : t;  // -0 stays -0 through the series
}

}  // namespace

TEMPO_CLONES void expF32(const float* __restrict in, float* __restrict out, int64_t n) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = float(expCore(clamp(double(in[i]), -110.0, 100.0)));
}

TEMPO_CLONES void tanhF32(const float* __restrict in, float* __restrict out, int64_t n) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = float(tanhCore(double(in[i])));
}

TEMPO_CLONES void sigmoidF32(const float* __restrict in, float* __restrict out, int64_t n) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = float(1.0 / (1.0 + expCore(clamp(-double(in[i]), -110.0, 110.0))));
}

}  // namespace tempo::cpu
