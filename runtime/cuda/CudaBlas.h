// CudaBlas: matrix products on the GPU through cuBLAS (issue 13).
//
// `planMatmul` turns numpy.matmul's rank rules (the CPU kernel's: a 1-D left
// operand is a row, a 1-D right operand a column, leading batch axes
// broadcast) into one strided-batched GEMM on row-major operands: M, N, K, the
// batch count and each operand's batch stride (0 where it is broadcast), or
// says why the shapes need more than one GEMM (batch axes that broadcast
// against each other in both directions). Operands read through a permutation
// (strided views) keep their layout: a matrix stored by columns is passed
// transposed, its leading dimension the other axis's stride. `CublasHandle` owns a cuBLAS handle
// bound to a stream and runs the plan in f32 or f64; a row-major C = A B is
// cuBLAS's column-major C^T = B^T A^T, so no operand is transposed or copied.
// f32 products accumulate in float in an order of cuBLAS's choosing (no TF32:
// the default math mode), so they agree with the CPU's within K 2^-24 of
// sum |a||b| per element, not bit for bit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tempo::cuda {

struct MatmulPlan {
  int64_t m = 0, n = 0, k = 0, batch = 1;
  int64_t strideA = 0, strideB = 0;  ///< elements between batches; 0: the operand is shared
  /// Each operand's matrix: row-major with leading dimension ld (its row stride), or, when
  /// trans, stored by columns (unit row stride) with ld its column stride.
  bool transA = false, transB = false;
  int64_t lda = 0, ldb = 0;
  std::vector<int64_t> outShape;
};

/// The plan of a @ b for contiguous operands, or nullopt with `why` set.
std::optional<MatmulPlan> planMatmul(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::string& why);
/// The same for operands laid out with these element strides (a permuted view: decode's
/// K and V read per head): one of each matrix's two axes must have unit stride and the
/// batch axes must fold into one stride.
std::optional<MatmulPlan> planStridedMatmul(const std::vector<int64_t>& a, const std::vector<int64_t>& stridesA,
                                            const std::vector<int64_t>& b, const std::vector<int64_t>& stridesB,
                                            std::string& why);

/// The plan of a matmul kernel as it reads its operands: contiguous values of `storedA` and
/// `storedB` seen through `permA` / `permB` (Kernel.h; empty: as they lie).
std::optional<MatmulPlan> planPermutedMatmul(const std::vector<int64_t>& storedA, const std::vector<int64_t>& permA,
                                             const std::vector<int64_t>& storedB, const std::vector<int64_t>& permB,
                                             std::string& why);

class CublasHandle {
public:
  explicit CublasHandle(void* stream);  ///< stream: a cudaStream_t; throws CudaError without cuBLAS or a GPU
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  /// out = a @ b by `plan`, for element size 4 (f32) or 8 (f64); device pointers.
  void matmul(const MatmulPlan& plan, size_t elementSize, const void* a, const void* b, void* out) const;

private:
  void* handle_ = nullptr;  ///< a cublasHandle_t
};

}  // namespace tempo::cuda
