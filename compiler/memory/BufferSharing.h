// BufferSharing: which stores hold values of another node's buffer.
//
// The executor stores a node's value as its kernel returns it, and some
// kernels return their input's buffer: identity, reshape, a merge (the
// branch it takes), and a permute or expand marked a strided view (ViewSelection;
// an expand view's store holds its input's bytes, see MemoryPlacement). Such a node, reading a producer at a point, holds the very
// buffers the producer's store holds, so the bytes count once — in the
// MemoryTracker, which counts buffers, and in the MemoryPrediction, which
// subtracts the bytes two such stores hold in common from their sum. Every
// other node owns its value: the executor copies a result that would share a
// buffer with an input (a slice returned as a window), so a store never keeps
// a larger buffer alive than its own values — except the slices WindowReads
// proves never outlive their producer's store, whose windows share its buffer. A window read of a source whose
// points are consecutive in its array is itself a window of the array (the
// stack of consecutive windows is not copied), so a reshape of it shares too. Sources keep their array: the
// values in their store are windows of it (see SourceArrays).
#pragma once

#include "graph/Graph.h"
#include "memory/StoragePlan.h"
#include "memory/WindowReads.h"

#include <vector>

namespace tempo {

/// True when `n` is a permute or expand the view-selection pass made a strided view.
bool isStridedView(const Node& n);

/// True when `n`'s value is its input's buffer (identity, reshape, merge, a view).
bool sharesInputBuffer(const Node& n);

/// True when `n` shares its input's buffer but keeps a copy of a whole-array source's
/// window: a graph output's identity, reshape or merge keeps its values to the end of the
/// run, past the source's Free, and a window would keep the source's whole array alive.
bool keepsItsOwnValues(const Graph& g, const Node& n);

/// True when `n`'s kernel always makes a fresh value from its operands, never a view of
/// them (a matmul, a permute that copies, the kernels that read strided views): a read
/// may hand it a producer's buffer itself (a block, a window of a store in one buffer).
bool makesFreshValue(const Node& n);

/// The type whose bytes each of `n`'s values holds: its own, or for an expand that is
/// a strided view, its input's (the view holds the input's smaller buffer).
const TensorType& heldType(const Graph& g, const Node& n);

/// `holder`'s store holds values whose buffers `producer`'s store holds too.
struct SharedBuffer {
  int holder = -1;
  int producer = -1;
  /// The share of holder's points that read producer (a merge branch's
  /// condition, counted over holder's domain at the given bounds; 1 when the
  /// domain is too large to count).
  double share = 1.0;
  /// How many of those points read each producer point they read (1 for a
  /// one-to-one read; every point for a broadcast constant): all but one of
  /// them hold a buffer the holder's store already holds.
  double repeats = 1.0;
  /// Bytes of one producer value that are not shared while it is fresh: a
  /// holder keeping a window of its points (a circular store: a recurrence's
  /// merge, a running sum) still holds its full window when the producer makes
  /// the value it will take next, and lets the oldest go only when it stores
  /// that one. 0 for other holders, whose store has room for it.
  int64_t freshBytes = 0;
};

/// Every read through which a node holds its producer's buffer: a node that
/// shares its input's buffer reading that input at a point, or reading a
/// window of a source whose points lie one after the other in the source's
/// array (any other slice read stacks a fresh buffer), at `bounds`.
/// `windows` (WindowReads) adds each slice that keeps windows of its producer;
/// `stores` (the storage plan, when known) gives the holders that keep a window.
std::vector<SharedBuffer> sharedBuffers(const Graph& g, const SymbolEnv& bounds,
                                        const std::vector<WindowRead>& windows = {},
                                        const StoragePlan* stores = nullptr);

}  // namespace tempo
