// Tempo generated kernels (CUDA C++). Build with --fmad=false: the CPU kernels contract nothing.
typedef long long tempo_i64;
typedef unsigned long long tempo_u64;
typedef int tempo_i32;
typedef unsigned int tempo_u32;
typedef unsigned char tempo_u8;
__device__ __forceinline__ float tempo_exp_f32(float x) {
  x = x < -104.0f ? -104.0f : (x > 89.0f ? 89.0f : x);
  float kd = fmaf(x, 0x1.715476p+0f, 0x1.8p+23f);
  tempo_i32 k = (tempo_i32)((tempo_u32)__float_as_int(kd) - (tempo_u32)__float_as_int(0x1.8p+23f));
  kd = kd - 0x1.8p+23f;
  float r = fmaf(-kd, 0x1.62e43p-1f, x);
  r = fmaf(-kd, -0x1.05c61p-29f, r);
  float p = 0x1.a01a02p-13f;
  p = fmaf(p, r, 0x1.6c16c2p-10f);
  p = fmaf(p, r, 0x1.111112p-7f);
  p = fmaf(p, r, 0x1.555556p-5f);
  p = fmaf(p, r, 0x1.555556p-3f);
  p = fmaf(p, r, 0x1p-1f);
  p = fmaf(p, r, 0x1p+0f);
  p = fmaf(p, r, 0x1p+0f);
  tempo_i32 half = k >> 1;
  return p * __int_as_float((int)((tempo_u32)(half + 127) << 23)) * __int_as_float((int)((tempo_u32)(k - half + 127) << 23));
}
__device__ __forceinline__ float tempo_sigmoid_f32(float x) {
  double e = (double)tempo_exp_f32(-fabsf(x));
  return (float)((x < 0.0f ? e : 1.0) / (1.0 + e));
}
__device__ __forceinline__ float tempo_tanh_f32(float x) {
  float d = x < -10.0f ? -10.0f : (x > 10.0f ? 10.0f : x);
  float a = fabsf(d);
  float a2 = a * a;
  float s = 0x1.967e1ap-14f;
  s = fmaf(a2, s, -0x1.f57d76p-13f);
  s = fmaf(a2, s, 0x1.355826p-11f);
  s = fmaf(a2, s, -0x1.7da364p-10f);
  s = fmaf(a2, s, 0x1.d6d3dp-9f);
  s = fmaf(a2, s, -0x1.226e36p-7f);
  s = fmaf(a2, s, 0x1.664f48p-6f);
  s = fmaf(a2, s, -0x1.ba1ba2p-5f);
  s = fmaf(a2, s, 0x1.111112p-3f);
  s = fmaf(a2, s, -0x1.555556p-2f);
  float series = fmaf(a, a2 * s, a);
  float big = 1.0f - 2.0f / (tempo_exp_f32(a + a) + 1.0f);
  return copysignf(a < 0.625f ? series : big, d);
}
// fromDouble (DTypeDispatch.h): NaN to 0, out of range to the limits.
__device__ __forceinline__ tempo_i32 tempo_to_i32(double v) {
  return v != v ? 0 : v <= -2147483648.0 ? (tempo_i32)(-2147483647 - 1) : v >= 2147483647.0 ? 2147483647 : (tempo_i32)v;
}
__device__ __forceinline__ tempo_i64 tempo_to_i64(double v) {
  return v != v ? 0 : v <= -9223372036854775808.0 ? (tempo_i64)(-9223372036854775807LL - 1)
       : v >= 9223372036854775807.0 ? 9223372036854775807LL : (tempo_i64)v;
}

