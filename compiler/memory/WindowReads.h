// WindowReads: slices that may keep a window of their producer's buffer.
//
// A slice's kernel returns a window of its input: no copy. The executor
// copies such a result by default (BufferSharing.h), because a window keeps
// its whole buffer alive: a slice of a large product kept after the product's
// store is freed would hold every byte of it. That danger is a question of
// lifetimes, which the placed loop program answers: when the producer's store
// is allocated before, and freed after, every statement of the slice — and of
// every node that holds the slice's buffer in turn (a reshape, an identity,
// a merge reading it at a point) — the window never outlives the buffer, and
// holding it costs nothing. rnn_peer's step reads `x @ W`, hoisted over all
// steps, through a slice per step: a window of it instead of a 32 KiB copy.
// The producer must keep each point in its own slot (a whole store: nothing
// it holds is replaced while the window is read) and be read at a point.
// Decided on the program before any budget's swaps (a run under a memory
// budget copies, as before: its pager moves whole stores).
#pragma once

#include "graph/Graph.h"
#include "memory/StoragePlan.h"
#include "schedule/LoopAst.h"

#include <string>
#include <vector>

namespace tempo {

/// `holder` keeps the value it computes as a window of `producer`'s buffer.
struct WindowRead {
  NodeId holder = -1;
  NodeId producer = -1;
  bool operator==(const WindowRead&) const = default;
};

/// Every slice of `g` whose window may stay a window in `placed` (the loops
/// with their Alloc / Free, MemoryPlacement) with the stores of `stores`.
std::vector<WindowRead> windowReads(const Graph& g, const LoopProgram& placed, const StoragePlan& stores);

/// One line per read: `%25 slice keeps windows of %23 matmul` (for snapshots).
std::string printWindowReads(const Graph& g, const std::vector<WindowRead>& reads);

}  // namespace tempo
