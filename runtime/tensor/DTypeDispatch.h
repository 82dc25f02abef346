// DTypeDispatch: maps each DType to its C++ element type and back.
//
// `visitDType(t, f)` calls `f.template operator()<T>()` with T the element
// type of `t` (float, double, int32_t, int64_t, bool), so kernels can be
// written once as a templated lambda `[&]<class T>() { ... }` and instantiated
// for every dtype. `dtypeOf<T>` is the inverse mapping.
#pragma once

#include "types/DType.h"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace tempo {

static_assert(sizeof(bool) == 1, "bool tensors store one byte per element");

template <class T>
constexpr DType dtypeOf() {
  if constexpr (std::is_same_v<T, float>) return DType::F32;
  else if constexpr (std::is_same_v<T, double>) return DType::F64;
  else if constexpr (std::is_same_v<T, int32_t>) return DType::I32;
  else if constexpr (std::is_same_v<T, int64_t>) return DType::I64;
  else if constexpr (std::is_same_v<T, bool>) return DType::Bool;
  else static_assert(!sizeof(T), "not a tensor element type");
}

template <class F>
decltype(auto) visitDType(DType t, F&& f) {
  switch (t) {
    case DType::F32: return f.template operator()<float>();
    case DType::F64: return f.template operator()<double>();
    case DType::I32: return f.template operator()<int32_t>();
    case DType::I64: return f.template operator()<int64_t>();
    case DType::Bool: return f.template operator()<bool>();
  }
  throw std::logic_error("visitDType: unknown dtype");
}

/// Converts a double to element type T: bool is `v != 0`; integers truncate
/// toward zero, NaN becomes 0 and out-of-range values saturate (a defined
/// stand-in for C++'s undefined behaviour there).
template <class T>
T fromDouble(double v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    if (v != v) return 0;
    constexpr double lo = -static_cast<double>(std::numeric_limits<T>::max()) - 1.0;
    constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());  // may round up
    if (v <= lo) return std::numeric_limits<T>::min();
    if (v >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  }
}

/// One element of a cast (Tensor::converted): integers to integers wrap like
/// NumPy, anything to bool is `!= 0`, everything else goes through fromDouble.
template <class From, class To>
To convertElement(From v) {
  if constexpr (std::is_same_v<From, To>) return v;
  else if constexpr (std::is_integral_v<From> && std::is_integral_v<To>)
    return std::is_same_v<To, bool> ? To(v != 0) : static_cast<To>(v);
  else return fromDouble<To>(static_cast<double>(v));
}

}  // namespace tempo
