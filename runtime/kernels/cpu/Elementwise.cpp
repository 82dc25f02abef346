// Fast elementwise kernels; semantics and fallbacks are stated in Elementwise.h.
#include "kernels/cpu/Elementwise.h"

#include "kernels/Broadcast.h"
#include "kernels/cpu/FastMath.h"
#include "kernels/cpu/Parallel.h"
#include "kernels/cpu/Strided.h"

#include <algorithm>
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
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  const T* in = x.data<T>();
  T* o = out.data<T>();
  parallelFor(x.numel(), cost, [&](int64_t begin, int64_t end) {
#pragma omp simd
    for (int64_t i = begin; i < end; ++i) o[i] = f(in[i]);
  });
  return out;
}

Tensor mapArrayF32(const Tensor& x, void (*f)(const float*, float*, int64_t)) {
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  const float* in = x.data<float>();
  float* o = out.data<float>();
  parallelFor(x.numel(), kPoly, [&](int64_t begin, int64_t end) { f(in + begin, o + begin, end - begin); });
  return out;
}

/// o[i] = f(a[i * sa], b[i * sb]) for i < n, with the unit/zero stride cases spelled out for the vectoriser.
template <class T, class R, class F>
void binaryLoop(R* o, const T* a, const T* b, int64_t n, int64_t sa, int64_t sb, F f) {
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

/// o[i] = f(x[i * sx]) for i < n (sx is 0 or 1).
template <class T, class F>
void unaryLoop(T* o, const T* x, int64_t n, int64_t sx, F f) {
  if (sx == 1) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) o[i] = f(x[i]);
  } else if (n > 0) {
    std::fill(o, o + n, f(*x));
  }
}

template <class T>
void whereLoop(T* o, const bool* c, const T* x, const T* y, int64_t n, int64_t sc, int64_t sa, int64_t sb) {
  if (sc == 1 && sa == 1 && sb == 1) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? x[i] : y[i];
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = c[i * sc] ? x[i * sa] : y[i * sb];
  }
}

template <class T, class R, class F>
Tensor mapBinary(const Tensor& a, const Tensor& b, const std::vector<int64_t>& shape, int64_t cost, F f) {
  Tensor out = Tensor::uninitialized(dtypeOf<R>(), shape);
  StridedLoop<3> loop(shape, {ref::contiguousStrides(shape), operandStrides(a, shape), operandStrides(b, shape)});
  const T* pa = a.viewData<T>();
  const T* pb = b.viewData<T>();
  R* po = out.data<R>();
  int64_t sa = loop.innerStrides()[1], sb = loop.innerStrides()[2];
  parallelFor(loop.size(), cost, [&](int64_t begin, int64_t end) {
    loop.forSpans(begin, end, [&](const StridedLoop<3>::Offsets& off, int64_t n) {
      binaryLoop<T, R>(po + off[0], pa + off[1], pb + off[2], n, sa, sb, f);
    });
  });
  return out;
}

/// Calls `apply.template operator()<R>(cost, f)` with the element function `f` of the
/// comparison or arithmetic `op` on T (R: its result type, cost: cycles per element);
/// false when the op is not specialised for T (integer div and pow can throw).
template <class T, class Apply>
bool withBinaryFn(OpKind op, Apply&& apply) {
  auto use = [&]<class R>(int64_t cost, auto f) {
    apply.template operator()<R>(cost, f);
    return true;
  };
  switch (op) {
    case OpKind::Lt: return use.template operator()<bool>(kCheap, [](T x, T y) { return x < y; });
    case OpKind::Le: return use.template operator()<bool>(kCheap, [](T x, T y) { return x <= y; });
    case OpKind::Gt: return use.template operator()<bool>(kCheap, [](T x, T y) { return x > y; });
    case OpKind::Ge: return use.template operator()<bool>(kCheap, [](T x, T y) { return x >= y; });
    case OpKind::Eq: return use.template operator()<bool>(kCheap, [](T x, T y) { return x == y; });
    case OpKind::Ne: return use.template operator()<bool>(kCheap, [](T x, T y) { return x != y; });
    default: break;
  }
  if constexpr (std::is_same_v<T, bool>) {
    if (op == OpKind::And || op == OpKind::Minimum) return use.template operator()<T>(kCheap, [](T x, T y) { return x && y; });
    if (op == OpKind::Or || op == OpKind::Maximum) return use.template operator()<T>(kCheap, [](T x, T y) { return x || y; });
  } else if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case OpKind::Add: return use.template operator()<T>(kCheap, [](T x, T y) { return T(x + y); });
      case OpKind::Sub: return use.template operator()<T>(kCheap, [](T x, T y) { return T(x - y); });
      case OpKind::Mul: return use.template operator()<T>(kCheap, [](T x, T y) { return T(x * y); });
      case OpKind::Div: return use.template operator()<T>(kCheap, [](T x, T y) { return T(x / y); });
      case OpKind::Pow:
        return use.template operator()<T>(kLibm, [](T x, T y) { return T(std::pow(double(x), double(y))); });
      case OpKind::Maximum: return use.template operator()<T>(kCheap, [](T x, T y) { return nanMax(x, y); });
      case OpKind::Minimum: return use.template operator()<T>(kCheap, [](T x, T y) { return nanMin(x, y); });
      default: break;
    }
  } else {  // integers; div and pow can throw, so they stay with the reference
    switch (op) {
      case OpKind::Add: return use.template operator()<T>(kCheap, [](T x, T y) { return wrapAdd(x, y); });
      case OpKind::Sub: return use.template operator()<T>(kCheap, [](T x, T y) { return wrapSub(x, y); });
      case OpKind::Mul: return use.template operator()<T>(kCheap, [](T x, T y) { return wrapMul(x, y); });
      case OpKind::Maximum: return use.template operator()<T>(kCheap, [](T x, T y) { return x < y ? y : x; });
      case OpKind::Minimum: return use.template operator()<T>(kCheap, [](T x, T y) { return y < x ? y : x; });
      default: break;
    }
  }
  return false;
}

