// Matmul through libxsmm, oneDNN and OpenBLAS; see Matmul.h.
#include "kernels/cpu/Matmul.h"

#include "kernels/Broadcast.h"
#include "kernels/cpu/RowProducts.h"

#include <cblas.h>
#include <libxsmm.h>
#include <oneapi/dnnl/dnnl.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <cstdlib>
#include <memory>
#include <string_view>
#include <type_traits>

namespace tempo::cpu {
namespace {

/// Multiply-adds from which an f32 product with M, N > 1 runs on every core, and below which
/// libxsmm's single-threaded JIT'd kernels take it (docs/performance.md, "Step GEMMs on both
/// cores"): on a quiet 2-core machine oneDNN on two threads does 8x256x256 in 7.3 us against
/// libxsmm's 10.3 and 32x256x256 in 21 us against one thread's 40; at 16x128x128 they tie and
/// below libxsmm wins.
constexpr double kParallelGemm = double(1 << 19);

/// Threads for an m x n x k product: every core from kParallelGemm multiply-adds for a GEMM,
/// from 2^24 for a GEMV (m or n = 1: it streams its matrix from memory, and a second thread
/// gained 3-4% of decode's wall for 55-85% more CPU, docs/performance.md), one below. The
/// count is fixed per shape, never adjusted to the load, so a product's rounding does not
/// change from run to run (a GEMM library may split the k sum between threads).
int gemmThreads(int64_t m, int64_t n, int64_t k) {
  static const int all = openblas_get_num_procs();
  const double threshold = m > 1 && n > 1 ? kParallelGemm : double(1 << 24);
  return double(m) * double(n) * double(k) < threshold ? 1 : all;
}

void chooseOpenblasThreads(int64_t m, int64_t n, int64_t k) {
  static int current = -1;
  int want = gemmThreads(m, n, k);
  if (want != current) openblas_set_num_threads(current = want);
}

/// Which library takes an f32 product, by measurement at this project's shapes
/// (docs/performance.md, "f32 GEMMs through oneDNN"): libxsmm's JIT'd kernels below
/// kParallelGemm multiply-adds, oneDNN's sgemm from there (2-6x OpenBLAS here: Debian's OpenBLAS picks
/// its kernels by CPU model and falls back to SSE3 on a model it does not know, oneDNN by
/// the ISA the CPU reports). TEMPO_GEMM=openblas or =dnnl sends every GEMM (GEMVs: OpenBLAS) to that one
/// library, =libxsmm keeps the earlier choice (libxsmm up to 2^24 multiply-adds, OpenBLAS
/// above): the benchmarks' A/B.
enum class SgemmLibrary { Auto, Openblas, Dnnl, Libxsmm };

SgemmLibrary sgemmChoice() {
  static const SgemmLibrary choice = [] {
    const char* env = std::getenv("TEMPO_GEMM");
    std::string_view name = env ? env : "";
    if (name == "openblas") return SgemmLibrary::Openblas;
    if (name == "dnnl") return SgemmLibrary::Dnnl;
    return name == "libxsmm" ? SgemmLibrary::Libxsmm : SgemmLibrary::Auto;
  }();
  return choice;
}

/// A matrix operand in memory: element (i, j) at p[i * rs + j * cs], one of the two strides 1
/// and the other at least the extent of the unit-stride axis (a row-major matrix with leading
/// dimension rs, or a transposed one with leading dimension cs): what BLAS reads in place.
template <class T>
struct Mat {
  const T* p;
  int64_t rs, cs;
  bool transposed() const { return cs != 1; }
  int64_t ld() const { return transposed() ? cs : rs; }
};

/// libxsmm's kernel for C[m, n] = A[m, k] @ B[k, n] row-major at the operands' leading
/// dimensions, called as kernel(B, A, C); nullptr for a B stored transposed or a shape it has no
/// kernel for. libxsmm is column-major: the same memory is C^T[n, m] = B^T[n, k] A^T[k, m], so an
/// A stored transposed is libxsmm's TRANS_B (its JIT has no TRANS_A, our B transposed).
libxsmm_smmfunction xsmmKernel(Mat<float> a, Mat<float> b, int64_t m, int64_t n, int64_t k) {
  if (b.transposed()) return nullptr;
  const libxsmm_blasint M = n, N = m, K = k, lda = b.rs, ldb = a.ld(), ldc = n;
  const float alpha = 1.0f, beta = 0.0f;
  const int flags = a.transposed() ? LIBXSMM_GEMM_FLAG_TRANS_B : LIBXSMM_GEMM_FLAG_NONE;
  return libxsmm_smmdispatch(M, N, K, &lda, &ldb, &ldc, &alpha, &beta, &flags, nullptr);
}

/// C[m, n] = A[m, k] @ B[k, n] row-major through a libxsmm kernel; false when it has none.
bool xsmmSgemm(Mat<float> a, Mat<float> b, float* c, int64_t m, int64_t n, int64_t k) {
  libxsmm_smmfunction kernel = xsmmKernel(a, b, m, n, k);
  if (!kernel) return false;
  kernel(b.p, a.p, c);
  return true;
}

/// Runs `f()` with OpenMP's thread count fixed at `threads` (no adjustment to the load average),
/// so a library that splits its work between threads splits it the same way on every run.
template <class F>
void withFixedThreads(int threads, F&& f) {
#ifdef _OPENMP
  const int savedThreads = omp_get_max_threads(), savedDynamic = omp_get_dynamic();
  omp_set_dynamic(0);
  omp_set_num_threads(threads);
#endif
  f();
#ifdef _OPENMP
  omp_set_num_threads(savedThreads);
  omp_set_dynamic(savedDynamic);
#endif
}

/// OpenMP's thread count (OMP_NUM_THREADS, else one per core) when `parallel`, else 1: the
/// count for products that split whole batches between threads, where it changes no bits.
int batchThreads(bool parallel) {
#ifdef _OPENMP
  return parallel ? omp_get_max_threads() : 1;
#else
  (void)parallel;
  return 1;
#endif
}

/// Every batch of a batched f32 product through one libxsmm kernel, the batches split over
/// batchThreads() from kParallelGemm multiply-adds in all (a matrix read as column panels, WeightPanels:
/// 8 x 64 x 512 per panel); false when a batch's product is beyond libxsmm's range (2^24
/// multiply-adds) or libxsmm has no kernel for it. Each batch is one thread's product, so the
/// result does not depend on the thread count.
bool xsmmBatches(Mat<float> a, const std::vector<int64_t>& sa, Mat<float> b, const std::vector<int64_t>& sb, float* c,
                 const std::vector<int64_t>& batch, int64_t batches, int64_t m, int64_t n, int64_t k) {
  if (sgemmChoice() != SgemmLibrary::Auto || m < 2 || n < 2 || double(m) * double(n) * double(k) > double(1 << 24))
    return false;
  libxsmm_smmfunction kernel = xsmmKernel(a, b, m, n, k);
  if (!kernel) return false;
  withFixedThreads(batchThreads(double(batches * m) * double(n) * double(k) >= kParallelGemm), [&] {
#pragma omp parallel for schedule(static)
    for (int64_t bi = 0; bi < batches; ++bi)
      kernel(b.p + ref::stridedOffset(bi, batch, sb), a.p + ref::stridedOffset(bi, batch, sa), c + bi * m * n);
  });
  return true;
}

/// oneDNN's sgemm on gemmThreads() OpenMP threads, the count fixed for the call; an operand
/// stored transposed goes with its trans flag and leading dimension.
bool dnnlSgemm(Mat<float> a, Mat<float> b, float* c, int64_t m, int64_t n, int64_t k) {
  dnnl_status_t status = dnnl_success;
  withFixedThreads(gemmThreads(m, n, k), [&] {
    status = dnnl_sgemm(a.transposed() ? 'T' : 'N', b.transposed() ? 'T' : 'N', m, n, k, 1.0f, a.p, a.ld(), b.p,
                        b.ld(), 0.0f, c, n);
  });
  return status == dnnl_success;
}

/// An f32 GEMM with m, n > 1 (GEMVs go to OpenBLAS) through the library sgemmChoice() names.
bool fastSgemm(Mat<float> a, Mat<float> b, float* c, int64_t m, int64_t n, int64_t k) {
  const bool natural = !a.transposed() && !b.transposed();
  switch (sgemmChoice()) {
    case SgemmLibrary::Openblas: return false;
    case SgemmLibrary::Dnnl: return dnnlSgemm(a, b, c, m, n, k);
    case SgemmLibrary::Libxsmm:
      if (!natural) return dnnlSgemm(a, b, c, m, n, k);
      return double(m) * double(n) * double(k) <= double(1 << 24) && xsmmSgemm(a, b, c, m, n, k);
    case SgemmLibrary::Auto:
      if (double(m) * double(n) * double(k) < kParallelGemm && xsmmSgemm(a, b, c, m, n, k)) return true;
      return dnnlSgemm(a, b, c, m, n, k);
  }
  return false;
}

void blasGemv(CBLAS_TRANSPOSE t, int rows, int cols, const float* a, int lda, const float* x, int incx, float* y) {
  cblas_sgemv(CblasRowMajor, t, rows, cols, 1.0f, a, lda, x, incx, 0.0f, y, 1);
}
void blasGemv(CBLAS_TRANSPOSE t, int rows, int cols, const double* a, int lda, const double* x, int incx, double* y) {
  cblas_dgemv(CblasRowMajor, t, rows, cols, 1.0, a, lda, x, incx, 0.0, y, 1);
}
void blasGemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const float* a, int lda, const float* b,
              int ldb, float* c) {
  cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, n);
}
void blasGemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const double* a, int lda, const double* b,
              int ldb, double* c) {
  cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, n);
}

