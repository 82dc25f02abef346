// FastMathConstants: the constants of the f32 exp, sigmoid and tanh algorithms.
//
// The same algorithm exists three times, operation for operation: the CPU library
// kernels (runtime/kernels/cpu/FastMath.cpp), the LLVM IR of the generated kernels
// (compiler/codegen/LlvmKernels.cpp) and the CUDA prelude (compiler/codegen/
// CudaPrelude.cpp). All three must give the same bits, so they take every constant
// from here: exp's clamp, its Cody-Waite reduction by ln 2 and its degree-7 Taylor
// polynomial (Horner order, highest degree first), and tanh's clamp, series switch
// and odd Taylor series in x^2 (Horner order). FastMath.h says how the functions use them.
#pragma once

namespace tempo::fastmath {

inline constexpr float kExpLow = -104.0f, kExpHigh = 89.0f;  ///< beyond: 0 and inf in float
inline constexpr float kLog2e = 1.44269504f;
inline constexpr float kRoundShifter = 0x1.8p23f;  ///< x * log2e + this holds round(x / ln 2) in its low bits
inline constexpr float kLn2Hi = 0x1.62e43p-1f, kLn2Lo = -0x1.05c610p-29f;  ///< ln 2 = kLn2Hi + kLn2Lo
/// e^r = 1 + r (1 + r (1/2 + ...)): the coefficients from 1/7! down to the constant term.
inline constexpr float kExpPolynomial[] = {1.0f / 5040, 1.0f / 720, 1.0f / 120, 1.0f / 24, 1.0f / 6, 0.5f, 1.0f, 1.0f};

inline constexpr float kTanhClamp = 10.0f;         ///< tanh rounds to +-1 beyond 9.01
inline constexpr float kTanhSeriesBelow = 0.625f;  ///< |x| below: the series; above: 1 - 2 / (e^2|x| + 1)
/// tanh x = x + x (x^2 s(x^2)): s's coefficients from x^20's down to x^2's (-1/3).
inline constexpr float kTanhSeries[] = {18888466084.0f / 194896477400625.0f, -443861162.0f / 1856156927625.0f,
                                        6404582.0f / 10854718875.0f,         -929569.0f / 638512875.0f,
                                        21844.0f / 6081075.0f,               -1382.0f / 155925.0f,
                                        62.0f / 2835.0f,                     -17.0f / 315.0f,
                                        2.0f / 15.0f,                        -1.0f / 3.0f};

}  // namespace tempo::fastmath