/// The vectorised whole-array f32 kernel of `op` (exp, tanh, sigmoid), or nullptr.
void (*arrayFnF32(OpKind op))(const float*, float*, int64_t) {
  if (op == OpKind::Exp) return expF32;
  if (op == OpKind::Tanh) return tanhF32;
  if (op == OpKind::Sigmoid) return sigmoidF32;
  return nullptr;
}

/// Calls `apply(cost, f)` with the element function of the unary `op` on T; false when
/// the op is not specialised for T (or not defined on it).
template <class T, class Apply>
bool withUnaryFn(OpKind op, Apply&& apply) {
  if constexpr (std::is_same_v<T, bool>) {
    if (op != OpKind::Not) return false;
    apply(kCheap, [](bool v) { return !v; });
  } else if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case OpKind::Neg: apply(kCheap, [](T v) { return T(-v); }); break;
      case OpKind::Sqrt: apply(kCheap, [](T v) { return std::sqrt(v); }); break;  // exact in float too
      case OpKind::Relu: apply(kCheap, [](T v) { return v < T(0) ? T(0) : v; }); break;
      case OpKind::Abs: apply(kCheap, [](T v) { return std::fabs(v); }); break;
      case OpKind::Log: apply(kLibm, [](T v) { return T(std::log(double(v))); }); break;
      case OpKind::Exp: apply(kLibm, [](T v) { return T(std::exp(double(v))); }); break;
      case OpKind::Tanh: apply(kLibm, [](T v) { return T(std::tanh(double(v))); }); break;
      case OpKind::Sigmoid: apply(kLibm, [](T v) { return T(1.0 / (1.0 + std::exp(-double(v)))); }); break;
      case OpKind::Sin: apply(kLibm, [](T v) { return T(std::sin(double(v))); }); break;
      case OpKind::Cos: apply(kLibm, [](T v) { return T(std::cos(double(v))); }); break;
      default: return false;
    }
  } else {
    switch (op) {
      case OpKind::Neg: apply(kCheap, [](T v) { return wrapSub(T(0), v); }); break;
      case OpKind::Relu: apply(kCheap, [](T v) { return v < 0 ? T(0) : v; }); break;
      case OpKind::Abs: apply(kCheap, [](T v) { return v < 0 ? wrapSub(T(0), v) : v; }); break;
      default: return false;
    }
  }
  return true;
}

/// `op` on a strided view: along each span of the innermost merged axis, the span is
/// copied to a contiguous run first when its stride is not 1, then the contiguous
/// element function runs (the same function, so the same bits, as on a copy).
std::optional<Tensor> unaryStrided(OpKind op, const Tensor& x) {
  const DType dt = x.dtype();
  if (!unarySpan(op, dt, nullptr, 1, nullptr, 0)) return std::nullopt;  // not specialised
  Tensor out = Tensor::uninitialized(dt, x.shape());
  StridedLoop<2> loop(x.shape(), {ref::contiguousStrides(x.shape()), x.strides()});
  const int64_t stride = loop.innerStrides()[1];
  const size_t size = dtypeSize(dt);
  const auto* in = static_cast<const std::byte*>(x.viewRaw());
  auto* o = static_cast<std::byte*>(out.raw());
  parallelFor(loop.size(), kPoly, [&](int64_t begin, int64_t end) {
    std::vector<std::byte> run;
    loop.forSpans(begin, end, [&](const StridedLoop<2>::Offsets& off, int64_t n) {
      const std::byte* from = in + off[1] * static_cast<int64_t>(size);
      if (stride != 1) {
        run.resize(static_cast<size_t>(n) * size);
        castSpan(dt, dt, from, stride, run.data(), n);
        from = run.data();
      }
      unarySpan(op, dt, from, 1, o + off[0] * static_cast<int64_t>(size), n);
    });
  });
  return out;
}

}  // namespace