extern "C" __global__ void __launch_bounds__(256) k14_reduce_sum(float* __restrict__ out, const float* __restrict__ in0, tempo_i64 d0, tempo_i64 d1, tempo_i64 d2, tempo_i64 n) {
  __shared__ double partial[256];
  const tempo_i64 s0 = d1 * d2;
  const tempo_i64 s1 = d2;
  const tempo_i64 s2 = 1;
  const tempo_i64 count = d1;
  for (tempo_i64 o = blockIdx.x; o < n; o += gridDim.x) {
    tempo_i64 rest = o, base = 0;
    base += (rest % d2) * s2; rest /= d2;
    base += (rest % d0) * s0; rest /= d0;
    double acc = (double)0;
    for (tempo_i64 r = threadIdx.x; r < count; r += blockDim.x) {
      tempo_i64 left = r, offset = base;
      offset += (left % d1) * s1; left /= d1;
      const double v = (double)in0[offset];
      acc = acc + v;
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
      if (threadIdx.x < half) {
        const double a = partial[threadIdx.x], b = partial[threadIdx.x + half];
        partial[threadIdx.x] = a + b;
      }
      __syncthreads();
    }
    if (threadIdx.x == 0) out[o] = (float)partial[0];
    __syncthreads();  // partial is reused for the next output
  }
}

template <class I>
__device__ __forceinline__ void k15_y_elements(float* __restrict__ out, const float* __restrict__ in0, const float* __restrict__ in1, I d0, I d1, I n) {
  const I stride = (I)gridDim.x * (I)blockDim.x;
  for (I e = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; e < n; e += stride) {
    I rest = e;
    const I i1 = rest % d1; rest /= d1;
    const I i0 = rest;
    const float a0 = in0[e];
    const float a1 = in1[0];
    const float s0 = a0 / a1;
    out[e] = s0;
  }
}
extern "C" __global__ void __launch_bounds__(256) k15_y(float* __restrict__ out, const float* __restrict__ in0, const float* __restrict__ in1, tempo_i64 d0, tempo_i64 d1, tempo_i64 n) {
  if (n < (1LL << 30)) k15_y_elements<int>(out, in0, in1, (int)d0, (int)d1, (int)n);
  else k15_y_elements<tempo_i64>(out, in0, in1, d0, d1, n);
}

template <class I>
__device__ __forceinline__ void k29_fused_elements(float* __restrict__ out, const float* __restrict__ in0, const float* __restrict__ in1, const float* __restrict__ in2, I d0, I d1, I n) {
  const I stride = (I)gridDim.x * (I)blockDim.x;
  for (I e = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; e < n; e += stride) {
    I rest = e;
    const I i1 = rest % d1; rest /= d1;
    const I i0 = rest;
    const float a0 = in0[e];
    const float a1 = in1[e];
    const float a2 = in2[i1];
    const float s0 = a0 + a1;
    const float s1 = s0 + a2;
    const float s2 = tempo_tanh_f32(s1);
    out[e] = s2;
  }
}
extern "C" __global__ void __launch_bounds__(256) k29_fused(float* __restrict__ out, const float* __restrict__ in0, const float* __restrict__ in1, const float* __restrict__ in2, tempo_i64 d0, tempo_i64 d1, tempo_i64 n) {
  if (n < (1LL << 30)) k29_fused_elements<int>(out, in0, in1, in2, (int)d0, (int)d1, (int)n);
  else k29_fused_elements<tempo_i64>(out, in0, in1, in2, d0, d1, n);
}

template <class I>
__device__ __forceinline__ void k30_fused_elements(float* __restrict__ out, const float* __restrict__ in0, const float* __restrict__ in1, I d0, I d1, I n) {
  const I stride = (I)gridDim.x * (I)blockDim.x;
  for (I e = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; e < n; e += stride) {
    I rest = e;
    const I i1 = rest % d1; rest /= d1;
    const I i0 = rest;
    const float a0 = in0[e];
    const float a1 = in1[i1];
    const float s0 = a0 + a1;
    const float s1 = tempo_tanh_f32(s0);
    out[e] = s1;
  }
}
extern "C" __global__ void __launch_bounds__(256) k30_fused(float* __restrict__ out, const float* __restrict__ in0, const float* __restrict__ in1, tempo_i64 d0, tempo_i64 d1, tempo_i64 n) {
  if (n < (1LL << 30)) k30_fused_elements<int>(out, in0, in1, (int)d0, (int)d1, (int)n);
  else k30_fused_elements<tempo_i64>(out, in0, in1, d0, d1, n);
}