CBLAS_TRANSPOSE blasFlag(bool transposed) { return transposed ? CblasTrans : CblasNoTrans; }

/// C[m, n] = A[m, k] @ B[k, n], C row-major and contiguous, m, n, k >= 1; each operand as it
/// lies in memory (BLAS's trans flag and leading dimension, the vector's increment for a GEMV).
template <class T>
void gemm(Mat<T> a, Mat<T> b, T* c, int64_t m, int64_t n, int64_t k) {
  // A GEMV (m or n = 1) goes to OpenBLAS: decode's attention runs 64 per-head GEMVs per block,
  // 25% faster there than through oneDNN's sgemm (docs/performance.md).
  if constexpr (std::is_same_v<T, float>)
    if (m > 1 && n > 1 && fastSgemm(a, b, c, m, n, k)) return;
  chooseOpenblasThreads(m, n, k);
  const int M = int(m), N = int(n), K = int(k);
  if (m == 1) {  // a row of k elements, cs apart, times B
    if (b.transposed()) blasGemv(CblasNoTrans, N, K, b.p, int(b.cs), a.p, int(a.cs), c);
    else blasGemv(CblasTrans, K, N, b.p, int(b.rs), a.p, int(a.cs), c);
  } else if (n == 1) {  // A times a column of k elements, rs apart
    if (a.transposed()) blasGemv(CblasTrans, K, M, a.p, int(a.cs), b.p, int(b.rs), c);
    else blasGemv(CblasNoTrans, M, K, a.p, int(a.rs), b.p, int(b.rs), c);
  } else {
    blasGemm(blasFlag(a.transposed()), blasFlag(b.transposed()), M, N, K, a.p, int(a.ld()), b.p, int(b.ld()), c);
  }
}

