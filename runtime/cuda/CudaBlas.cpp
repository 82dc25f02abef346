// cuBLAS behind a matmul plan; see CudaBlas.h.
#include "cuda/CudaBlas.h"

#include "cuda/CudaRuntime.h"

#include <algorithm>
#include <tuple>

#ifdef TEMPO_HAVE_CUDA
#include <cublas_v2.h>
#endif

namespace tempo::cuda {

std::optional<MatmulPlan> planMatmul(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::string& why) {
  if (a.empty() || b.empty()) {
    why = "matmul of a scalar";
    return std::nullopt;
  }
  // Promote 1-D operands: a row [1, K] on the left, a column [K, 1] on the right.
  std::vector<int64_t> A = a.size() == 1 ? std::vector<int64_t>{1, a[0]} : a;
  std::vector<int64_t> B = b.size() == 1 ? std::vector<int64_t>{b[0], 1} : b;
  MatmulPlan p;
  p.m = A[A.size() - 2], p.k = A.back(), p.n = B.back();
  if (B[B.size() - 2] != p.k) {
    why = "inner sizes differ";
    return std::nullopt;
  }
  std::vector<int64_t> batchA(A.begin(), A.end() - 2), batchB(B.begin(), B.end() - 2);
  // numpy's broadcast of the batch axes, right-aligned.
  const size_t rank = std::max(batchA.size(), batchB.size());
  batchA.insert(batchA.begin(), rank - batchA.size(), 1);
  batchB.insert(batchB.begin(), rank - batchB.size(), 1);
  std::vector<int64_t> batch(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (batchA[i] != batchB[i] && batchA[i] != 1 && batchB[i] != 1) {
      why = "batch sizes that do not broadcast";
      return std::nullopt;
    }
    batch[i] = std::max(batchA[i], batchB[i]);
  }
  auto count = [](const std::vector<int64_t>& v) {
    int64_t c = 1;
    for (int64_t x : v) c *= x;
    return c;
  };
  // One strided batch: each operand either spans the whole batch or is one matrix for all.
  for (auto [operand, stride, size] : {std::tuple{&batchA, &p.strideA, p.m * p.k}, std::tuple{&batchB, &p.strideB, p.k * p.n}}) {
    if (*operand == batch) *stride = count(batch) == 1 ? 0 : size;
    else if (count(*operand) == 1) *stride = 0;
    else {
      why = "batch axes broadcast partly (more than one strided batch)";
      return std::nullopt;
    }
  }
  p.batch = count(batch);
  p.outShape = batch;
  if (a.size() > 1) p.outShape.push_back(p.m);
  if (b.size() > 1) p.outShape.push_back(p.n);
  return p;
}

#ifdef TEMPO_HAVE_CUDA

namespace {
void check(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS) throw CudaError(std::string(call) + " failed: " + cublasGetStatusString(s));
}
}  // namespace

CublasHandle::CublasHandle(void* stream) {
  cublasHandle_t h = nullptr;
  check(cublasCreate(&h), "cublasCreate");
  handle_ = h;
  check(cublasSetStream(h, static_cast<cudaStream_t>(stream)), "cublasSetStream");
  check(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");  // no TF32
}

CublasHandle::~CublasHandle() {
  if (handle_) cublasDestroy(static_cast<cublasHandle_t>(handle_));
}

void CublasHandle::matmul(const MatmulPlan& p, size_t elementSize, const void* a, const void* b, void* out) const {
  auto h = static_cast<cublasHandle_t>(handle_);
  // Row-major C[m, n] = A[m, k] B[k, n] is column-major C^T[n, m] = B^T[n, k] A^T[k, m].
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
  const int batch = static_cast<int>(p.batch);
  if (elementSize == 4) {
    const float one = 1.0f, zero = 0.0f;
    check(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, static_cast<const float*>(b), n, p.strideB,
                                    static_cast<const float*>(a), k, p.strideA, &zero, static_cast<float*>(out), n,
                                    p.m * p.n, batch),
          "cublasSgemmStridedBatched");
  } else {
    const double one = 1.0, zero = 0.0;
    check(cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, static_cast<const double*>(b), n, p.strideB,
                                    static_cast<const double*>(a), k, p.strideA, &zero, static_cast<double*>(out), n,
                                    p.m * p.n, batch),
          "cublasDgemmStridedBatched");
  }
}

#else

CublasHandle::CublasHandle(void*) { throw CudaError("this build of Tempo has no CUDA toolkit, so no cuBLAS"); }
CublasHandle::~CublasHandle() = default;
void CublasHandle::matmul(const MatmulPlan&, size_t, const void*, const void*, void*) const {}

#endif

}  // namespace tempo::cuda
