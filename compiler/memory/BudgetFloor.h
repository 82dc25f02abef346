// BudgetFloor: the fewest bytes any schedule of a graph needs at once.
//
// A memory budget below this floor cannot be met by any schedule, swap or
// recompute, so `--memory-budget` refuses it with an error naming the stores
// that cannot shrink, instead of running over it. Two things no placement
// can take out of memory: one statement instance's working set (the kernel
// reads every input window of that instance and writes its result while they
// are live; a result that is its input's buffer — identity, reshape, merge —
// adds nothing; two reads of one producer count once, the larger; a source
// that is one array — load, random, hash — is built and held whole, so its
// exec and every read of it or of a view of it hold the whole array), and the
// outputs at the end of the run (all their values are returned). Stores are
// swapped and paged whole, so an instance also holds the whole store it
// writes and each whole store it reads (`storeBytes`, the plan's allocations):
// writing q[t] into a store of every t needs all of it in memory. Instances
// are evaluated at the corners of each node's domain (every dimension at 0 or
// its bound - 1, where the dimension guards hold): each is a real instance,
// so the floor is a true lower bound, though not always the largest one.
#pragma once

#include "graph/Graph.h"

#include <cstdint>
#include <map>
#include <string>

namespace tempo {

struct BudgetFloor {
  int64_t bytes = 0;
  /// `%12 matmul at (t=15) needs 3072 B at once: its result 1024 B, and its reads %3 W 2048 B`,
  /// or `the outputs need 4096 B at the end: %15 y 4096 B`.
  std::string why;
};

/// The floor of `g` at `bounds`; `outputBytes` holds each output store's bytes, `storeBytes` every
/// store's (a node missing from it has no store of its own).
BudgetFloor budgetFloor(const Graph& g, const SymbolEnv& bounds, const std::map<NodeId, int64_t>& outputBytes,
                        const std::map<NodeId, int64_t>& storeBytes);

}  // namespace tempo
