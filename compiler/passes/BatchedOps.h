// BatchedOps: the rule that makes one op compute a whole batch at once.
//
// After vectorisation gives a node a leading batch axis of size B, its op
// must compute, for every batch position, what it computed at that point
// before. Each input is either batched ([B, ...], read from a vectorised
// node or as the window 0:B of a per-point one) or unbatched (the same value
// for every position). The rules: elementwise ops (and fused chains of
// them) keep NumPy broadcasting right — an unbatched operand already lines up with the trailing axes, a
// batched operand of lower rank than the result (or than an expand's target)
// gets size-1 axes after the batch axis; reductions, permutes, reshapes, expands, slices and cats shift
// or prefix their axis attributes; merges, reductions and movement ops need
// every input batched, so unbatched ones are expanded. Matmul is batched
// directly when NumPy's rules already give [B, ...] (e.g. [B, E] @ [E, H]);
// otherwise batched vectors become matrices ([B, k] -> [B, 1, k] or
// [B, k, 1]), batched operands get size-1 batch axes up to the other
// operand's batch rank, and a reshape after the product restores the
// original result shape behind B.
#pragma once

#include "graph/Graph.h"
#include "pass/Pass.h"

#include <map>

namespace tempo {

/// Rewrites vectorised node `id` (domain and type already batched, type =
/// [batch] + `unbatched`) so that its op computes the batch; `batched` says,
/// per input edge, whether it carries the batch axis. May add adapter nodes.
void batchNode(Graph& g, NodeId id, const IndexExpr& batch, const TensorType& unbatched,
               const std::map<EdgeId, bool>& batched, GraphChange& change);

}  // namespace tempo
