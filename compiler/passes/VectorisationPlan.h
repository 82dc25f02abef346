// VectorisationPlan: which nodes may turn a dimension d into a batch axis.
//
// Vectorising d on a node removes d from its domain and gives its value a
// leading axis of size bound(d): the B separate points (b, t) become one point
// (t) holding all b at once, so B vector-matrix products become one
// matrix-matrix product. That is only right when no value flows *along* d:
// a node qualifies when it is not a source, its type and attributes never
// mention d, its input conditions never mention d, and each of its reads takes
// a producer's d at exactly `d` (and mentions d nowhere else). The plan then
// closes that set: a recurrence is vectorised whole or not at all (a cycle
// with one per-point member would need all b of a point before computing any),
// and a vectorised node whose unvectorised reader picks d anywhere but at d
// itself, 0, B - 1 or the whole window 0:B (`b - 1`, `1`, `0:b + 1`) is kept
// unvectorised, since that point may lie outside 0..B-1 for some B, where the
// original read was merely undefined but a slice of the batch fails. A batched node computes every position of d at once, so it may
// not read, as the window 0:B, a per-point producer that is defined at some
// positions and undefined at others (a branch reading `x[b - 1]`, which its
// merge only takes for b > 0). Finally a group of planned nodes (connected by reads) that only
// moves data — reshapes, permutes, merges, copies — is dropped: it has no
// work to batch, only copies to add at its borders. Every refusal is recorded as a reason for the pass notes.
#pragma once

#include "graph/Graph.h"

#include <map>
#include <set>
#include <string>

namespace tempo {

struct VectorisationPlan {
  std::string dim;
  std::set<NodeId> nodes;                    ///< nodes that take `dim` as a batch axis
  std::map<NodeId, std::string> refusals;    ///< node having `dim` -> why it keeps it
};

/// The nodes to vectorise along `dim`; nodes in `keep` (adapters) are never chosen.
VectorisationPlan planVectorisation(const Graph& g, const std::string& dim, const std::set<NodeId>& keep);

/// Position of `dim` in `domain`, or -1.
int domainPosition(const std::vector<std::string>& domain, const std::string& dim);

}  // namespace tempo
