// Matmul: numpy.matmul on f32/f64 through OpenBLAS.
//
// Rank rules as in the reference: a 1-D left operand is a row [1, K], a 1-D
// right operand a column [K, 1], the promoted axis is dropped from the
// result, and leading batch axes broadcast. When the right operand has no
// batch (or a broadcast one) and the left's batch is the result's, the
// batch folds into M and one sgemm does it all; otherwise each batch is one
// call. M = 1 or N = 1 become sgemv, K = 0 gives zeros. Numerics differ from
// the reference: BLAS accumulates in the element type (f32 for f32, blocked
// order) where the reference sums in double, so an f32 result carries an
// error of about K * 2^-24 * sum|a_ik * b_kj| (see CpuKernelsTest for the
// measured bound). Returns nullopt for integer/bool dtypes and malformed
// operands (the caller uses the reference kernel).
#pragma once

#include "tensor/Tensor.h"

#include <optional>

namespace tempo::cpu {

std::optional<Tensor> matmul(const Tensor& a, const Tensor& b);

}  // namespace tempo::cpu
