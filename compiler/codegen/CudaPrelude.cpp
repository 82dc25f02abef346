// The text every emitted CUDA translation unit starts with, and the host shim
// that lets the same text compile as C++ for the CPU; see CudaKernels.h.
//
// The helpers mirror runtime/kernels/cpu/FastMath.cpp operation for operation.
// Their constants are written as hexadecimal literals of the values the host
// computes, so no compiler's constant folding can give other bits.
#include "codegen/CudaKernels.h"
#include "ops/FastMathConstants.h"

#include <cstdio>
#include <iterator>
#include <string>

namespace tempo {
namespace {

std::string hexDouble(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

std::string hexFloat(float v) { return hexDouble(static_cast<double>(v)) + "f"; }

/// `-104.0f`: a float whose shortest round-trip decimal is readable (clamps and thresholds).
std::string decimalFloat(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s + "f";
}

std::string expF32() {
  using namespace fastmath;
  std::string s =
      "__device__ __forceinline__ float tempo_exp_f32(float x) {\n"
      "  x = x < " + decimalFloat(kExpLow) + " ? " + decimalFloat(kExpLow) + " : (x > " + decimalFloat(kExpHigh) + " ? " +
      decimalFloat(kExpHigh) + " : x);\n"
      "  float kd = fmaf(x, " + hexFloat(kLog2e) + ", " + hexFloat(kRoundShifter) + ");\n"
      "  tempo_i32 k = (tempo_i32)((tempo_u32)__float_as_int(kd) - (tempo_u32)__float_as_int(" + hexFloat(kRoundShifter) + "));\n"
      "  kd = kd - " + hexFloat(kRoundShifter) + ";\n"
      "  float r = fmaf(-kd, " + hexFloat(kLn2Hi) + ", x);\n"
      "  r = fmaf(-kd, " + hexFloat(kLn2Lo) + ", r);\n"
      "  float p = " + hexFloat(kExpPolynomial[0]) + ";\n";
  for (size_t i = 1; i < std::size(kExpPolynomial); ++i) s += "  p = fmaf(p, r, " + hexFloat(kExpPolynomial[i]) + ");\n";
  s += "  tempo_i32 half = k >> 1;\n"
       "  return p * __int_as_float((int)((tempo_u32)(half + 127) << 23)) * __int_as_float((int)((tempo_u32)(k - half + 127) << 23));\n}\n"
       "__device__ __forceinline__ float tempo_sigmoid_f32(float x) {\n"
       "  double e = (double)tempo_exp_f32(-fabsf(x));\n"
       "  return (float)((x < 0.0f ? e : 1.0) / (1.0 + e));\n}\n";
  return s;
}

std::string tanhF32() {
  using namespace fastmath;
  std::string s =
      "__device__ __forceinline__ float tempo_tanh_f32(float x) {\n"
      "  float d = x < " + decimalFloat(-kTanhClamp) + " ? " + decimalFloat(-kTanhClamp) + " : (x > " + decimalFloat(kTanhClamp) +
      " ? " + decimalFloat(kTanhClamp) + " : x);\n"
      "  float a = fabsf(d);\n"
      "  float a2 = a * a;\n"
      "  float s = " + hexFloat(kTanhSeries[0]) + ";\n";
  for (size_t i = 1; i < std::size(kTanhSeries); ++i) s += "  s = fmaf(a2, s, " + hexFloat(kTanhSeries[i]) + ");\n";
  s += "  float series = fmaf(a, a2 * s, a);\n"
       "  float big = 1.0f - 2.0f / (tempo_exp_f32(a + a) + 1.0f);\n"
       "  return copysignf(a < " + decimalFloat(kTanhSeriesBelow) + " ? series : big, d);\n}\n";
  return s;
}

}  // namespace

const std::string& cudaDevicePrelude() {
  static const std::string text =
      "// Tempo generated kernels (CUDA C++). Build with --fmad=false: the CPU kernels contract nothing.\n"
      "typedef long long tempo_i64;\n"
      "typedef unsigned long long tempo_u64;\n"
      "typedef int tempo_i32;\n"
      "typedef unsigned int tempo_u32;\n"
      "typedef unsigned char tempo_u8;\n"
      + expF32() + tanhF32() +
      "// fromDouble (DTypeDispatch.h): NaN to 0, out of range to the limits.\n"
      "__device__ __forceinline__ tempo_i32 tempo_to_i32(double v) {\n"
      "  return v != v ? 0 : v <= -2147483648.0 ? (tempo_i32)(-2147483647 - 1) : v >= 2147483647.0 ? 2147483647 : (tempo_i32)v;\n}\n"
      "__device__ __forceinline__ tempo_i64 tempo_to_i64(double v) {\n"
      "  return v != v ? 0 : v <= -9223372036854775808.0 ? (tempo_i64)(-9223372036854775807LL - 1)\n"
      "       : v >= 9223372036854775807.0 ? 9223372036854775807LL : (tempo_i64)v;\n}\n";
  return text;
}

const std::string& cudaHostShim() {
  static const std::string text =
      "// Host emulation of Tempo's generated CUDA kernels: the grid runs as loops.\n"
      "#include <math.h>\n"
      "#include <stdint.h>\n"
      "#include <string.h>\n"
      "#include <barrier>\n"
      "#include <thread>\n"
      "#include <vector>\n"
      "#define __global__\n"
      "#define __device__\n"
      "#define __forceinline__ inline\n"
      "#define __restrict__ __restrict\n"
      "#define __launch_bounds__(n)\n"
      "#define __shared__ static\n"
      "struct tempo_dim3 { unsigned x = 0, y = 0, z = 0; };\n"
      "static thread_local tempo_dim3 blockIdx, threadIdx, blockDim, gridDim;\n"
      "inline long long __double_as_longlong(double v) { long long r; memcpy(&r, &v, 8); return r; }\n"
      "inline double __longlong_as_double(long long v) { double r; memcpy(&r, &v, 8); return r; }\n"
      "inline int __float_as_int(float v) { int r; memcpy(&r, &v, 4); return r; }\n"
      "inline float __int_as_float(int v) { float r; memcpy(&r, &v, 4); return r; }\n"
      "// A block's threads as a team of host threads meeting at __syncthreads; blocks run one by one.\n"
      "static thread_local std::barrier<>* tempo_block_barrier = nullptr;\n"
      "inline void __syncthreads() { tempo_block_barrier->arrive_and_wait(); }\n"
      "template <class F> void tempo_run_block(int b, int blocks, int threads, F body) {\n"
      "  std::barrier<> barrier(threads);\n"
      "  std::vector<std::thread> team;\n"
      "  for (int t = 0; t < threads; ++t)\n"
      "    team.emplace_back([&, t] {\n"
      "      gridDim.x = (unsigned)blocks; blockDim.x = (unsigned)threads;\n"
      "      blockIdx.x = (unsigned)b; threadIdx.x = (unsigned)t;\n"
      "      tempo_block_barrier = &barrier;\n"
      "      body();\n"
      "    });\n"
      "  for (std::thread& member : team) member.join();\n"
      "}\n"
      ;
  return text;
}

std::string cudaHostEntryName(const std::string& function) { return function + "_host"; }

}  // namespace tempo
