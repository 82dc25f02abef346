// FastMath: vectorisable f32 exp, tanh and sigmoid close to the reference.
//
// The reference evaluates these in double and rounds to float once; glibc's
// double exp/tanh are scalar calls (tanh about 30 ns an element). Here all three
// are computed in float with explicit fmas: exp by Cody-Waite reduction by ln 2,
// a degree-7 polynomial and 2^k applied as two factors (within 1 ulp of the
// reference on every float, 0.24% off by that ulp); sigmoid as 1/(1 + e) or
// e/(1 + e) with e = e^-|x| in float and the division in double (within 1 ulp,
// 1.7% off); tanh by its odd Taylor series below |x| = 0.625 and 1 - 2/(e^2x + 1)
// above (within 1 ulp of the reference, 0.13% off). Until 2026-12-06 exp and
// sigmoid evaluated a degree-12 polynomial in double, ~5x slower. Inputs are
// clamped where the float result saturates (exp to [-104, 89], tanh to
// [-10, 10]); NaN stays NaN, +-inf give the limits, -0 stays -0. The loops are
// compiled for AVX-512, AVX2 (each with FMA) and baseline x86-64 and picked at
// load time. The generated kernels (compiler/codegen/LlvmKernels) and the CUDA
// prelude emit exactly these operations, so all give the library kernel's bits.
#pragma once

#include <cstdint>

namespace tempo::cpu {

void expF32(const float* in, float* out, int64_t n);
void tanhF32(const float* in, float* out, int64_t n);
void sigmoidF32(const float* in, float* out, int64_t n);

}  // namespace tempo::cpu
