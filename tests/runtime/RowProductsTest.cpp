// Batched row-times-matrix products (decode's attention per head) against the reference.
#include "kernels/ReferenceKernels.h"
#include "kernels/cpu/CpuKernels.h"

#include <gtest/gtest.h>

#include <cmath>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tempo {
namespace {

Tensor wave(DType dtype, std::vector<int64_t> shape, double phase) {
  Tensor t(dtype, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, std::sin(0.37 * double(i) + phase));
  return t;
}

TEST(RowProducts, ManyRowsTimesSmallMatricesEqualTheReferenceInEitherOrientationAndAnyThreadCount) {
  // [B, NH, 1, D] @ a block of keys [BS, B, NH, D] read as [B, NH, D, BS] (columns unit-stride:
  // dot products), then [B, NH, 1, BS] @ values read as [B, NH, BS, D] (rows unit-stride: axpys);
  // a matrix shared by every batch (batch stride 0); and a left row that is itself a strided
  // view. The first two hold 512 KiB of matrices: every core takes a share of the batches.
  struct Case {
    std::vector<int64_t> a, b, permA, permB, out;
  };
  const std::vector<Case> cases = {{{8, 8, 1, 64}, {32, 8, 8, 64}, {}, {1, 2, 3, 0}, {8, 8, 1, 32}},
                                   {{8, 8, 1, 32}, {32, 8, 8, 64}, {}, {1, 2, 0, 3}, {8, 8, 1, 64}},
                                   {{6, 1, 40}, {40, 24}, {}, {}, {6, 1, 24}},
                                   {{6, 40, 1}, {6, 40, 24}, {0, 2, 1}, {}, {6, 1, 24}}};
  for (DType dtype : {DType::F32, DType::F64})
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(dtypeName(dtype)) + " " + shapeString(c.a) + " @ " + shapeString(c.b));
      Tensor a = wave(dtype, c.a, 0.1), b = wave(dtype, c.b, 0.7);
      OpAttrs attrs;
      attrs.permA = c.permA;
      attrs.permB = c.permB;
      Tensor want = ref::evalOp(OpKind::MatMul, attrs, {a, b}, dtype, c.out);
      Tensor got = cpu::evalOp(OpKind::MatMul, attrs, {a, b}, dtype, c.out);
      ASSERT_EQ(got.shape(), want.shape());
      const double tolerance = dtype == DType::F32 ? 1e-5 : 1e-12;
      for (int64_t i = 0; i < got.numel(); ++i) ASSERT_NEAR(got.at(i), want.at(i), tolerance * 64) << "at " << i;
#ifdef _OPENMP
      const int threads = omp_get_max_threads();
      omp_set_num_threads(1);
      Tensor single = cpu::evalOp(OpKind::MatMul, attrs, {a, b}, dtype, c.out);
      omp_set_num_threads(threads);
      for (int64_t i = 0; i < got.numel(); ++i) ASSERT_EQ(single.at(i), got.at(i)) << "at " << i;
#endif
    }
}

}  // namespace
}  // namespace tempo
