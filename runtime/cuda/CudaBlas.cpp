// cuBLAS behind a matmul plan; see CudaBlas.h.
#include "cuda/CudaBlas.h"

#include "cuda/CudaRuntime.h"

#include <algorithm>
#include <tuple>

#ifdef TEMPO_HAVE_CUDA
#include <cublas_v2.h>
#endif

namespace tempo::cuda {

namespace {

std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> out(shape.size());
  int64_t stride = 1;
  for (size_t j = shape.size(); j-- > 0;) out[j] = stride, stride *= shape[j];
  return out;
}

/// A matrix of `rows` x `cols` with these strides as cuBLAS takes it: by rows (trans false,
/// ld the row stride) or by columns (trans true, ld the column stride); false if neither
/// axis has unit stride. An axis of size 1 has any stride.
bool matrixLayout(int64_t rows, int64_t cols, int64_t rowStride, int64_t colStride, bool& trans, int64_t& ld) {
  if (cols == 1 || colStride == 1) {
    trans = false, ld = rows == 1 ? std::max<int64_t>(cols, 1) : std::max<int64_t>(rowStride, std::max<int64_t>(cols, 1));
    return rows == 1 || rowStride >= cols;
  }
  if (rows == 1 || rowStride == 1) {
    trans = true, ld = std::max<int64_t>(colStride, std::max<int64_t>(rows, 1));
    return colStride >= rows;
  }
  return false;
}

}  // namespace

std::optional<MatmulPlan> planMatmul(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::string& why) {
  return planStridedMatmul(a, contiguousStrides(a), b, contiguousStrides(b), why);
}

std::optional<MatmulPlan> planPermutedMatmul(const std::vector<int64_t>& storedA, const std::vector<int64_t>& permA,
                                             const std::vector<int64_t>& storedB, const std::vector<int64_t>& permB,
                                             std::string& why) {
  auto view = [&](const std::vector<int64_t>& stored, const std::vector<int64_t>& perm, std::vector<int64_t>& shape,
                  std::vector<int64_t>& strides) {
    const std::vector<int64_t> base = contiguousStrides(stored);
    if (perm.empty()) return shape = stored, strides = base, true;
    if (perm.size() != stored.size()) return false;
    for (int64_t axis : perm) {
      if (axis < 0 || axis >= static_cast<int64_t>(stored.size())) return false;
      shape.push_back(stored[static_cast<size_t>(axis)]), strides.push_back(base[static_cast<size_t>(axis)]);
    }
    return true;
  };
  std::vector<int64_t> a, sa, b, sb;
  if (!view(storedA, permA, a, sa) || !view(storedB, permB, b, sb)) {
    why = "a permutation that does not fit its operand";
    return std::nullopt;
  }
  return planStridedMatmul(a, sa, b, sb, why);
}

std::optional<MatmulPlan> planStridedMatmul(const std::vector<int64_t>& a, const std::vector<int64_t>& stridesA,
                                            const std::vector<int64_t>& b, const std::vector<int64_t>& stridesB,
                                            std::string& why) {
  if (a.empty() || b.empty()) {
    why = "matmul of a scalar";
    return std::nullopt;
  }
  // Promote 1-D operands: a row [1, K] on the left, a column [K, 1] on the right.
  std::vector<int64_t> A = a, SA = stridesA, B = b, SB = stridesB;
  if (A.size() == 1) A.insert(A.begin(), 1), SA.insert(SA.begin(), A[1] * SA[0]);
  if (B.size() == 1) B.push_back(1), SB.push_back(1);
  MatmulPlan p;
  p.m = A[A.size() - 2], p.k = A.back(), p.n = B.back();
  if (B[B.size() - 2] != p.k) {
    why = "inner sizes differ";
    return std::nullopt;
  }
  if (!matrixLayout(p.m, p.k, SA[SA.size() - 2], SA.back(), p.transA, p.lda) ||
      !matrixLayout(p.k, p.n, SB[SB.size() - 2], SB.back(), p.transB, p.ldb)) {
    why = "an operand with no unit-stride matrix axis";
    return std::nullopt;
  }
  std::vector<int64_t> batchA(A.begin(), A.end() - 2), batchB(B.begin(), B.end() - 2);
  std::vector<int64_t> stepA(SA.begin(), SA.end() - 2), stepB(SB.begin(), SB.end() - 2);
  // numpy's broadcast of the batch axes, right-aligned.
  const size_t rank = std::max(batchA.size(), batchB.size());
  batchA.insert(batchA.begin(), rank - batchA.size(), 1), stepA.insert(stepA.begin(), rank - stepA.size(), 0);
  batchB.insert(batchB.begin(), rank - batchB.size(), 1), stepB.insert(stepB.begin(), rank - stepB.size(), 0);
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
  // One strided batch: each operand either spans the whole batch, its batch axes folding
  // into one stride, or is one matrix for all.
  for (auto [sizes, steps, stride] : {std::tuple{&batchA, &stepA, &p.strideA}, std::tuple{&batchB, &stepB, &p.strideB}}) {
    if (count(*sizes) == 1) {
      *stride = 0;
      continue;
    }
    if (*sizes != batch) {
      why = "batch axes broadcast partly (more than one strided batch)";
      return std::nullopt;
    }
    int64_t inner = -1, next = 0;  // the innermost batch axis's stride; the next one's, if they fold
    for (size_t i = rank; i-- > 0;) {
      if ((*sizes)[i] == 1) continue;
      if (inner >= 0 && (*steps)[i] != next) {
        why = "batch axes that do not fold into one stride";
        return std::nullopt;
      }
      if (inner < 0) inner = (*steps)[i];
      next = (*steps)[i] * (*sizes)[i];
    }
    *stride = inner;
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
  const int lda = static_cast<int>(p.lda), ldb = static_cast<int>(p.ldb);
  // A matrix stored by rows is, to column-major cuBLAS, its transpose already; one stored by
  // columns is itself and is transposed by the call.
  const cublasOperation_t opA = p.transA ? CUBLAS_OP_T : CUBLAS_OP_N, opB = p.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (elementSize == 4) {
    const float one = 1.0f, zero = 0.0f;
    check(cublasSgemmStridedBatched(h, opB, opA, n, m, k, &one, static_cast<const float*>(b), ldb, p.strideB,
                                    static_cast<const float*>(a), lda, p.strideA, &zero, static_cast<float*>(out), n,
                                    p.m * p.n, batch),
          "cublasSgemmStridedBatched");
  } else {
    const double one = 1.0, zero = 0.0;
    check(cublasDgemmStridedBatched(h, opB, opA, n, m, k, &one, static_cast<const double*>(b), ldb, p.strideB,
                                    static_cast<const double*>(a), lda, p.strideA, &zero, static_cast<double*>(out), n,
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