/// The matrix axes of a rank >= 2 tensor as a GEMM reads them in place: strides normalised
/// where an axis has one element (any stride reads it), nullopt when neither axis has unit stride
/// (or a leading dimension is too small: a broadcast view), so the caller copies it.
std::optional<std::pair<int64_t, int64_t>> gemmStrides(const Tensor& t) {
  const size_t r = t.rank();
  const std::vector<int64_t> st = t.strides();
  const int64_t rows = t.shape()[r - 2], cols = t.shape()[r - 1];
  int64_t rs = st[r - 2], cs = st[r - 1];
  if (cols == 1) cs = 1;
  if (rows == 1) rs = cs == 1 ? cols : 1;
  if ((cs == 1 && rs >= cols) || (rs == 1 && cs >= rows)) return std::make_pair(rs, cs);
  return std::nullopt;
}

/// An operand's batch axes' element strides against the broadcast batch shape (0 on a
/// broadcast axis), for a tensor of rank batch + 2.
std::vector<int64_t> batchStrides(const Tensor& t, const std::vector<int64_t>& batch) {
  const std::vector<int64_t> st = t.strides();
  const size_t own = t.rank() - 2, offset = batch.size() - own;
  std::vector<int64_t> out(batch.size(), 0);
  for (size_t i = 0; i < own; ++i)
    if (t.shape()[i] != 1) out[offset + i] = st[i];
  return out;
}

std::unique_ptr<double[]> widen(const Tensor& t) {
  std::unique_ptr<double[]> w(new double[t.numel()]);
  const float* p = t.data<float>();
#pragma omp simd
  for (int64_t i = 0; i < t.numel(); ++i) w[i] = p[i];
  return w;
}

bool allZero(const std::vector<int64_t>& v) {
  for (int64_t x : v)
    if (x != 0) return false;
  return true;
}

}  // namespace

void prepareGemm() {
  static const bool ready = [] {
    // oneDNN detects the ISA and generates its sgemm kernels at its first call (~30 ms
    // here): one small product now puts that in the compile, not in a run's first GEMM.
    // libxsmm is left to initialise itself at its first product (~4 ms, and 10.7 MiB of
    // registry that a program without tiny products, such as the decoders, never needs).
    float a[64] = {}, b[64] = {}, c[64];
    dnnlSgemm(Mat<float>{a, 8, 1}, Mat<float>{b, 8, 1}, c, 8, 8, 8);
    return true;
  }();
  (void)ready;
}

bool isSmallGemm(int64_t m, int64_t n, int64_t k) {
  return m > 1 && n > 1 && double(m) * double(n) * double(k) < kParallelGemm;
}

void prepareSmallGemm() {
  static const bool ready = [] {
    float a[4] = {}, b[4] = {}, c[4];
    return xsmmSgemm(Mat<float>{a, 2, 1}, Mat<float>{b, 2, 1}, c, 2, 2, 2);
  }();
  (void)ready;
}

