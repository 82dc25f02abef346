// Reference gather and scatter_add along one axis (NumPy's take and its adjoint), and
// take_along and scatter_along_add (NumPy's take_along_axis, torch.gather, and its adjoint:
// one id per position of each row).
// x of shape [pre..., n, post...] and ids of any shape give [pre..., ids..., post...];
// an id outside [0, n) is an error naming it. scatter_add adds g's slices into zeros at
// the ids in increasing flat order of the ids (a repeated id accumulates; float sums in
// double, rounded once).
#include "kernels/KernelParts.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

namespace tempo::ref::detail {
namespace {

/// The sizes around `axis`: elements before it (outer), along it, and after it (inner).
struct AxisSplit {
  int64_t outer = 1, along = 1, inner = 1;
};

AxisSplit splitAt(const std::vector<int64_t>& shape, int64_t axis) {
  AxisSplit s;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < axis) s.outer *= shape[d];
    else if (d == axis) s.along = shape[d];
    else s.inner *= shape[d];
  }
  return s;
}

/// The ids as int64, each checked against [0, n).
std::vector<int64_t> checkedIds(OpKind op, const Tensor& ids, int64_t n) {
  if (ids.dtype() != DType::I32 && ids.dtype() != DType::I64)
    throw std::invalid_argument(errorPrefix(op) + "ids must be integers, not " + std::string(dtypeName(ids.dtype())));
  Tensor flat = ids.converted(DType::I64);
  std::vector<int64_t> out(flat.data<int64_t>(), flat.data<int64_t>() + flat.numel());
  for (int64_t id : out)
    if (id < 0 || id >= n)
      throw std::invalid_argument(errorPrefix(op) + "id " + std::to_string(id) + " is out of range [0, " +
                                  std::to_string(n) + ")");
  return out;
}

std::vector<int64_t> gatheredShape(const std::vector<int64_t>& x, int64_t axis, const std::vector<int64_t>& ids) {
  std::vector<int64_t> out(x.begin(), x.begin() + axis);
  out.insert(out.end(), ids.begin(), ids.end());
  out.insert(out.end(), x.begin() + axis + 1, x.end());
  return out;
}

/// Zeros of `outShape` with each element p of `g` added at `target(p)` (a repeated target
/// accumulates; float sums in double, rounded once): the adjoints of the gathers.
template <class Target>
Tensor addInto(OpKind op, const Tensor& g, const std::vector<int64_t>& outShape, Target target) {
  Tensor out(g.dtype(), outShape);
  const Tensor in = g.contiguous();
  visitDType(g.dtype(), [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>) {
      throw std::invalid_argument(errorPrefix(op) + "not defined on bool");
    } else {
      using Acc = std::conditional_t<std::is_floating_point_v<T>, double, T>;
      std::vector<Acc> acc(static_cast<size_t>(out.numel()), Acc(0));
      const T* from = in.data<T>();
      for (int64_t p = 0; p < in.numel(); ++p) acc[static_cast<size_t>(target(p))] += Acc(from[p]);
      T* o = out.data<T>();
      for (size_t i = 0; i < acc.size(); ++i) o[i] = static_cast<T>(acc[i]);
    }
  });
  return out;
}

void checkAxis(OpKind op, int64_t axis, size_t rank) {
  if (axis < 0 || axis >= static_cast<int64_t>(rank))
    throw std::invalid_argument(errorPrefix(op) + "axis " + std::to_string(axis) + " out of range for rank " +
                                std::to_string(rank));
}

}  // namespace

Tensor evalGather(const Tensor& x, const Tensor& ids, int64_t axis) {
  checkAxis(OpKind::Gather, axis, x.shape().size());
  const AxisSplit s = splitAt(x.shape(), axis);
  const std::vector<int64_t> picked = checkedIds(OpKind::Gather, ids, s.along);
  const Tensor in = x.contiguous();
  Tensor out(x.dtype(), gatheredShape(x.shape(), axis, ids.shape()));
  const int64_t width = s.inner * static_cast<int64_t>(dtypeSize(x.dtype())), count = static_cast<int64_t>(picked.size());
  const auto* from = reinterpret_cast<const std::byte*>(in.raw());
  auto* to = reinterpret_cast<std::byte*>(out.raw());
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t k = 0; k < count; ++k)
      std::copy_n(from + (o * s.along + picked[k]) * width, width, to + (o * count + k) * width);
  return out;
}

