// Matmul through libxsmm, oneDNN and OpenBLAS; see Matmul.h.
#include "kernels/cpu/Matmul.h"

#include "kernels/Broadcast.h"

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

/// Threads for an m x n x k product: one below 2^24 multiply-adds, all cores above.
/// Below it a fork/join costs more than it saves on a busy 2-core machine (threads there
/// more than doubled the wall time of 32x256x256); the count is fixed per shape, never
/// adjusted to the load, so a product's rounding does not change from run to run (a GEMM
/// library may split the k sum between threads).
int gemmThreads(int64_t m, int64_t n, int64_t k) {
  static const int all = openblas_get_num_procs();
  return double(m) * double(n) * double(k) < double(1 << 24) ? 1 : all;
}

void chooseOpenblasThreads(int64_t m, int64_t n, int64_t k) {
  static int current = -1;
  int want = gemmThreads(m, n, k);
  if (want != current) openblas_set_num_threads(current = want);
}

/// Which library takes an f32 product, by measurement at this project's shapes
/// (docs/performance.md, "f32 GEMMs through oneDNN"): libxsmm's JIT'd kernels up to
/// kTinyGemm multiply-adds, oneDNN's sgemm above (2-6x OpenBLAS here: Debian's OpenBLAS picks
/// its kernels by CPU model and falls back to SSE3 on a model it does not know, oneDNN by
/// the ISA the CPU reports). TEMPO_GEMM=openblas or =dnnl sends every product to that one
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

constexpr double kTinyGemm = double(1 << 20);

/// C[m, n] = A[m, k] @ B[k, n] row-major through a libxsmm kernel; false when it has none.
/// libxsmm is column-major: the same memory is C^T[n, m] = B^T[n, k] A^T[k, m].
bool xsmmSgemm(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k) {
  const libxsmm_blasint M = n, N = m, K = k;
  const float alpha = 1.0f, beta = 0.0f;
  libxsmm_smmfunction kernel = libxsmm_smmdispatch(M, N, K, &M, &K, &M, &alpha, &beta, nullptr, nullptr);
  if (!kernel) return false;
  kernel(b, a, c);
  return true;
}

/// oneDNN's sgemm on gemmThreads() OpenMP threads, the count fixed for the call; `ta` / `tb`:
/// the operand is stored transposed (A as [k, m], B as [n, k]).
bool dnnlSgemm(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, bool ta = false,
               bool tb = false) {
  const int threads = gemmThreads(m, n, k);
#ifdef _OPENMP
  const int savedThreads = omp_get_max_threads(), savedDynamic = omp_get_dynamic();
  omp_set_dynamic(0);
  omp_set_num_threads(threads);
#endif
  dnnl_status_t status =
      dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, 1.0f, a, ta ? m : k, b, tb ? k : n, 0.0f, c, n);
#ifdef _OPENMP
  omp_set_num_threads(savedThreads);
  omp_set_dynamic(savedDynamic);
#endif
  return status == dnnl_success;
}

bool fastSgemm(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, bool ta, bool tb) {
  if (ta || tb) return sgemmChoice() != SgemmLibrary::Openblas && dnnlSgemm(a, b, c, m, n, k, ta, tb);  // libxsmm: no
  switch (sgemmChoice()) {
    case SgemmLibrary::Openblas: return false;
    case SgemmLibrary::Dnnl: return dnnlSgemm(a, b, c, m, n, k);
    case SgemmLibrary::Libxsmm:
      return m > 1 && n > 1 && double(m) * double(n) * double(k) <= double(1 << 24) && xsmmSgemm(a, b, c, m, n, k);
    case SgemmLibrary::Auto:
      if (m > 1 && n > 1 && double(m) * double(n) * double(k) <= kTinyGemm && xsmmSgemm(a, b, c, m, n, k)) return true;
      return dnnlSgemm(a, b, c, m, n, k);
  }
  return false;
}

void blasGemv(CBLAS_TRANSPOSE t, int rows, int cols, const float* a, int lda, const float* x, float* y) {
  cblas_sgemv(CblasRowMajor, t, rows, cols, 1.0f, a, lda, x, 1, 0.0f, y, 1);
}
void blasGemv(CBLAS_TRANSPOSE t, int rows, int cols, const double* a, int lda, const double* x, double* y) {
  cblas_dgemv(CblasRowMajor, t, rows, cols, 1.0, a, lda, x, 1, 0.0, y, 1);
}
void blasGemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const float* a, int lda, const float* b,
              int ldb, float* c) {
  cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, n);
}
void blasGemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const double* a, int lda, const double* b,
              int ldb, double* c) {
  cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, n);
}

