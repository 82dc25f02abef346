// RecomputeCost: what computing a value again costs, against moving its bytes.
//
// Under a memory budget a value that is not read for a while can leave memory
// in two ways: swapped out and back in (its bytes move twice) or freed and
// recomputed from its inputs before its next read (its op runs again). This
// is the cost model that picks one per value: an op's floating-point work at
// the bounds (a matmul 2·M·N·K per batch, an elementwise op or fused chain
// one operation per element and step, a reduction one per input element, a
// copy one per element), against the bytes a swap moves, at
// `kFlopsPerByteMoved` operations per byte: this 2-core machine does about
// 200 GFLOP/s of sgemm and streams about 30 GB/s, and a swap also allocates,
// so a byte moved costs about as much as 8 operations. Sources (loaded or
// initialised arrays) are never recomputed.
#pragma once

#include "graph/Graph.h"

#include <cstdint>

namespace tempo {

inline constexpr int64_t kFlopsPerByteMoved = 8;

/// Operations to compute one value of `n` again at `bounds` (its domain is a single point).
int64_t recomputeFlops(const Graph& g, const Node& n, const SymbolEnv& bounds);

/// Whether recomputing a value of `n` costs less than swapping `bytes` out and in.
bool cheaperToRecompute(const Graph& g, const Node& n, const SymbolEnv& bounds, int64_t bytes);

}  // namespace tempo