Tensor evalScatterAdd(const Tensor& ids, const Tensor& g, int64_t axis, const std::vector<int64_t>& outShape) {
  checkAxis(OpKind::ScatterAdd, axis, outShape.size());
  const AxisSplit s = splitAt(outShape, axis);
  const std::vector<int64_t> picked = checkedIds(OpKind::ScatterAdd, ids, s.along);
  if (g.shape() != gatheredShape(outShape, axis, ids.shape()))
    throw std::invalid_argument(errorPrefix(OpKind::ScatterAdd) + "the added values' shape does not match the ids");
  const int64_t count = static_cast<int64_t>(picked.size());
  return addInto(OpKind::ScatterAdd, g, outShape, [&](int64_t p) {  // g's element p = (o, k, i)
    const int64_t i = p % s.inner, k = (p / s.inner) % count, o = p / s.inner / count;
    return (o * s.along + picked[static_cast<size_t>(k)]) * s.inner + i;
  });
}

namespace {

/// take_along's operands: ids with x's rank and sizes except along `axis` (ExecError-free: invalid_argument).
void checkAlong(OpKind op, const std::vector<int64_t>& x, const Tensor& ids, int64_t axis) {
  checkAxis(op, axis, x.size());
  bool fits = ids.shape().size() == x.size();
  for (size_t d = 0; fits && d < x.size(); ++d) fits = static_cast<int64_t>(d) == axis || ids.shape()[d] == x[d];
  if (!fits) throw std::invalid_argument(errorPrefix(op) + "the ids' shape differs from the tensor's outside axis " + std::to_string(axis));
}

}  // namespace

Tensor evalTakeAlong(const Tensor& x, const Tensor& ids, int64_t axis) {
  checkAlong(OpKind::TakeAlong, x.shape(), ids, axis);
  const AxisSplit s = splitAt(x.shape(), axis), picks = splitAt(ids.shape(), axis);
  const std::vector<int64_t> picked = checkedIds(OpKind::TakeAlong, ids, s.along);
  const Tensor in = x.contiguous();
  Tensor out(x.dtype(), ids.shape());
  const size_t width = dtypeSize(x.dtype());
  const auto* from = reinterpret_cast<const std::byte*>(in.raw());
  auto* to = reinterpret_cast<std::byte*>(out.raw());
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t j = 0; j < picks.along; ++j)
      for (int64_t i = 0; i < s.inner; ++i) {
        const int64_t at = (o * picks.along + j) * s.inner + i;
        std::copy_n(from + ((o * s.along + picked[static_cast<size_t>(at)]) * s.inner + i) * width, width, to + at * width);
      }
  return out;
}

Tensor evalScatterAlongAdd(const Tensor& ids, const Tensor& g, int64_t axis, const std::vector<int64_t>& outShape) {
  checkAlong(OpKind::ScatterAlongAdd, outShape, ids, axis);
  if (g.shape() != ids.shape())
    throw std::invalid_argument(errorPrefix(OpKind::ScatterAlongAdd) + "the added values' shape is not the ids'");
  const AxisSplit s = splitAt(outShape, axis), picks = splitAt(ids.shape(), axis);
  const std::vector<int64_t> picked = checkedIds(OpKind::ScatterAlongAdd, ids, s.along);
  return addInto(OpKind::ScatterAlongAdd, g, outShape, [&](int64_t p) {  // g's element p = (o, j, i), its id picked[p]
    const int64_t i = p % s.inner, o = p / s.inner / picks.along;
    return (o * s.along + picked[static_cast<size_t>(p)]) * s.inner + i;
  });
}

}  // namespace tempo::ref::detail