std::optional<MatmulAccumulation> parseMatmulAccumulation(std::string_view name) {
  if (name == "f32") return MatmulAccumulation::F32;
  if (name == "f64") return MatmulAccumulation::F64;
  return std::nullopt;
}

std::optional<Tensor> matmul(const Tensor& viewA, const Tensor& viewB, MatmulAccumulation acc) {
  if (viewA.dtype() != viewB.dtype() || !isFloat(viewA.dtype()) || viewA.rank() == 0 || viewB.rank() == 0)
    return std::nullopt;
  // A strided operand (a permute folded into the product) goes to the GEMM as it lies when one
  // of its matrix axes has unit stride (BLAS's trans flag and leading dimension, any batch
  // strides); any other layout, and an operand of the widening path, as a contiguous copy. A
  // 1-D operand is a row [1, K] on the left, a column [K, 1] on the right.
  const bool widening = viewA.dtype() == DType::F32 && acc == MatmulAccumulation::F64;
  auto matrixOf = [&](const Tensor& t, bool isLeft) {
    if (t.rank() == 1) return t.contiguous().reshaped(isLeft ? std::vector<int64_t>{1, t.numel()}
                                                             : std::vector<int64_t>{t.numel(), 1});
    return widening || !gemmStrides(t) ? t.contiguous() : t;
  };
  const Tensor a = matrixOf(viewA, true), b = matrixOf(viewB, false);
  const int64_t m = a.shape()[a.rank() - 2], k = a.shape()[a.rank() - 1], n = b.shape()[b.rank() - 1];
  if (b.shape()[b.rank() - 2] != k) return std::nullopt;
  const std::vector<int64_t> batchA(a.shape().begin(), a.shape().end() - 2), batchB(b.shape().begin(), b.shape().end() - 2);
  std::vector<int64_t> batch;
  try {
    batch = ref::broadcastShapes(batchA, batchB);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  std::vector<int64_t> outShape = batch;
  if (viewA.rank() > 1) outShape.push_back(m);
  if (viewB.rank() > 1) outShape.push_back(n);
  if (shapeNumel(outShape) == 0 || k == 0) return Tensor(a.dtype(), outShape);  // zero-filled
  Tensor out = Tensor::uninitialized(a.dtype(), outShape);  // every element written (beta = 0)
  const auto [ars, acs] = *gemmStrides(a);
  const auto [brs, bcs] = *gemmStrides(b);
  const std::vector<int64_t> sa = batchStrides(a, batch), sb = batchStrides(b, batch);
  const int64_t batches = shapeNumel(batch);
  const bool fold = a.isContiguous() && allZero(sb) && batchA == batch;  // b shared by every batch: fold the batch into M
  auto run = [&]<class T>(const T* pa, const T* pb, T* po) {
    if (fold) return gemm(Mat<T>{pa, k, 1}, Mat<T>{pb, brs, bcs}, po, batches * m, n, k);
    if (m == 1 && batches > 1 && n * k <= kRowProductMaxWork) {  // decode's attention: one pass, no call per head
      // Every core once the matrices hold 256 KiB (a KV-cache block, read from memory).
      const int threads = batchThreads(batches * n * k * int64_t(sizeof(T)) >= (int64_t(256) << 10));
      withFixedThreads(threads, [&] {
        rowProducts(BatchedMatrix<T>{pa, sa, ars, acs}, BatchedMatrix<T>{pb, sb, brs, bcs}, po, batch, n, k, threads);
      });
      return;
    }
    if constexpr (std::is_same_v<T, float>)
      if (batches > 1 && xsmmBatches(Mat<T>{pa, ars, acs}, sa, Mat<T>{pb, brs, bcs}, sb, po, batch, batches, m, n, k)) return;
    for (int64_t bi = 0; bi < batches; ++bi)
      gemm(Mat<T>{pa + ref::stridedOffset(bi, batch, sa), ars, acs}, Mat<T>{pb + ref::stridedOffset(bi, batch, sb), brs, bcs},
           po + bi * m * n, m, n, k);
  };
  if (a.dtype() == DType::F64) {
    run(a.viewData<double>(), b.viewData<double>(), out.data<double>());
  } else if (acc == MatmulAccumulation::F32) {
    run(a.viewData<float>(), b.viewData<float>(), out.data<float>());
  } else {  // f32 operands widened to f64, dgemm, rounded once: the reference's numerics
    std::unique_ptr<double[]> wa = widen(a), wb = widen(b), wo(new double[out.numel()]);
    run(wa.get(), wb.get(), wo.get());
    float* po = out.data<float>();
#pragma omp simd
    for (int64_t i = 0; i < out.numel(); ++i) po[i] = float(wo[i]);
  }
  return out;
}

}  // namespace tempo::cpu
