// FastMath: vectorisable f32 exp, tanh and sigmoid close to the reference.
//
// The reference evaluates these in double and rounds to float once; glibc's
// double exp/tanh are scalar calls (tanh about 30 ns an element). exp and
// sigmoid here do the same double-precision evaluation with a branch-free
// polynomial (exp: Cody-Waite reduction by ln 2, degree-12 Taylor, relative
// error < 2e-16; sigmoid: 1/(1 + e^-x)), so after rounding to float they equal
// the reference except, rarely, by 1 ulp at a near-tie. tanh is computed in
// float with explicit fmas (odd Taylor series below |x| = 0.625, 1 - 2/(e^2x + 1)
// above, a float e^y): within 1 ulp of the reference on every float, 0.13% of
// them off by that ulp, 4x the speed of the double evaluation. Inputs are
// clamped where the float result saturates (exp to [-110, 100], tanh to
// [-10, 10]); NaN stays NaN, +-inf give the limits, -0 stays -0. The loops are
// compiled for AVX-512, AVX2 (+FMA for tanh) and baseline x86-64 and picked at
// load time. The generated kernels (compiler/codegen/LlvmKernels) emit exactly
// these operations, so a generated kernel gives the library kernel's bits.
#pragma once

#include <cstdint>

namespace tempo::cpu {

void expF32(const float* in, float* out, int64_t n);
void tanhF32(const float* in, float* out, int64_t n);
void sigmoidF32(const float* in, float* out, int64_t n);

}  // namespace tempo::cpu
