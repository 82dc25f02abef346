// TileRegion: rewrites one window region into blocks of a static size.
//
// Given a WindowRegion (window reads, the nodes that carry the window's
// dynamic axis, the nodes that eliminate it) and a block size BS,
// `tileRegion` adds a block dimension `ds` whose bound is the derived bound
// `DS = floor((maxSize + BS - 1) / BS)` and whose guard `BS*ds <= hi - lo - 1`
// keeps only the blocks a step reads, and rewrites:
//  - the producer of each window into a *shift register* `S` over its own
//    domain holding its BS newest values (`S[t] = cat(S[t-1][1:], P[t])`,
//    zeros before the start) — or BS next values for a suffix window — so that
//    block ds of a step is the single point `S[hi - 1 - BS*ds]` (`S[lo +
//    BS*ds]` for a suffix): every read is of an already computed value and of
//    static shape BS;
//  - every carrier into a copy over (domain, ds) whose window axis has size BS;
//  - every elimination into a partial result per block (its inputs masked by
//    `where(mask, x, neutral)`: 0 for sum and matmul, -inf for max, so the
//    positions of the last block outside the window count for nothing), an
//    accumulator recurrence `acc[ds] = combine(acc[ds-1], partial[ds])` over
//    ds, and the original node reading `acc` at the last block of the step,
//    `floor((hi - lo - 1) / BS)`.
// The mask compares the lane indices 0..BS-1 (constants, computed once) with
// the window's limits in block coordinates.
#pragma once

#include "pass/Pass.h"
#include "tiling/WindowRegion.h"

#include <string>

namespace tempo {

struct TiledRegionInfo {
  std::string blockDim;    ///< the new block dimension (`ds`)
  std::string blockCount;  ///< its derived bound (`DS`)
  int64_t blockSize = 1;
};

/// Rewrites `region` of `g` with blocks of `blockSize`; `maxSize` bounds the
/// window size over the domain (an expression of bounds). Reports to `change`.
TiledRegionInfo tileRegion(Graph& g, const WindowRegion& region, int64_t blockSize, const IndexExpr& maxSize,
                           GraphChange& change);

}  // namespace tempo
