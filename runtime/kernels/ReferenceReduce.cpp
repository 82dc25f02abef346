// Reference reductions: reduce_sum and reduce_max over a sorted axis list,
// reduce_argmax over one axis. Each output element combines its inputs in
// increasing input flat index; float sums accumulate in double and round once;
// argmax keeps the first maximum (the first NaN, as NumPy).
#include <limits>
#include "kernels/KernelParts.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

namespace tempo::ref::detail {
namespace {

void checkAxes(OpKind op, const std::vector<int64_t>& axes, int rank) {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= rank)
      throw std::invalid_argument(errorPrefix(op) + "axis " + std::to_string(axes[i]) + " out of range for rank " +
                                  std::to_string(rank));
    if (i > 0 && axes[i] <= axes[i - 1])
      throw std::invalid_argument(errorPrefix(op) + "axes must be strictly increasing");
  }
}

/// The reduced shape, and for each input axis whether it is reduced.
std::vector<int64_t> reducedShape(const std::vector<int64_t>& shape, const std::vector<bool>& reduced, bool keepDims) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) out.push_back(shape[d]);
    else if (keepDims) out.push_back(1);
  }
  return out;
}

/// Flat output index of the input element at `flat` (reduced axes dropped).
int64_t outputIndex(int64_t flat, const std::vector<int64_t>& shape, const std::vector<bool>& reduced) {
  int64_t out = 0, scale = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t i = flat % shape[d];
    flat /= shape[d];
    if (reduced[d]) continue;
    out += i * scale;
    scale *= shape[d];
  }
  return out;
}

template <class T>
using SumAccumulator = std::conditional_t<std::is_floating_point_v<T>, double, uint64_t>;

template <class T>
void reduceSum(const Tensor& x, Tensor& out, const std::vector<bool>& reduced) {
  std::vector<SumAccumulator<T>> acc(out.numel(), 0);
  const T* in = x.data<T>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    auto& a = acc[outputIndex(i, x.shape(), reduced)];
    if constexpr (std::is_floating_point_v<T>) a += double(in[i]);
    else a += uint64_t(int64_t(in[i]));  // wraps; truncated to T below
  }
  T* o = out.data<T>();
  for (int64_t i = 0; i < out.numel(); ++i) o[i] = static_cast<T>(acc[i]);
}

template <class T>
void reduceMax(const Tensor& x, Tensor& out, const std::vector<bool>& reduced) {
  std::vector<bool> seen(out.numel(), false);
  const T* in = x.data<T>();
  T* o = out.data<T>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    int64_t j = outputIndex(i, x.shape(), reduced);
    T v = in[i];
    if (!seen[j]) o[j] = v;
    else if constexpr (std::is_floating_point_v<T>) o[j] = (o[j] != o[j] || v < o[j]) ? o[j] : v;  // NaN sticks
    else o[j] = std::max(o[j], v);
    seen[j] = true;
  }
}

/// The first index along `axis` of each maximum (a NaN is larger than everything, the first one wins).
template <class T>
void reduceArgMax(const Tensor& x, Tensor& out, const std::vector<bool>& reduced, int64_t axis) {
  int64_t stride = 1;
  for (int64_t d = x.rank() - 1; d > axis; --d) stride *= x.shape()[d];
  const int64_t size = x.shape()[axis];
  std::vector<T> best(out.numel());
  std::vector<bool> seen(out.numel(), false);
  const T* in = x.data<T>();
  int64_t* o = out.data<int64_t>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    int64_t j = outputIndex(i, x.shape(), reduced);
    T v = in[i];
    bool better = !seen[j];
    if constexpr (std::is_floating_point_v<T>) better = better || (best[j] == best[j] && (v != v || v > best[j]));
    else better = better || v > best[j];
    if (better) best[j] = v, o[j] = (i / stride) % size;
    seen[j] = true;
  }
}

}  // namespace

Tensor evalReduce(OpKind op, const Tensor& x, const std::vector<int64_t>& axes, bool keepDims) {
  checkAxes(op, axes, x.rank());
  std::vector<bool> reduced(x.rank(), false);
  for (int64_t a : axes) reduced[a] = true;
  if (op == OpKind::ReduceArgMax) {
    if (axes.size() != 1) throw std::invalid_argument(errorPrefix(op) + "exactly one axis");
    if (x.shape()[axes[0]] == 0) throw std::invalid_argument(errorPrefix(op) + "the argmax of an empty axis");
    if (x.dtype() == DType::Bool) throw std::invalid_argument(errorPrefix(op) + "not defined on bool");
    Tensor out(DType::I64, reducedShape(x.shape(), reduced, keepDims));
    visitDType(x.dtype(), [&]<class T>() {
      if constexpr (!std::is_same_v<T, bool>) reduceArgMax<T>(x, out, reduced, axes[0]);
    });
    return out;
  }
  Tensor out(x.dtype(), reducedShape(x.shape(), reduced, keepDims));
  visitDType(x.dtype(), [&]<class T>() {
    if (op == OpKind::ReduceMax) {
      // The maximum of nothing is the identity of max (-inf, or the lowest integer),
      // so a window that is empty at some points (x[0:t] at t = 0) is still defined.
      T* o = out.data<T>();
      T lowest = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
      std::fill(o, o + out.numel(), lowest);
      return reduceMax<T>(x, out, reduced);
    }
    if constexpr (std::is_same_v<T, bool>) throw std::invalid_argument("reduce_sum: not defined on bool");
    else reduceSum<T>(x, out, reduced);
  });
  return out;
}

}  // namespace tempo::ref::detail
