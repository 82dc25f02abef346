// Reference argtopk along one axis: for every line of x along `axis`, the positions of its
// k largest values, largest first. Ties keep the lower position first and a NaN counts as
// larger than every number (the first NaN first), so argtopk(x, 1) is argmax(x). k larger
// than the axis (a size the front end could not check) is an error naming both.
#include "kernels/KernelParts.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace tempo::ref::detail {
namespace {

template <class T>
bool before(T a, int64_t ia, T b, int64_t ib) {  // a at ia comes before b at ib
  if constexpr (std::is_floating_point_v<T>) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na && (!nb || ia < ib);
  }
  return a > b || (a == b && ia < ib);
}

template <class T>
void topLines(const T* x, int64_t* out, int64_t outer, int64_t n, int64_t inner, int64_t k) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const T* line = x + o * n * inner + i;
      std::iota(order.begin(), order.end(), int64_t(0));
      std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
        return before(line[a * inner], a, line[b * inner], b);
      });
      for (int64_t j = 0; j < k; ++j) out[(o * k + j) * inner + i] = order[static_cast<size_t>(j)];
    }
}

}  // namespace

Tensor evalArgTopK(const Tensor& x, int64_t axis, int64_t k) {
  const std::vector<int64_t>& shape = x.shape();
  if (axis < 0 || axis >= static_cast<int64_t>(shape.size()))
    throw std::invalid_argument(errorPrefix(OpKind::ArgTopK) + "axis " + std::to_string(axis) +
                                " out of range for rank " + std::to_string(shape.size()));
  const int64_t n = shape[axis];
  if (k < 1 || k > n)
    throw std::invalid_argument(errorPrefix(OpKind::ArgTopK) + "k = " + std::to_string(k) + " is not in [1, " +
                                std::to_string(n) + "] (the size of axis " + std::to_string(axis) + ")");
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[d];
  for (int64_t d = axis + 1; d < static_cast<int64_t>(shape.size()); ++d) inner *= shape[d];
  std::vector<int64_t> outShape = shape;
  outShape[axis] = k;
  Tensor out(DType::I64, outShape);
  const Tensor c = x.contiguous();
  int64_t* o = out.data<int64_t>();
  switch (c.dtype()) {
    case DType::F32: topLines(c.data<float>(), o, outer, n, inner, k); break;
    case DType::F64: topLines(c.data<double>(), o, outer, n, inner, k); break;
    case DType::I32: topLines(c.data<int32_t>(), o, outer, n, inner, k); break;
    case DType::I64: topLines(c.data<int64_t>(), o, outer, n, inner, k); break;
    default:
      throw std::invalid_argument(errorPrefix(OpKind::ArgTopK) + "bool operands are not allowed (use cast)");
  }
  return out;
}

}  // namespace tempo::ref::detail
