#include "passes/ScalarFolding.h"

#include <cmath>
#include <type_traits>

namespace tempo {

namespace {

template <class T> T nanMax(T a, T b) { return a != a ? a : b != b ? b : (a < b ? b : a); }
template <class T> T nanMin(T a, T b) { return a != a ? a : b != b ? b : (b < a ? b : a); }

template <class T> T wrap(uint64_t bits) { return T(std::make_unsigned_t<T>(bits)); }

template <class T>
std::optional<double> foldFloat(OpKind op, const std::vector<double>& in) {
  T a = T(in[0]);
  T b = in.size() > 1 ? T(in[1]) : T(0);
  auto viaDouble = [&](double v) { return double(T(v)); };
  switch (op) {
    case OpKind::Neg: return double(T(-a));
    case OpKind::Exp: return viaDouble(std::exp(double(a)));
    case OpKind::Log: return viaDouble(std::log(double(a)));
    case OpKind::Sqrt: return viaDouble(std::sqrt(double(a)));
    case OpKind::Tanh: return viaDouble(std::tanh(double(a)));
    case OpKind::Sigmoid: return viaDouble(1.0 / (1.0 + std::exp(-double(a))));
    case OpKind::Relu: return double(a < T(0) ? T(0) : a);
    case OpKind::Abs: return double(T(std::fabs(a)));
    case OpKind::Sin: return viaDouble(std::sin(double(a)));
    case OpKind::Cos: return viaDouble(std::cos(double(a)));
    case OpKind::Add: return double(T(a + b));
    case OpKind::Sub: return double(T(a - b));
    case OpKind::Mul: return double(T(a * b));
    case OpKind::Div: return double(T(a / b));
    case OpKind::Pow: return viaDouble(std::pow(double(a), double(b)));
    case OpKind::Maximum: return double(nanMax(a, b));
    case OpKind::Minimum: return double(nanMin(a, b));
    default: return std::nullopt;
  }
}

template <class T>
std::optional<double> foldInteger(OpKind op, const std::vector<double>& in) {
  T a = T(in[0]);
  T b = in.size() > 1 ? T(in[1]) : T(0);
  using U = std::make_unsigned_t<T>;
  switch (op) {
    case OpKind::Neg: return double(wrap<T>(U(0) - U(a)));
    case OpKind::Relu: return double(a < 0 ? T(0) : a);
    case OpKind::Abs: return double(a < 0 ? wrap<T>(U(0) - U(a)) : a);
    case OpKind::Add: return double(wrap<T>(U(a) + U(b)));
    case OpKind::Sub: return double(wrap<T>(U(a) - U(b)));
    case OpKind::Mul: return double(wrap<T>(U(a) * U(b)));
    case OpKind::Maximum: return double(a < b ? b : a);
    case OpKind::Minimum: return double(b < a ? b : a);
    default: return std::nullopt;
  }
}

template <class T>
std::optional<double> foldComparison(OpKind op, double x, double y) {
  T a = T(x), b = T(y);
  switch (op) {
    case OpKind::Lt: return a < b;
    case OpKind::Le: return a <= b;
    case OpKind::Gt: return a > b;
    case OpKind::Ge: return a >= b;
    case OpKind::Eq: return a == b;
    case OpKind::Ne: return a != b;
    default: return std::nullopt;
  }
}

std::optional<double> foldBool(OpKind op, const std::vector<double>& in) {
  bool a = in[0] != 0, b = in.size() > 1 && in[1] != 0;
  switch (op) {
    case OpKind::Not: return !a;
    case OpKind::And: case OpKind::Minimum: return a && b;
    case OpKind::Or: case OpKind::Maximum: return a || b;
    default: return std::nullopt;
  }
}

template <class T>
std::optional<double> foldTyped(OpKind op, const std::vector<double>& in) {
  if (isComparison(op)) return in.size() == 2 ? foldComparison<T>(op, in[0], in[1]) : std::nullopt;
  if constexpr (std::is_same_v<T, bool>) return foldBool(op, in);
  else if constexpr (std::is_floating_point_v<T>) return foldFloat<T>(op, in);
  else return foldInteger<T>(op, in);
}

}  // namespace

std::optional<double> foldScalar(OpKind op, DType inputType, const std::vector<double>& inputs) {
  OpClass cls = opClass(op);
  if (cls == OpClass::Ternary && op == OpKind::Where && inputs.size() == 3)
    return inputs[0] != 0 ? inputs[1] : inputs[2];
  if ((cls != OpClass::Unary && cls != OpClass::Binary) || inputs.empty()) return std::nullopt;
  if (static_cast<int>(inputs.size()) != opArity(op)) return std::nullopt;
  switch (inputType) {
    case DType::F32: return foldTyped<float>(op, inputs);
    case DType::F64: return foldTyped<double>(op, inputs);
    case DType::I32: return foldTyped<int32_t>(op, inputs);
    case DType::I64: return foldTyped<int64_t>(op, inputs);
    case DType::Bool: return foldTyped<bool>(op, inputs);
  }
  return std::nullopt;
}

}  // namespace tempo
