// Reference matmul with numpy.matmul's rank rules. Floats accumulate in
// double over increasing k and round once; integers accumulate with
// wrap-around; bool is OR of ANDs.
#include "kernels/Broadcast.h"
#include "kernels/KernelParts.h"

#include <stdexcept>
#include <type_traits>

namespace tempo::ref::detail {
namespace {

/// The accumulator of one dot product for element type T.
template <class T>
struct DotAccumulator {
  using Acc = std::conditional_t<std::is_floating_point_v<T>, double,
                                 std::conditional_t<std::is_same_v<T, bool>, bool, uint64_t>>;
  Acc sum{};
  void add(T x, T y) {
    if constexpr (std::is_same_v<T, bool>) sum = sum || (x && y);
    else if constexpr (std::is_floating_point_v<T>) sum += double(x) * double(y);
    else sum += uint64_t(int64_t(x)) * uint64_t(int64_t(y));  // wraps mod 2^64, truncated below
  }
  T result() const { return static_cast<T>(sum); }
};

/// Batch dims, rows/cols of one operand after promoting a 1-D operand to a matrix.
struct MatrixView {
  std::vector<int64_t> batch;
  int64_t rows = 0, cols = 0;
};

MatrixView asMatrix(const std::vector<int64_t>& shape, bool isLeft) {
  if (shape.size() == 1) return isLeft ? MatrixView{{}, 1, shape[0]} : MatrixView{{}, shape[0], 1};
  return {std::vector<int64_t>(shape.begin(), shape.end() - 2), shape[shape.size() - 2], shape.back()};
}

}  // namespace

Tensor evalMatMul(const Tensor& a, const Tensor& b) {
  requireSameDType(OpKind::MatMul, {&a, &b});
  if (a.rank() == 0 || b.rank() == 0) throw std::invalid_argument("matmul: operands must have rank >= 1");
  MatrixView va = asMatrix(a.shape(), true), vb = asMatrix(b.shape(), false);
  if (va.cols != vb.rows)
    throw std::invalid_argument("matmul: contraction sizes differ: " + shapeString(a.shape()) + " @ " +
                                shapeString(b.shape()));
  int64_t m = va.rows, k = va.cols, n = vb.cols;
  std::vector<int64_t> batch = broadcastShapes(va.batch, vb.batch);
  std::vector<int64_t> sa = broadcastStrides(va.batch, batch), sb = broadcastStrides(vb.batch, batch);

  std::vector<int64_t> outShape = batch;
  if (a.rank() > 1) outShape.push_back(m);
  if (b.rank() > 1) outShape.push_back(n);
  Tensor out(a.dtype(), outShape);
  int64_t batchCount = shapeNumel(batch);

  visitDType(a.dtype(), [&]<class T>() {
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* o = out.data<T>();
    for (int64_t bi = 0; bi < batchCount; ++bi) {
      const T* ma = pa + stridedOffset(bi, batch, sa) * m * k;
      const T* mb = pb + stridedOffset(bi, batch, sb) * k * n;
      T* mo = o + bi * m * n;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          DotAccumulator<T> acc;
          for (int64_t p = 0; p < k; ++p) acc.add(ma[i * k + p], mb[p * n + j]);
          mo[i * n + j] = acc.result();
        }
    }
  });
  return out;
}

}  // namespace tempo::ref::detail
