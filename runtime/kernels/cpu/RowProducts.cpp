// Batched row-times-matrix products in one loop; see RowProducts.h.
#include "kernels/cpu/RowProducts.h"

#include "kernels/Broadcast.h"
#include "kernels/cpu/TargetClones.h"
#include "tensor/Tensor.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tempo::cpu {
namespace {

/// Batches [begin, end) of the products, the matrices' strided axis outermost: at each step
/// of it every batch reads its next row (or column) of the matrix, so a KV-cache block, which
/// holds all batches' rows of one position together, is read front to back. Each output
/// element is summed over l in increasing order, whatever the loop nest and thread.
/// `ao`, `bo`: element offsets of each batch's row and matrix.
template <class T>
[[gnu::always_inline]] inline void products(const T* a, const int64_t* ao, int64_t as, const T* b, const int64_t* bo,
                                            int64_t rs, int64_t cs, T* __restrict out, int64_t begin, int64_t end,
                                            int64_t n, int64_t k) {
  if (cs == 1) {  // rows unit-stride: each row of each matrix adds into its output row (axpy)
    for (int64_t i = begin * n; i < end * n; ++i) out[i] = T(0);
    for (int64_t l = 0; l < k; ++l)
      for (int64_t bi = begin; bi < end; ++bi) {
        const T al = a[ao[bi] + l * as];
        const T* __restrict row = b + bo[bi] + l * rs;
        T* __restrict o = out + bi * n;
#pragma omp simd
        for (int64_t j = 0; j < n; ++j) o[j] += al * row[j];
      }
    return;
  }
  for (int64_t j = 0; j < n; ++j)  // columns unit-stride: each output element is a dot product
    for (int64_t bi = begin; bi < end; ++bi) {
      const T* __restrict row = a + ao[bi];
      const T* __restrict column = b + bo[bi] + j * cs;
      T sum = T(0);
      if (as == 1) {  // the usual case: a contiguous row, no gather
#pragma omp simd reduction(+ : sum)
        for (int64_t l = 0; l < k; ++l) sum += row[l] * column[l];
      } else {
#pragma omp simd reduction(+ : sum)
        for (int64_t l = 0; l < k; ++l) sum += row[l * as] * column[l];
      }
      out[bi * n + j] = sum;
    }
}

TEMPO_CLONES void productsF32(const float* a, const int64_t* ao, int64_t as, const float* b, const int64_t* bo,
                              int64_t rs, int64_t cs, float* out, int64_t begin, int64_t end, int64_t n, int64_t k) {
  products(a, ao, as, b, bo, rs, cs, out, begin, end, n, k);
}
TEMPO_CLONES void productsF64(const double* a, const int64_t* ao, int64_t as, const double* b, const int64_t* bo,
                              int64_t rs, int64_t cs, double* out, int64_t begin, int64_t end, int64_t n, int64_t k) {
  products(a, ao, as, b, bo, rs, cs, out, begin, end, n, k);
}
void productsOf(const float* a, const int64_t* ao, int64_t as, const float* b, const int64_t* bo, int64_t rs,
                int64_t cs, float* out, int64_t begin, int64_t end, int64_t n, int64_t k) {
  productsF32(a, ao, as, b, bo, rs, cs, out, begin, end, n, k);
}
void productsOf(const double* a, const int64_t* ao, int64_t as, const double* b, const int64_t* bo, int64_t rs,
                int64_t cs, double* out, int64_t begin, int64_t end, int64_t n, int64_t k) {
  productsF64(a, ao, as, b, bo, rs, cs, out, begin, end, n, k);
}

}  // namespace

template <class T>
void rowProducts(const BatchedMatrix<T>& a, const BatchedMatrix<T>& b, T* out, const std::vector<int64_t>& batch,
                 int64_t n, int64_t k, int threads) {
  const int64_t batches = shapeNumel(batch);
  std::vector<int64_t> ao(batches), bo(batches);
  for (int64_t bi = 0; bi < batches; ++bi) {
    ao[bi] = ref::stridedOffset(bi, batch, a.batchStrides);
    bo[bi] = ref::stridedOffset(bi, batch, b.batchStrides);
  }
#pragma omp parallel num_threads(threads)
  {
#ifdef _OPENMP
    const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
#else
    const int64_t t = 0, nt = 1;
#endif
    productsOf(a.p, ao.data(), a.cs, b.p, bo.data(), b.rs, b.cs, out, batches * t / nt, batches * (t + 1) / nt, n, k);
  }
}

template void rowProducts<float>(const BatchedMatrix<float>&, const BatchedMatrix<float>&, float*,
                                 const std::vector<int64_t>&, int64_t, int64_t, int);
template void rowProducts<double>(const BatchedMatrix<double>&, const BatchedMatrix<double>&, double*,
                                  const std::vector<int64_t>&, int64_t, int64_t, int);

}  // namespace tempo::cpu