/// C[m, n] = A[m, k] @ B[k, n], row-major, m, n, k >= 1; `ta` / `tb`: the operand is stored
/// transposed (A as [k, m], B as [n, k]: a transposed view, read with the BLAS trans flag).
template <class T>
void gemm(const T* a, const T* b, T* c, int64_t m, int64_t n, int64_t k, bool ta, bool tb) {
  ta = ta && m > 1;  // a single row or column lies the same either way
  tb = tb && n > 1;
  if constexpr (std::is_same_v<T, float>)
    if (fastSgemm(a, b, c, m, n, k, ta, tb)) return;
  chooseOpenblasThreads(m, n, k);
  int M = int(m), N = int(n), K = int(k);
  if (m == 1) tb ? blasGemv(CblasNoTrans, N, K, b, K, a, c) : blasGemv(CblasTrans, K, N, b, N, a, c);
  else if (n == 1) ta ? blasGemv(CblasTrans, K, M, a, M, b, c) : blasGemv(CblasNoTrans, M, K, a, K, b, c);
  else blasGemm(ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, M, N, K, a, ta ? M : K, b, tb ? K : N, c);
}

/// A strided view that is a row-major array with its last two axes swapped: the GEMM reads it in place.
bool transposedLayout(const Tensor& t) { return !t.isContiguous() && t.rank() >= 2 && t.transposedView().isContiguous(); }

struct MatrixView {
  std::vector<int64_t> batch;
  int64_t rows = 0, cols = 0;
};

MatrixView asMatrix(const std::vector<int64_t>& shape, bool isLeft) {
  if (shape.size() == 1) return isLeft ? MatrixView{{}, 1, shape[0]} : MatrixView{{}, shape[0], 1};
  return {std::vector<int64_t>(shape.begin(), shape.end() - 2), shape[shape.size() - 2], shape.back()};
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
    dnnlSgemm(a, b, c, 8, 8, 8);
    return true;
  }();
  (void)ready;
}

std::optional<MatmulAccumulation> parseMatmulAccumulation(std::string_view name) {
  if (name == "f32") return MatmulAccumulation::F32;
  if (name == "f64") return MatmulAccumulation::F64;
  return std::nullopt;
}

std::optional<Tensor> matmul(const Tensor& viewA, const Tensor& viewB, MatmulAccumulation acc) {
  // A transposed view goes to the GEMM as it lies (its trans flag); any other strided
  // layout, and an operand of the widening path, as a contiguous copy.
  const bool widening = viewA.dtype() == DType::F32 && acc == MatmulAccumulation::F64;
  const bool ta = !widening && transposedLayout(viewA), tb = !widening && transposedLayout(viewB);
  const Tensor a = ta ? viewA : viewA.contiguous(), b = tb ? viewB : viewB.contiguous();
  if (a.dtype() != b.dtype() || !isFloat(a.dtype()) || a.rank() == 0 || b.rank() == 0) return std::nullopt;
  MatrixView va = asMatrix(a.shape(), true), vb = asMatrix(b.shape(), false);
  if (va.cols != vb.rows) return std::nullopt;
  int64_t m = va.rows, k = va.cols, n = vb.cols;
  std::vector<int64_t> batch;
  try {
    batch = ref::broadcastShapes(va.batch, vb.batch);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  std::vector<int64_t> sa = ref::broadcastStrides(va.batch, batch), sb = ref::broadcastStrides(vb.batch, batch);
  std::vector<int64_t> outShape = batch;
  if (a.rank() > 1) outShape.push_back(m);
  if (b.rank() > 1) outShape.push_back(n);
  if (shapeNumel(outShape) == 0 || k == 0) return Tensor(a.dtype(), outShape);  // zero-filled
  Tensor out = Tensor::uninitialized(a.dtype(), outShape);  // every element written (beta = 0)
  int64_t batches = shapeNumel(batch);
  bool fold = !ta && allZero(sb) && va.batch == batch;  // b shared by every batch: fold the batch into M
  auto run = [&]<class T>(const T* pa, const T* pb, T* po) {
    if (fold) return gemm(pa, pb, po, batches * m, n, k, false, tb);
    for (int64_t bi = 0; bi < batches; ++bi)
      gemm(pa + ref::stridedOffset(bi, batch, sa) * m * k, pb + ref::stridedOffset(bi, batch, sb) * k * n,
           po + bi * m * n, m, n, k, ta, tb);
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
