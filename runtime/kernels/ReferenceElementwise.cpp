// Reference kernels for the elementwise ops: unary, binary (with NumPy
// broadcasting) and where. Numerics are stated in ReferenceKernels.h.
#include "kernels/Broadcast.h"
#include "kernels/KernelParts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace tempo::ref::detail {
namespace {

std::invalid_argument unsupported(OpKind op, DType t) {
  return std::invalid_argument(errorPrefix(op) + "not defined on " + std::string(dtypeName(t)));
}

// Two's-complement integer arithmetic without undefined behaviour.
template <class T> T wrapAdd(T a, T b) { using U = std::make_unsigned_t<T>; return T(U(a) + U(b)); }
template <class T> T wrapSub(T a, T b) { using U = std::make_unsigned_t<T>; return T(U(a) - U(b)); }
template <class T> T wrapMul(T a, T b) { using U = std::make_unsigned_t<T>; return T(U(a) * U(b)); }
template <class T> T wrapNeg(T a) { return wrapSub(T(0), a); }

/// Python's a // b.
template <class T> T floorDiv(T a, T b) {
  if (b == 0) throw std::domain_error("div: integer division by zero");
  if (b == -1) return wrapNeg(a);
  T q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

/// base ** exponent with wrap-around, exponent >= 0.
template <class T> T intPow(T base, T exponent) {
  if (exponent < 0) throw std::domain_error("pow: integer to a negative power");
  using U = std::make_unsigned_t<T>;
  U result = 1, b = U(base);
  for (uint64_t e = uint64_t(exponent); e != 0; e >>= 1) {
    if (e & 1) result = U(result * b);
    b = U(b * b);
  }
  return T(result);
}

/// NaN-propagating maximum/minimum (NumPy's np.maximum / np.minimum).
template <class T> T nanMax(T a, T b) { return a != a ? a : b != b ? b : (a < b ? b : a); }
template <class T> T nanMin(T a, T b) { return a != a ? a : b != b ? b : (b < a ? b : a); }

template <class T, class F>
Tensor mapUnary(const Tensor& x, F f) {
  Tensor out(x.dtype(), x.shape());
  const T* in = x.data<T>();
  T* o = out.data<T>();
  for (int64_t i = 0; i < out.numel(); ++i) o[i] = f(in[i]);
  return out;
}

/// out[i] = f(a[ia], b[ib]) over the broadcast shape; R is the result element type.
template <class T, class R, class F>
Tensor mapBinary(const Tensor& a, const Tensor& b, F f) {
  std::vector<int64_t> shape = broadcastShapes(a.shape(), b.shape());
  std::vector<int64_t> sa = broadcastStrides(a.shape(), shape), sb = broadcastStrides(b.shape(), shape);
  Tensor out(dtypeOf<R>(), shape);
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  R* o = out.data<R>();
  for (int64_t i = 0; i < out.numel(); ++i) o[i] = f(pa[stridedOffset(i, shape, sa)], pb[stridedOffset(i, shape, sb)]);
  return out;
}

template <class T>
Tensor floatUnary(OpKind op, const Tensor& x) {
  // Transcendentals: evaluated in double, rounded to T once.
  auto viaDouble = [&](double (*f)(double)) { return mapUnary<T>(x, [f](T v) { return T(f(double(v))); }); };
  switch (op) {
    case OpKind::Neg: return mapUnary<T>(x, [](T v) { return T(-v); });
    case OpKind::Exp: return viaDouble([](double v) { return std::exp(v); });
    case OpKind::Log: return viaDouble([](double v) { return std::log(v); });
    case OpKind::Sqrt: return viaDouble([](double v) { return std::sqrt(v); });
    case OpKind::Tanh: return viaDouble([](double v) { return std::tanh(v); });
    case OpKind::Sigmoid: return viaDouble([](double v) { return 1.0 / (1.0 + std::exp(-v)); });
    case OpKind::Relu: return mapUnary<T>(x, [](T v) { return v < T(0) ? T(0) : v; });
    case OpKind::Abs: return mapUnary<T>(x, [](T v) { return T(std::fabs(v)); });
    case OpKind::Sin: return viaDouble([](double v) { return std::sin(v); });
    case OpKind::Cos: return viaDouble([](double v) { return std::cos(v); });
    default: throw unsupported(op, x.dtype());
  }
}

template <class T>
Tensor integerUnary(OpKind op, const Tensor& x) {
  switch (op) {
    case OpKind::Neg: return mapUnary<T>(x, [](T v) { return wrapNeg(v); });
    case OpKind::Relu: return mapUnary<T>(x, [](T v) { return v < 0 ? T(0) : v; });
    case OpKind::Abs: return mapUnary<T>(x, [](T v) { return v < 0 ? wrapNeg(v) : v; });
    default: throw unsupported(op, x.dtype());
  }
}

/// Lt..Ne on any dtype; returns false if `op` is not a comparison.
template <class T>
std::optional<Tensor> comparison(OpKind op, const Tensor& a, const Tensor& b) {
  switch (op) {
    case OpKind::Lt: return mapBinary<T, bool>(a, b, [](T x, T y) { return x < y; });
    case OpKind::Le: return mapBinary<T, bool>(a, b, [](T x, T y) { return x <= y; });
    case OpKind::Gt: return mapBinary<T, bool>(a, b, [](T x, T y) { return x > y; });
    case OpKind::Ge: return mapBinary<T, bool>(a, b, [](T x, T y) { return x >= y; });
    case OpKind::Eq: return mapBinary<T, bool>(a, b, [](T x, T y) { return x == y; });
    case OpKind::Ne: return mapBinary<T, bool>(a, b, [](T x, T y) { return x != y; });
    default: return std::nullopt;
  }
}

Tensor boolBinary(OpKind op, const Tensor& a, const Tensor& b) {
  switch (op) {
    case OpKind::And:
    case OpKind::Minimum: return mapBinary<bool, bool>(a, b, [](bool x, bool y) { return x && y; });
    case OpKind::Or:
    case OpKind::Maximum: return mapBinary<bool, bool>(a, b, [](bool x, bool y) { return x || y; });
    default: throw unsupported(op, DType::Bool);
  }
}

template <class T>
Tensor floatBinary(OpKind op, const Tensor& a, const Tensor& b) {
  switch (op) {
    case OpKind::Add: return mapBinary<T, T>(a, b, [](T x, T y) { return T(x + y); });
    case OpKind::Sub: return mapBinary<T, T>(a, b, [](T x, T y) { return T(x - y); });
    case OpKind::Mul: return mapBinary<T, T>(a, b, [](T x, T y) { return T(x * y); });
    case OpKind::Div: return mapBinary<T, T>(a, b, [](T x, T y) { return T(x / y); });
    case OpKind::Pow: return mapBinary<T, T>(a, b, [](T x, T y) { return T(std::pow(double(x), double(y))); });
    case OpKind::Maximum: return mapBinary<T, T>(a, b, nanMax<T>);
    case OpKind::Minimum: return mapBinary<T, T>(a, b, nanMin<T>);
    default: throw unsupported(op, a.dtype());
  }
}

template <class T>
Tensor integerBinary(OpKind op, const Tensor& a, const Tensor& b) {
  switch (op) {
    case OpKind::Add: return mapBinary<T, T>(a, b, wrapAdd<T>);
    case OpKind::Sub: return mapBinary<T, T>(a, b, wrapSub<T>);
    case OpKind::Mul: return mapBinary<T, T>(a, b, wrapMul<T>);
    case OpKind::Div: return mapBinary<T, T>(a, b, floorDiv<T>);
    case OpKind::Pow: return mapBinary<T, T>(a, b, intPow<T>);
    case OpKind::Maximum: return mapBinary<T, T>(a, b, [](T x, T y) { return std::max(x, y); });
    case OpKind::Minimum: return mapBinary<T, T>(a, b, [](T x, T y) { return std::min(x, y); });
    default: throw unsupported(op, a.dtype());
  }
}

}  // namespace

Tensor evalUnary(OpKind op, const Tensor& x) {
  return visitDType(x.dtype(), [&]<class T>() -> Tensor {
    if constexpr (std::is_same_v<T, bool>) {
      if (op != OpKind::Not) throw unsupported(op, x.dtype());
      return mapUnary<bool>(x, [](bool v) { return !v; });
    } else if constexpr (std::is_floating_point_v<T>) {
      return floatUnary<T>(op, x);
    } else {
      return integerUnary<T>(op, x);
    }
  });
}

Tensor evalBinary(OpKind op, const Tensor& a, const Tensor& b) {
  requireSameDType(op, {&a, &b});
  return visitDType(a.dtype(), [&]<class T>() -> Tensor {
    if (auto result = comparison<T>(op, a, b)) return *result;
    if constexpr (std::is_same_v<T, bool>) return boolBinary(op, a, b);
    else if constexpr (std::is_floating_point_v<T>) return floatBinary<T>(op, a, b);
    else return integerBinary<T>(op, a, b);
  });
}

Tensor evalWhere(const Tensor& cond, const Tensor& a, const Tensor& b) {
  if (cond.dtype() != DType::Bool)
    throw std::invalid_argument(errorPrefix(OpKind::Where) + "condition must be bool, got " +
                                std::string(dtypeName(cond.dtype())));
  requireSameDType(OpKind::Where, {&a, &b});
  std::vector<int64_t> shape = broadcastShapes(broadcastShapes(cond.shape(), a.shape()), b.shape());
  std::vector<int64_t> sc = broadcastStrides(cond.shape(), shape), sa = broadcastStrides(a.shape(), shape),
                       sb = broadcastStrides(b.shape(), shape);
  Tensor out(a.dtype(), shape);
  visitDType(a.dtype(), [&]<class T>() {
    const bool* pc = cond.data<bool>();
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* o = out.data<T>();
    for (int64_t i = 0; i < out.numel(); ++i)
      o[i] = pc[stridedOffset(i, shape, sc)] ? pa[stridedOffset(i, shape, sa)] : pb[stridedOffset(i, shape, sb)];
  });
  return out;
}

}  // namespace tempo::ref::detail
