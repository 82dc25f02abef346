// ReaderRange: which consumer points can read a given producer point.
//
// The scatter form of a temporal-read adjoint (TemporalReadAdjoint) sums, for
// producer point q, over consumer points s. Summing over *all* s is exact (a
// reader whose window misses q contributes zero) but it makes q's gradient
// depend on every consumer point, and when the consumer is part of the same
// recurrence as the producer (`h[t]` reads `h[0:t]`) that false dependence is
// a cycle. So the sum runs only over the readers of q along each consumer
// dimension s: the s with lo(s) <= q < hi(s) for every atom mentioning s.
// For an index that is nondecreasing in s (affine with a positive
// coefficient, min/max of such, floor division) the readers form the range
// [#{s : hi(s) <= q}, #{s : lo(s) <= q}), and each count is an IndexExpr:
// `s + c <= q` counts q - c + 1 (clamped to [0, S)); max(a, b) <= q counts
// min of the two; min(a, b) <= q the max; a constant is decided with isl over
// the producer's domain (or splits it into cases where it holds and where it
// does not). Anything else (mod, several consumer dimensions in one atom)
// falls back to the whole extent, which is still exact.
#pragma once

#include "graph/Graph.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tempo {

/// The readers [first, end) of one consumer dimension.
struct ReaderRange {
  IndexExpr first, end;
};

/// One case of the producer's domain (where every assumption holds) with the
/// reader range of each consumer dimension it could derive there (a missing
/// dimension is read whole). A bound-only index compared with q that holds on
/// part of the domain only (`L - 1 <= q` for `min(L - 1, l + 2)`) splits the
/// domain into two cases, up to a few levels deep.
struct ReaderCase {
  std::vector<Constraint> assumptions;  ///< over the producer's domain
  std::map<std::string, ReaderRange> ranges;
};

/// The cases, which partition the producer's domain, for the consumer
/// dimensions `dims` of edge `e` (the producer's domain is `producerDomain`).
std::vector<ReaderCase> readerCases(const Graph& g, IslContext& ctx, const Edge& e,
                                    const std::vector<std::string>& producerDomain,
                                    const std::vector<std::string>& dims);

}  // namespace tempo
