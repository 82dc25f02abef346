// Initializers: deterministic parameter initialisers (hash, normal, uniform).
//
// Every value depends only on (seed or key, flat C-order index), never on
// thread count, call order or machine, so a parameter can be regenerated
// anywhere, in any tile, and compared with a peer implementation.
//
// - hashInit is the peers' rule, bit for bit: for flat index n,
//     uint32_t x = uint32_t(n) + uint32_t(key) * 0x9E3779B9u;
//     x ^= x >> 16; x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;
//     v = float(scale * (2.0 * (double(x) / 4294967296.0) - 1.0))
//   and v (a float) is stored converted to the dtype.
// - The random initialisers draw from a counter-based generator:
//   randomBits(seed, c) is the c-th output (c = 0, 1, ...) of splitmix64
//   seeded with `seed`, i.e. mix64(seed + (c + 1) * 0x9E3779B97F4A7C15) with
//   splitmix64's finaliser mix64. A uniform double in [0, 1) is
//   (bits >> 11) * 2^-53.
//   uniformInit: element n is
//     u = uniform01(randomBits(seed, n)); v = low + (high - low) * u.
//   normalInit (Box–Muller, cosine branch): element n uses counters 2n and 2n+1,
//     u1 = 1 - uniform01(randomBits(seed, 2n))   (in (0, 1], so log is finite)
//     u2 = uniform01(randomBits(seed, 2n + 1))
//     v  = mean + std * sqrt(-2 ln u1) * cos(2 pi u2).
//   Values are computed in double and rounded once to the dtype (integer
//   dtypes truncate toward zero, bool is v != 0). The only platform
//   dependence is libm's log/cos/sqrt (correctly rounded sqrt; glibc's log and
//   cos agree across x86-64 and aarch64 to the last bit in practice).
#pragma once

#include "tensor/Tensor.h"

#include <cstdint>
#include <vector>

namespace tempo {

Tensor hashInit(DType dtype, std::vector<int64_t> shape, uint64_t key, double scale);
Tensor normalInit(DType dtype, std::vector<int64_t> shape, uint64_t seed, double mean, double std);
Tensor uniformInit(DType dtype, std::vector<int64_t> shape, uint64_t seed, double low, double high);

/// The hash rule for one element (exposed for tests and fused kernels).
float hashInitValue(uint64_t flatIndex, uint64_t key, double scale);
/// splitmix64's c-th output for `seed` (see above).
uint64_t randomBits(uint64_t seed, uint64_t counter);
/// The top 53 bits of `bits` as a double in [0, 1).
double uniform01(uint64_t bits);

}  // namespace tempo
