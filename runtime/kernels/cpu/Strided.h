// Strided: walking N operands over one C-order iteration space in contiguous spans.
//
// The elementwise and movement kernels all read operands through "strides
// over the output shape" (see kernels/Broadcast.h: 0 on a broadcast axis).
// StridedLoop drops size-1 axes and merges adjacent axes that every operand
// walks contiguously, so a same-shape op becomes one flat span, a row
// broadcast ([32, 256] + [256]) becomes rows of 256 with stride (1, 1, 1) or
// (1, 1, 0). `forSpans(begin, end, f)` visits flat output positions
// [begin, end) as spans along the innermost merged axis, calling
// `f(offsets, count)` with each operand's element offset at the span start;
// the per-operand inner strides are `innerStrides()`. Splitting [0, size())
// into ranges is how kernels go parallel; offsets are advanced by an odometer,
// never by division per element. `operandStrides` gives a tensor's strides over
// an output shape whether it is contiguous or a strided view (Tensor::permutedView,
// expandedView), so every kernel built on StridedLoop reads views as they are.
#pragma once

#include "kernels/Broadcast.h"
#include "tensor/Tensor.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tempo::cpu {

/// `t`'s element strides over the output `shape` (NumPy broadcasting: 0 on a stretched or
/// missing axis), for a contiguous tensor or a strided view alike; throws
/// std::invalid_argument unless t's shape broadcasts to `shape`.
inline std::vector<int64_t> operandStrides(const Tensor& t, const std::vector<int64_t>& shape) {
  std::vector<int64_t> out = ref::broadcastStrides(t.shape(), shape);
  if (t.isContiguous()) return out;
  const std::vector<int64_t> own = t.strides();
  const size_t lead = shape.size() - own.size();
  for (size_t d = 0; d < own.size(); ++d)
    if (out[lead + d] != 0) out[lead + d] = own[d];
  return out;
}

template <size_t N>
class StridedLoop {
public:
  using Offsets = std::array<int64_t, N>;

  /// `strides[k]` has one entry per axis of `shape` (operand k's element stride there).
  StridedLoop(const std::vector<int64_t>& shape, const std::array<std::vector<int64_t>, N>& strides) {
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 0) size_ = 0;
      if (shape[d] == 1) continue;
      Offsets s;
      for (size_t k = 0; k < N; ++k) s[k] = strides[k][d];
      bool merge = !dims_.empty();
      for (size_t k = 0; merge && k < N; ++k) merge = dimStrides_.back()[k] == s[k] * shape[d];
      if (merge) {
        dims_.back() *= shape[d];
        dimStrides_.back() = s;
      } else {
        dims_.push_back(shape[d]);
        dimStrides_.push_back(s);
      }
    }
    if (!dims_.empty()) {
      inner_ = dims_.back();
      innerStrides_ = dimStrides_.back();
      dims_.pop_back();
      dimStrides_.pop_back();
    }
    if (size_ != 0) size_ = inner_;
    for (int64_t d : dims_) size_ *= d;
  }

  int64_t size() const { return size_; }
  int64_t inner() const { return inner_; }
  const Offsets& innerStrides() const { return innerStrides_; }

  template <class F>
  void forSpans(int64_t begin, int64_t end, F&& f) const {
    if (begin >= end) return;
    std::vector<int64_t> idx(dims_.size());
    Offsets off{};
    int64_t row = begin / inner_, col = begin % inner_;
    for (size_t d = dims_.size(); d-- > 0;) {
      idx[d] = row % dims_[d];
      row /= dims_[d];
      for (size_t k = 0; k < N; ++k) off[k] += idx[d] * dimStrides_[d][k];
    }
    for (int64_t pos = begin; pos < end;) {
      int64_t count = std::min(inner_ - col, end - pos);
      Offsets at = off;
      for (size_t k = 0; k < N; ++k) at[k] += col * innerStrides_[k];
      f(at, count);
      pos += count;
      col = 0;
      for (size_t d = dims_.size(); d-- > 0;) {  // next row
        for (size_t k = 0; k < N; ++k) off[k] += dimStrides_[d][k];
        if (++idx[d] < dims_[d]) break;
        for (size_t k = 0; k < N; ++k) off[k] -= dimStrides_[d][k] * dims_[d];
        idx[d] = 0;
      }
    }
  }

private:
  std::vector<int64_t> dims_;        // outer merged axes
  std::vector<Offsets> dimStrides_;  // their strides per operand
  int64_t inner_ = 1;
  Offsets innerStrides_{};
  int64_t size_ = 1;
};

}  // namespace tempo::cpu
