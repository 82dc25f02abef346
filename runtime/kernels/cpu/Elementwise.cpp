// Fast elementwise kernels; semantics and fallbacks are stated in Elementwise.h.
#include "kernels/cpu/Elementwise.h"

#include "kernels/Broadcast.h"
#include "kernels/cpu/FastMath.h"
#include "kernels/cpu/Parallel.h"
#include "kernels/cpu/Strided.h"

#include <cmath>
#include <type_traits>

namespace tempo::cpu {
namespace {

// Rough cycles per element, for the parallel threshold.
constexpr int64_t kCheap = 1, kPoly = 4, kLibm = 20;

template <class T> T wrapAdd(T a, T b) { using U = std::make_unsigned_t<T>; return T(U(a) + U(b)); }
template <class T> T wrapSub(T a, T b) { using U = std::make_unsigned_t<T>; return T(U(a) - U(b)); }
template <class T> T wrapMul(T a, T b) { using U = std::make_unsigned_t<T>; return T(U(a) * U(b)); }
template <class T> T nanMax(T a, T b) { return a != a ? a : b != b ? b : (a < b ? b : a); }
template <class T> T nanMin(T a, T b) { return a != a ? a : b != b ? b : (b < a ? b : a); }

std::optional<std::vector<int64_t>> broadcastOrNull(const std::vector<std::vector<int64_t>>& shapes) {
  try {
    std::vector<int64_t> out = shapes.front();
    for (const auto& s : shapes) out = ref::broadcastShapes(out, s);
    return out;
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // the reference kernel reports it
  }
}

template <class T, class F>
Tensor mapUnary(const Tensor& x, int64_t cost, F f) {
  Tensor out(x.dtype(), x.shape());
  const T* in = x.data<T>();
  T* o = out.data<T>();
  parallelFor(x.numel(), cost, [&](int64_t begin, int64_t end) {
#pragma omp simd
    for (int64_t i = begin; i < end; ++i) o[i] = f(in[i]);
  });
  return out;
}

Tensor mapArrayF32(const Tensor& x, void (*f)(const float*, float*, int64_t)) {
  Tensor out(x.dtype(), x.shape());
  const float* in = x.data<float>();
  float* o = out.data<float>();
  parallelFor(x.numel(), kPoly, [&](int64_t begin, int64_t end) { f(in + begin, o + begin, end - begin); });
  return out;
}

/// o[i] = f(a[i * sa], b[i * sb]) for i < n, with the unit/zero stride cases spelled out for the vectoriser.
template <class T, class R, class F>
void binarySpan(R* o, const T* a, const T* b, int64_t n, int64_t sa, int64_t sb, F f) {
  if (sa == 1 && sb == 1) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
  } else if (sa == 1 && sb == 0) {
    T y = *b;
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], y);
  } else if (sa == 0 && sb == 1) {
    T x = *a;
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) o[i] = f(x, b[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i * sa], b[i * sb]);
  }
}

template <class T, class R, class F>
Tensor mapBinary(const Tensor& a, const Tensor& b, const std::vector<int64_t>& shape, int64_t cost, F f) {
  Tensor out(dtypeOf<R>(), shape);
  StridedLoop<3> loop(shape, {ref::contiguousStrides(shape), ref::broadcastStrides(a.shape(), shape),
                              ref::broadcastStrides(b.shape(), shape)});
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  R* po = out.data<R>();
  int64_t sa = loop.innerStrides()[1], sb = loop.innerStrides()[2];
  parallelFor(loop.size(), cost, [&](int64_t begin, int64_t end) {
    loop.forSpans(begin, end, [&](const StridedLoop<3>::Offsets& off, int64_t n) {
      binarySpan<T, R>(po + off[0], pa + off[1], pb + off[2], n, sa, sb, f);
    });
  });
  return out;
}

template <class T>
std::optional<Tensor> comparison(OpKind op, const Tensor& a, const Tensor& b, const std::vector<int64_t>& s) {
  switch (op) {
    case OpKind::Lt: return mapBinary<T, bool>(a, b, s, kCheap, [](T x, T y) { return x < y; });
    case OpKind::Le: return mapBinary<T, bool>(a, b, s, kCheap, [](T x, T y) { return x <= y; });
    case OpKind::Gt: return mapBinary<T, bool>(a, b, s, kCheap, [](T x, T y) { return x > y; });
    case OpKind::Ge: return mapBinary<T, bool>(a, b, s, kCheap, [](T x, T y) { return x >= y; });
    case OpKind::Eq: return mapBinary<T, bool>(a, b, s, kCheap, [](T x, T y) { return x == y; });
    case OpKind::Ne: return mapBinary<T, bool>(a, b, s, kCheap, [](T x, T y) { return x != y; });
    default: return std::nullopt;
  }
}

