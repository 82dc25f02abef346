// ValidityGuards: where a forward node's value is defined, as a condition.
//
// Lowering gives every expression the domain of the tensor it defines, so the
// branch `h[b, t] = tanh(x[b, t] @ W + h[b, t-1] @ U)` yields a matmul over
// all of (b, t) that is only meaningful where t >= 1 (at t = 0 it would read
// h[b, -1]); the merge never asks for it there. Backward nodes read forward
// values (tanh' needs y), so a gradient must never be requested where the
// forward value is undefined. The guard of a node is the conjunction of
// "every index it reads lies inside its producer's domain" and, through point
// reads, its producers' guards (sources and merges are defined everywhere, so
// recursion stops at them; a slice read assumes its producer is defined on
// the whole slice, which the front end checks). Constraints implied by the
// node's domain box are dropped with isl, so most guards are `true`.
// A node is also only *needed* where some reader uses it: an expression of a
// branch (read at the same point by the next expression, up to the merge) is
// needed only where its branch is taken. There, `mean(g[l+1:L])` at l = L-1
// divides by zero; its local derivatives are NaN and 0 * NaN is no zero, so
// the guard also includes this liveness (where it can be read off same-point
// reads; anything else counts as needed everywhere).
#pragma once

#include "graph/Graph.h"

#include <limits>
#include <map>
#include <set>
#include <vector>

namespace tempo {

class ValidityGuards {
public:
  /// Only readers with an id below `readersBefore` count for liveness (the
  /// nodes that existed before any backward node was added).
  ValidityGuards(const Graph& g, IslContext& ctx, NodeId readersBefore = std::numeric_limits<NodeId>::max())
      : g_(g), ctx_(ctx), readersBefore_(readersBefore) {}

  /// Where `node` is defined and needed (over its domain); `true` for most
  /// nodes. Backward readers must not count: ask for every forward node
  /// before adding backward nodes to the graph (answers are memoised), or
  /// give the first backward node's id as `readersBefore`.
  Condition of(NodeId node);

private:
  std::vector<Constraint> defined(NodeId node);
  Condition live(NodeId node);

  const Graph& g_;
  IslContext& ctx_;
  NodeId readersBefore_;
  std::map<NodeId, std::vector<Constraint>> definedMemo_;
  std::map<NodeId, Condition> liveMemo_;
  std::map<NodeId, Condition> guardMemo_;
  std::set<NodeId> inProgress_;
  std::set<NodeId> liveInProgress_;
};

/// `conj` without the constraints that hold on the whole box of `domain`
/// (each dimension in [0, its bound)) and without repeats; decided with isl.
std::vector<Constraint> dropImpliedByBox(const Graph& g, IslContext& ctx, const std::vector<std::string>& domain,
                                         const std::vector<Constraint>& conj);

}  // namespace tempo
