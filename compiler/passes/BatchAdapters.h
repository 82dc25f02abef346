// BatchAdapters: small movement nodes at the border of a vectorised region.
//
// When vectorisation turns a dimension d into a leading batch axis of some
// nodes, the values crossing the border of that set change shape: a
// per-point reader of a batched value must pick its own position of d out
// of the batch axis (a slice at an index expression, then a reshape that
// drops the size-1 axis), a batched value read with other slice atoms has
// its batch axis behind the stacked axes and must be permuted to the front,
// and a batched operand of lower rank than its elementwise result must be
// reshaped so that NumPy broadcasting lines the batch axes up. Each adapter
// is an ordinary node placed on one edge: it takes over the edge's read
// (its atoms) and the consumer reads it at its own point under the edge's
// condition (only a merge's inputs may be conditional).
#pragma once

#include "graph/Graph.h"
#include "pass/Pass.h"

#include <vector>

namespace tempo {

/// Reads of every dimension of `domain` at the point itself.
std::vector<IndexAtom> identityAtoms(const std::vector<std::string>& domain);

/// Adds node `op(attrs)` over `domain` whose one input makes the read `read`
/// (its producer, atoms and location; unconditional). Returns the new node.
NodeId addReader(Graph& g, OpKind op, OpAttrs attrs, std::vector<std::string> domain, const Edge& read,
                 GraphChange& change);

/// Puts a node `op(attrs)` on edge `edgeId`: the new node, over the consumer's
/// dimensions that the read or the attributes mention (fewer points than the
/// consumer when the read ignores some), makes the edge's read; the consumer
/// reads the node at its own point (the edge keeps its condition and slot).
/// Returns the new node.
NodeId insertAdapter(Graph& g, EdgeId edgeId, OpKind op, OpAttrs attrs, GraphChange& change);

/// Permute attributes moving axis `from` to position `to` of a rank-`rank` value.
OpAttrs moveAxis(int rank, int from, int to);
/// Reshape / expand attributes with the given target shape.
OpAttrs targetShape(std::vector<IndexExpr> shape);
/// Slice attributes: [start, stop) along `axis`.
OpAttrs sliceAttrs(int64_t axis, IndexExpr start, IndexExpr stop);

}  // namespace tempo
