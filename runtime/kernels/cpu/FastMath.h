// FastMath: vectorisable f32 exp, tanh and sigmoid that match the reference.
//
// The reference evaluates these in double and rounds to float once; glibc's
// double exp/tanh are scalar calls (tanh about 30 ns an element). These
// kernels do the same double-precision evaluation with a branch-free
// polynomial (exp: Cody-Waite reduction by ln 2, degree-12 Taylor, relative
// error < 2e-16; tanh: odd Taylor series below |x| = 1/16, 1 - 2/(e^2x + 1)
// above; sigmoid: 1/(1 + e^-x)), so after rounding to float they equal the
// reference except, rarely, by 1 ulp at a near-tie. Inputs are clamped where
// the float result saturates (exp to [-110, 100], tanh to [-20, 20]); NaN
// stays NaN, +-inf give the limits. The loops are compiled for AVX-512, AVX2
// and baseline x86-64 and picked at load time (GCC target_clones).
#pragma once

#include <cstdint>

namespace tempo::cpu {

void expF32(const float* in, float* out, int64_t n);
void tanhF32(const float* in, float* out, int64_t n);
void sigmoidF32(const float* in, float* out, int64_t n);

}  // namespace tempo::cpu
