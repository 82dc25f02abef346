// BlockTilings: the static tiles of a graph, read back from its block dimensions.
//
// Static tiling (compiler/passes/StaticTiling, compiler/tiling) cuts a
// dimension that a growing window reads (`k[l, 0:t+1]` reads t) into blocks
// of a static size BS: it adds a block dimension `ds` whose bound is a
// derived bound `DS = floor((N + BS - 1) / BS)` (N an expression of the
// bounds, e.g. T) and a guard on ds (`BS*ds <= t`: a step runs only the
// blocks its window meets). Block ds holds the positions BS*ds .. BS*ds+BS-1
// of the tiled dimension. `blockTilings` recovers, for every block dimension,
// BS (the divisor of its derived bound; 1 when the bound is N itself and the
// dimension has a guard), the tiled dimension (the dimension
// whose bound the derived bound names, preferring one its guard names) and
// the guard, from nothing but Graph::dims, derivedBounds and dimGuards — so
// the teaching pictures shade tiles however the tiling pass rewrites the
// nodes inside a block.
#pragma once

#include "graph/Graph.h"

#include <string>
#include <vector>

namespace tempo {

struct BlockTiling {
  std::string blockDim;    ///< `ds`
  std::string blockCount;  ///< its derived bound, `DS`
  IndexExpr count;         ///< `floor((T + 1) / 2)`
  std::string dim;         ///< the tiled dimension, `t`
  int64_t blockSize = 0;   ///< BS
  Condition guard;         ///< `2*ds <= t` (always true when the graph has none)
};

/// Every block dimension of `g` in declaration order (none before static tiling).
std::vector<BlockTiling> blockTilings(const Graph& g);

}  // namespace tempo