template <class T>
std::optional<Tensor> arithmetic(OpKind op, const Tensor& a, const Tensor& b, const std::vector<int64_t>& s) {
  if constexpr (std::is_same_v<T, bool>) {
    if (op == OpKind::And || op == OpKind::Minimum) return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return x && y; });
    if (op == OpKind::Or || op == OpKind::Maximum) return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return x || y; });
  } else if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case OpKind::Add: return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return T(x + y); });
      case OpKind::Sub: return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return T(x - y); });
      case OpKind::Mul: return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return T(x * y); });
      case OpKind::Div: return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return T(x / y); });
      case OpKind::Pow:
        return mapBinary<T, T>(a, b, s, kLibm, [](T x, T y) { return T(std::pow(double(x), double(y))); });
      case OpKind::Maximum: return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return nanMax(x, y); });
      case OpKind::Minimum: return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return nanMin(x, y); });
      default: break;
    }
  } else {  // integers; div and pow can throw, so they stay with the reference
    switch (op) {
      case OpKind::Add: return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return wrapAdd(x, y); });
      case OpKind::Sub: return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return wrapSub(x, y); });
      case OpKind::Mul: return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return wrapMul(x, y); });
      case OpKind::Maximum: return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return x < y ? y : x; });
      case OpKind::Minimum: return mapBinary<T, T>(a, b, s, kCheap, [](T x, T y) { return y < x ? y : x; });
      default: break;
    }
  }
  return std::nullopt;
}

template <class T>
std::optional<Tensor> floatUnary(OpKind op, const Tensor& x) {
  if constexpr (std::is_same_v<T, float>) {
    if (op == OpKind::Exp) return mapArrayF32(x, expF32);
    if (op == OpKind::Tanh) return mapArrayF32(x, tanhF32);
    if (op == OpKind::Sigmoid) return mapArrayF32(x, sigmoidF32);
  }
  switch (op) {
    case OpKind::Neg: return mapUnary<T>(x, kCheap, [](T v) { return T(-v); });
    case OpKind::Sqrt: return mapUnary<T>(x, kCheap, [](T v) { return std::sqrt(v); });  // exact in float too
    case OpKind::Relu: return mapUnary<T>(x, kCheap, [](T v) { return v < T(0) ? T(0) : v; });
    case OpKind::Abs: return mapUnary<T>(x, kCheap, [](T v) { return std::fabs(v); });
    case OpKind::Log: return mapUnary<T>(x, kLibm, [](T v) { return T(std::log(double(v))); });
    case OpKind::Exp: return mapUnary<T>(x, kLibm, [](T v) { return T(std::exp(double(v))); });
    case OpKind::Tanh: return mapUnary<T>(x, kLibm, [](T v) { return T(std::tanh(double(v))); });
    case OpKind::Sigmoid: return mapUnary<T>(x, kLibm, [](T v) { return T(1.0 / (1.0 + std::exp(-double(v)))); });
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<Tensor> unary(OpKind op, const Tensor& x) {
  return visitDType(x.dtype(), [&]<class T>() -> std::optional<Tensor> {
    if constexpr (std::is_same_v<T, bool>) {
      if (op == OpKind::Not) return mapUnary<T>(x, kCheap, [](bool v) { return !v; });
      return std::nullopt;
    } else if constexpr (std::is_floating_point_v<T>) {
      return floatUnary<T>(op, x);
    } else {
      switch (op) {
        case OpKind::Neg: return mapUnary<T>(x, kCheap, [](T v) { return wrapSub(T(0), v); });
        case OpKind::Relu: return mapUnary<T>(x, kCheap, [](T v) { return v < 0 ? T(0) : v; });
        case OpKind::Abs: return mapUnary<T>(x, kCheap, [](T v) { return v < 0 ? wrapSub(T(0), v) : v; });
        default: return std::nullopt;
      }
    }
  });
}

std::optional<Tensor> binary(OpKind op, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype()) return std::nullopt;
  auto shape = broadcastOrNull({a.shape(), b.shape()});
  if (!shape) return std::nullopt;
  return visitDType(a.dtype(), [&]<class T>() -> std::optional<Tensor> {
    if (isComparison(op)) return comparison<T>(op, a, b, *shape);
    return arithmetic<T>(op, a, b, *shape);
  });
}

std::optional<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  if (cond.dtype() != DType::Bool || a.dtype() != b.dtype()) return std::nullopt;
  auto shape = broadcastOrNull({cond.shape(), a.shape(), b.shape()});
  if (!shape) return std::nullopt;
  Tensor out(a.dtype(), *shape);
  StridedLoop<4> loop(*shape, {ref::contiguousStrides(*shape), ref::broadcastStrides(cond.shape(), *shape),
                               ref::broadcastStrides(a.shape(), *shape), ref::broadcastStrides(b.shape(), *shape)});
  [[maybe_unused]] auto [so, sc, sa, sb] = loop.innerStrides();
  visitDType(a.dtype(), [&]<class T>() {
    const bool* pc = cond.data<bool>();
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* po = out.data<T>();
    parallelFor(loop.size(), kCheap, [&](int64_t begin, int64_t end) {
      loop.forSpans(begin, end, [&](const StridedLoop<4>::Offsets& off, int64_t n) {
        const bool* c = pc + off[1];
        const T* x = pa + off[2];
        const T* y = pb + off[3];
        T* o = po + off[0];
        if (sc == 1 && sa == 1 && sb == 1) {
#pragma omp simd
          for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? x[i] : y[i];
        } else {
          for (int64_t i = 0; i < n; ++i) o[i] = c[i * sc] ? x[i * sa] : y[i * sb];
        }
      });
    });
  });
  return out;
}

}  // namespace tempo::cpu
