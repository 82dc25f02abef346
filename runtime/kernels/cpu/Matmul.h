// Matmul: numpy.matmul on f32/f64 through OpenBLAS.
//
// Rank rules as in the reference: a 1-D left operand is a row [1, K], a 1-D
// right operand a column [K, 1], the promoted axis is dropped from the
// result, and leading batch axes broadcast. When the right operand has no
// batch (or a broadcast one) and the left's batch is the result's, the
// batch folds into M and one gemm does it all; otherwise each batch is one
// call. M = 1 or N = 1 become gemv, K = 0 gives zeros. Numerics: by default
// f32 operands are widened to f64 and multiplied with dgemm, then rounded
// once, like the reference (which sums in double): the result equals it up
// to a rare 1-ulp tie. sgemm (MatmulAccumulation::F32, about 2x faster)
// accumulates in float; its error grows like sqrt(K) 2^-24 sum|a b| and
// breaks the compiled-vs-reference tolerance (rel 1e-5 + abs 1e-6) from
// K ~ 256 on O(1) data (measured in CpuKernelsTest), so it is opt-in.
// Returns nullopt for integer/bool dtypes and malformed operands (the
// caller uses the reference kernel).
#pragma once

#include "tensor/Tensor.h"

#include <optional>

namespace tempo::cpu {

enum class MatmulAccumulation { F64, F32 };

/// Process-wide choice for f32 matmul (default F64); not thread-safe to change mid-run.
void setMatmulAccumulation(MatmulAccumulation acc);
MatmulAccumulation matmulAccumulation();

std::optional<Tensor> matmul(const Tensor& a, const Tensor& b);

}  // namespace tempo::cpu
