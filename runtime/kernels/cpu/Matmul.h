// Matmul: numpy.matmul on f32/f64 through libxsmm (tiny f32 products), oneDNN (the
// other f32 products) and OpenBLAS (f64).
//
// Rank rules as in the reference: a 1-D left operand is a row [1, K], a 1-D
// right operand a column [K, 1], the promoted axis is dropped from the
// result, and leading batch axes broadcast. When the right operand has no
// batch (or a broadcast one) and the left's batch is the result's, the
// batch folds into M and one gemm does it all; otherwise each batch is one
// gemm on pointers into the operands (no per-batch copy; OpenBLAS 0.3.21 has
// no cblas_?gemm_batch), except two batched cases done in one pass over the
// batches, split between threads a batch each (so the bits do not depend on the
// count): small f32 products through one libxsmm kernel (the column panels of the
// weight-panels pass), and products of M = 1 with small matrices (decode's
// attention per head, RowProducts.h). M = 1 or N = 1 become OpenBLAS gemv, K = 0 gives zeros. An
// operand may be a strided view (a permute view-selection folded into the
// product): when one of its two matrix axes has unit stride the GEMM reads it
// in place, with its trans flag and leading dimension, at any batch strides
// (decode's K and V blocks, read per head out of [BS, B, NH, D]); any other
// layout is copied to a contiguous array first.
// Numerics: by default (MatmulAccumulation::F32) f32 operands go to
// float GEMMs below 2^19 multiply-adds with M, N > 1 go to libxsmm's JIT'd
// kernels (one thread), the rest to oneDNN's sgemm on every core (a GEMV on one
// thread below 2^24 multiply-adds; the count fixed per shape so results do not
// vary run to run); all
// accumulate in float, as PyTorch does: for a K-long dot
// product the error is at most ~K 2^-24 sum_k |a_ik b_kj| (typically
// sqrt(K) times that unit), against the reference interpreter, which sums in
// double and rounds once; docs/compiler.md ("Numerics of the compiled
// engine") states the tolerance the differential tests allow for it.
// MatmulAccumulation::F64 widens f32 operands to f64, runs dgemm and rounds
// once: the reference's numerics up to a rare 1-ulp tie, about 2-5x slower on
// the benchmark programs (the widening copies dominate). Returns nullopt for
// integer/bool dtypes and malformed operands (the caller uses the reference
// kernel).
#pragma once

#include "tensor/Tensor.h"

#include <optional>
#include <string_view>

namespace tempo::cpu {

/// How an f32 matmul accumulates: in float (sgemm, the default) or in double (widened dgemm).
enum class MatmulAccumulation { F32, F64 };

/// "f32" or "f64" (the command-line spelling); nullopt for anything else.
std::optional<MatmulAccumulation> parseMatmulAccumulation(std::string_view name);

std::optional<Tensor> matmul(const Tensor& a, const Tensor& b, MatmulAccumulation acc = MatmulAccumulation::F32);

/// Sets up oneDNN once per process (its kernel generation, ~30 ms), so that the first product of
/// a run does not pay for it; later calls return at once. libxsmm initialises itself at its first
/// (tiny) product instead: ~4 ms, and 10.7 MiB that programs without tiny products never need.
void prepareGemm();
/// Whether an f32 m x n x k product goes to libxsmm (small, m, n > 1) by default.
bool isSmallGemm(int64_t m, int64_t n, int64_t k);
/// Sets up libxsmm once per process, for a program with small products: its first product
/// otherwise pays 6-20 ms inside the run (`tempo run` of resources/examples/rnn.tpo: 6-23 ms
/// of a run that takes 0.4 ms once it is set up).
void prepareSmallGemm();

}  // namespace tempo::cpu