std::optional<Tensor> unary(OpKind op, const Tensor& x) {
  if (!x.isContiguous()) return unaryStrided(op, x);
  if (x.dtype() == DType::F32)
    if (auto fn = arrayFnF32(op)) return mapArrayF32(x, fn);
  return visitDType(x.dtype(), [&]<class T>() -> std::optional<Tensor> {
    std::optional<Tensor> out;
    withUnaryFn<T>(op, [&](int64_t cost, auto f) { out = mapUnary<T>(x, cost, f); });
    return out;
  });
}

std::optional<Tensor> binary(OpKind op, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype()) return std::nullopt;
  auto shape = broadcastOrNull({a.shape(), b.shape()});
  if (!shape) return std::nullopt;
  return visitDType(a.dtype(), [&]<class T>() -> std::optional<Tensor> {
    std::optional<Tensor> out;
    withBinaryFn<T>(op, [&]<class R>(int64_t cost, auto f) { out = mapBinary<T, R>(a, b, *shape, cost, f); });
    return out;
  });
}

std::optional<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  if (cond.dtype() != DType::Bool || a.dtype() != b.dtype()) return std::nullopt;
  auto shape = broadcastOrNull({cond.shape(), a.shape(), b.shape()});
  if (!shape) return std::nullopt;
  Tensor out = Tensor::uninitialized(a.dtype(), *shape);
  StridedLoop<4> loop(*shape, {ref::contiguousStrides(*shape), operandStrides(cond, *shape),
                               operandStrides(a, *shape), operandStrides(b, *shape)});
  [[maybe_unused]] auto [so, sc, sa, sb] = loop.innerStrides();
  visitDType(a.dtype(), [&]<class T>() {
    const bool* pc = cond.viewData<bool>();
    const T* pa = a.viewData<T>();
    const T* pb = b.viewData<T>();
    T* po = out.data<T>();
    parallelFor(loop.size(), kCheap, [&](int64_t begin, int64_t end) {
      loop.forSpans(begin, end, [&](const StridedLoop<4>::Offsets& off, int64_t n) {
        whereLoop<T>(po + off[0], pc + off[1], pa + off[2], pb + off[3], n, sc, sa, sb);
      });
    });
  });
  return out;
}

bool unarySpan(OpKind op, DType dt, const void* x, int64_t sx, void* o, int64_t n) {
  if (dt == DType::F32)
    if (auto fn = arrayFnF32(op)) {
      const float* in = static_cast<const float*>(x);
      float* out = static_cast<float*>(o);
      if (sx == 1) fn(in, out, n);
      else if (n > 0) fn(in, out, 1), std::fill(out + 1, out + n, out[0]);
      return true;
    }
  return visitDType(dt, [&]<class T>() {
    return withUnaryFn<T>(op, [&](int64_t, auto f) { unaryLoop<T>(static_cast<T*>(o), static_cast<const T*>(x), n, sx, f); });
  });
}

bool binarySpan(OpKind op, DType dt, const void* a, int64_t sa, const void* b, int64_t sb, void* o, int64_t n) {
  return visitDType(dt, [&]<class T>() {
    return withBinaryFn<T>(op, [&]<class R>(int64_t, auto f) {
      binaryLoop<T, R>(static_cast<R*>(o), static_cast<const T*>(a), static_cast<const T*>(b), n, sa, sb, f);
    });
  });
}

void whereSpan(DType dt, const bool* c, int64_t sc, const void* a, int64_t sa, const void* b, int64_t sb, void* o,
               int64_t n) {
  visitDType(dt, [&]<class T>() {
    whereLoop<T>(static_cast<T*>(o), c, static_cast<const T*>(a), static_cast<const T*>(b), n, sc, sa, sb);
  });
}

void castSpan(DType from, DType to, const void* x, int64_t sx, void* o, int64_t n) {
  visitDType(from, [&]<class From>() {
    visitDType(to, [&]<class To>() {
      const From* in = static_cast<const From*>(x);
      To* out = static_cast<To*>(o);
      for (int64_t i = 0; i < n; ++i) out[i] = convertElement<From, To>(in[i * sx]);
    });
  });
}

}  // namespace tempo::cpu
