// Fast reductions; strategy and numerics are stated in Reduce.h.
#include "kernels/cpu/Reduce.h"

#include "kernels/cpu/Parallel.h"
#include "kernels/cpu/Strided.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>

namespace tempo::cpu {
namespace {

/// A run of adjacent input axes that are all kept or all reduced, merged into one.
struct Run {
  int64_t size;
  bool reduced;
};

template <class T>
struct SumOp {
  using Acc = std::conditional_t<std::is_floating_point_v<T>, double, uint64_t>;
  static Acc identity() { return 0; }
  static Acc lift(T v) {
    if constexpr (std::is_floating_point_v<T>) return double(v);
    else return uint64_t(int64_t(v));  // wraps mod 2^64, truncated by finish
  }
  static Acc combine(Acc a, Acc v) { return a + v; }
  static T finish(Acc a) { return static_cast<T>(a); }
};

template <class T>
struct MaxOp {
  using Acc = T;
  static Acc identity() {
    if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  static Acc lift(T v) { return v; }
  static Acc combine(Acc o, Acc v) {
    if constexpr (std::is_floating_point_v<T>) return (o != o || v < o) ? o : v;  // NaN sticks
    else return o < v ? v : o;
  }
  static T finish(Acc a) { return a; }
};

/// Folds a contiguous row with 8 independent lanes (vectorisable), then the tail.
template <class Op, class T>
typename Op::Acc foldRow(const T* p, int64_t n) {
  using Acc = typename Op::Acc;
  constexpr int W = 8;
  Acc lanes[W];
  for (Acc& l : lanes) l = Op::identity();
  int64_t i = 0;
  for (; i + W <= n; i += W) {
#pragma omp simd
    for (int j = 0; j < W; ++j) lanes[j] = Op::combine(lanes[j], Op::lift(p[i + j]));
  }
  Acc r = Op::identity();
  for (Acc l : lanes) r = Op::combine(r, l);
  for (; i < n; ++i) r = Op::combine(r, Op::lift(p[i]));
  return r;
}

/// The input as rows of the innermost run, in C order over its logical shape: a
/// contiguous tensor's rows lie in place; a strided view's row is copied to a
/// scratch run first, so a view reduces through the very same folds as a copy of it.
template <class T>
class Rows {
public:
  Rows(const Tensor& x, int64_t length) : base_(x.viewData<T>()), length_(length) {
    if (!x.isContiguous()) loop_.emplace(x.shape(), std::array{ref::contiguousStrides(x.shape()), x.strides()});
  }
  /// Row p, valid at [c0, c1) of the returned pointer (`scratch` holds a copied row).
  const T* row(int64_t p, int64_t c0, int64_t c1, std::vector<std::byte>& scratch) const {
    if (!loop_) return base_ + p * length_;
    scratch.resize(static_cast<size_t>(length_) * sizeof(T));
    T* to = reinterpret_cast<T*>(scratch.data());
    const int64_t stride = loop_->innerStrides()[1], first = p * length_;
    loop_->forSpans(first + c0, first + c1, [&](const StridedLoop<2>::Offsets& off, int64_t n) {
      const T* from = base_ + off[1];
      T* dst = to + (off[0] - first);
      for (int64_t i = 0; i < n; ++i) dst[i] = from[i * stride];
    });
    return to;
  }

private:
  const T* base_;
  int64_t length_;
  std::optional<StridedLoop<2>> loop_;
};

/// The serial odometer: for every outer position (all runs but the last) in
/// order, folds its innermost run into the accumulators. Columns [c0, c1) of
/// a kept innermost run only.
template <class Op, class T>
void reduceRuns(const Rows<T>& in, typename Op::Acc* acc, const std::vector<Run>& runs, int64_t c0, int64_t c1) {
  std::vector<std::byte> scratch;
  const Run& last = runs.back();
  size_t outer = runs.size() - 1;
  std::vector<int64_t> outStride(outer, 0), idx(outer, 0);
  int64_t s = last.reduced ? 1 : last.size, positions = 1;
  for (size_t r = outer; r-- > 0;) {
    if (!runs[r].reduced) outStride[r] = s, s *= runs[r].size;
    positions *= runs[r].size;
  }
  int64_t outBase = 0;
  for (int64_t p = 0; p < positions; ++p) {
    const T* row = in.row(p, last.reduced ? 0 : c0, last.reduced ? last.size : c1, scratch);
    if (last.reduced) {
      acc[outBase] = Op::combine(acc[outBase], foldRow<Op>(row, last.size));
    } else {
      typename Op::Acc* o = acc + outBase;
#pragma omp simd
      for (int64_t j = c0; j < c1; ++j) o[j] = Op::combine(o[j], Op::lift(row[j]));
    }
    for (size_t r = outer; r-- > 0;) {
      outBase += outStride[r];
      if (++idx[r] < runs[r].size) break;
      outBase -= outStride[r] * runs[r].size;
      idx[r] = 0;
    }
  }
}

template <class Op, class T>
void reduceInto(const Tensor& x, Tensor& out, const std::vector<Run>& runs) {
  using Acc = typename Op::Acc;
  int64_t outCount = out.numel();
  std::unique_ptr<Acc[]> acc(new Acc[outCount]);  // not std::vector: Acc may be bool
  std::fill(acc.get(), acc.get() + outCount, Op::identity());
  const Run& last = runs.back();
  const Rows<T> in(x, last.size);
  bool outerKept = true;
  for (size_t r = 0; r + 1 < runs.size(); ++r) outerKept = outerKept && !runs[r].reduced;
  if (!last.reduced) {  // columns are independent
    int64_t rows = last.size == 0 ? 0 : x.numel() / last.size;
    parallelFor(last.size, rows, [&](int64_t c0, int64_t c1) { reduceRuns<Op>(in, acc.get(), runs, c0, c1); });
  } else if (outerKept) {  // rows are independent
    parallelFor(outCount, last.size, [&](int64_t r0, int64_t r1) {
      std::vector<std::byte> scratch;
      for (int64_t r = r0; r < r1; ++r) acc[r] = foldRow<Op>(in.row(r, 0, last.size, scratch), last.size);
    });
  } else {
    reduceRuns<Op>(in, acc.get(), runs, 0, 0);
  }
  T* o = out.data<T>();
  for (int64_t i = 0; i < outCount; ++i) o[i] = Op::finish(acc[i]);
}

}  // namespace

std::optional<Tensor> reduce(OpKind op, const Tensor& x, const std::vector<int64_t>& axes, bool keepDims) {
  if (op != OpKind::ReduceSum && op != OpKind::ReduceMax) return std::nullopt;
  if (op == OpKind::ReduceSum && x.dtype() == DType::Bool) return std::nullopt;
  std::vector<bool> reduced(x.rank(), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= x.rank() || (i > 0 && axes[i] <= axes[i - 1])) return std::nullopt;
    reduced[axes[i]] = true;
  }
  std::vector<int64_t> outShape;
  std::vector<Run> runs;
  for (int d = 0; d < x.rank(); ++d) {
    int64_t size = x.shape()[d];
    if (!reduced[d]) outShape.push_back(size);
    else if (keepDims) outShape.push_back(1);
    if (size == 1) continue;
    if (!runs.empty() && runs.back().reduced == reduced[d]) runs.back().size *= size;
    else runs.push_back({size, reduced[d]});
  }
  if (runs.empty()) runs.push_back({1, false});
  Tensor out(x.dtype(), outShape);
  visitDType(x.dtype(), [&]<class T>() {
    if (op == OpKind::ReduceMax) reduceInto<MaxOp<T>, T>(x, out, runs);
    else if constexpr (!std::is_same_v<T, bool>) reduceInto<SumOp<T>, T>(x, out, runs);
  });
  return out;
}

}  // namespace tempo::cpu
