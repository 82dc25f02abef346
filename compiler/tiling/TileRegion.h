// TileRegion: rewrites one window region into blocks of a static size.
//
// Given a WindowRegion (window reads, the nodes that carry the window's
// dynamic axis, the nodes that eliminate it) and a block size BS,
// `tileRegion` adds a block dimension `ds` whose bound is the derived bound
// `DS = floor((E + BS - 1) / BS)`, E the largest window end, and whose guard
// `BS*ds <= hi - 1` (and `BS*ds + BS - 1 >= lo` for a window that does not
// start at 0) keeps only the blocks that meet the step's window, and rewrites:
//  - every read of a window into a *block read* of its producer: block ds
//    holds positions [BS*ds, BS*ds + BS) — aligned to absolute positions, so
//    a block of a growing window is the same block at every later step — and
//    the edge reads the part of it inside the window (`4*ds:min(4*ds + 4, t +
//    1) in 4*ds+:4`), which is exactly the dependence, while its value has the
//    static shape [BS, ...] with zeros in the lanes outside the window. The
//    producer itself is untouched: the storage planner keeps it in a block
//    store (StoragePlanner);
//  - every carrier into a copy over (domain, ds) whose window axis has size BS;
//  - every elimination into a partial result per block (its inputs masked by
//    `where(mask, x, neutral)`: 0 for sum and matmul, -inf for max, so the
//    lanes outside the window count for nothing; an input whose lanes there
//    are the block read's zeros already, moved at most by permutes and
//    reshapes, goes unmasked to a sum or matmul), an accumulator recurrence
//    `acc[ds] = combine(acc[ds-1], partial[ds])` over ds from the first block
//    that meets the window, and the original node reading `acc` at the block
//    of the window's last position, `floor((hi - 1) / BS)`.
// A window of static maximum size W with BS >= W is one block per step and no
// block dimension; its lanes follow the window (lane 0 at `hi - BS`, or at
// `lo` for a suffix), so the producer stays in a circular window store.
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
/// window size over the domain (an expression of bounds), and the window's end
/// must have such a bound too. Reports to `change`.
TiledRegionInfo tileRegion(Graph& g, const WindowRegion& region, int64_t blockSize, const IndexExpr& maxSize,
                           GraphChange& change);

}  // namespace tempo
