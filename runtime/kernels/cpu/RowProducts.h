// RowProducts: many small row-times-matrix products in one pass, for batched matmuls of M = 1.
//
// Decode's attention multiplies, per sequence and head, one query row by a
// block of its cached keys (q @ K: 1 x 64 by 64 x 32) and one row of weights
// by a block of values (att @ V: 1 x 32 by 32 x 64): 64 products of ~2K
// multiply-adds per block, read in place out of the [block, B, heads, D]
// cache, 512 KiB a block. One library GEMV per product on one thread reads
// the block at ~10 GB/s (54 and 47 us per block at S = 256). `rowProducts`
// does all of a block's products in one pass with the matrices' strided axis
// outermost (each position's keys or values for every sequence and head lie
// together in the cache, so the block is read front to back), the batches
// split over the threads of the enclosing OpenMP team. Each output element is
// summed over l in increasing order by one thread, so results do not depend on
// the thread count. Accumulation is in T (float for f32, as the GEMM libraries do).
#pragma once

#include <cstdint>
#include <vector>

namespace tempo::cpu {

/// A strided batch of operands: element (i, j) of batch `bi` (flat index over the batch
/// shape) at p + stridedOffset(bi, batch, batchStrides) + i * rs + j * cs.
template <class T>
struct BatchedMatrix {
  const T* p;
  std::vector<int64_t> batchStrides;
  int64_t rs, cs;
};

/// Per-batch products this small (n * k multiply-adds) go through rowProducts; larger ones
/// amortise a library call.
inline constexpr int64_t kRowProductMaxWork = int64_t(1) << 16;

/// out[bi, j] = sum_l a[bi](0, l) * b[bi](l, j) for every batch bi of `batch`, j < n, l < k;
/// `b` has rs == 1 or cs == 1 (a BLAS-readable matrix). `out` is [batches, n], contiguous.
/// Splits the batches over `threads` OpenMP threads.
template <class T>
void rowProducts(const BatchedMatrix<T>& a, const BatchedMatrix<T>& b, T* out, const std::vector<int64_t>& batch,
                 int64_t n, int64_t k, int threads);

}  // namespace tempo::cpu
