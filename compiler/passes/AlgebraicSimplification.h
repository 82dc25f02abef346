// AlgebraicSimplification: a table of exact rewrite rules.
//
// Each rule recognises a node that only passes on a value it reads — `x * 1`,
// `x + 0`, `x - 0`, `x / 1`, `neg(neg(x))`, `identity(x)`, a cast to the same
// dtype, a reshape or expand to the same shape, a permute that keeps the axis
// order, a merge with a single unconditional branch — and makes the node's
// readers read that value directly (composing the two reads' index atoms, see
// GraphRewrite). One structural rule builds a node instead: a running sum
// read only at its end becomes a single reduction (RecurrenceLift.h). The
// forwarding rules give exactly the same numbers (`x + 0` can only turn a
// -0.0 into +0.0, which compares equal); the running-sum lift is exact on
// integers but, on floats, sums in the reduction's order and precision
// (f64, rounded once) instead of rounding after every step, so its result
// can differ from the recurrence's in the last bits (it is the more
// accurate of the two).
#pragma once

#include "pass/Pass.h"

#include <functional>
#include <optional>
#include <vector>

namespace tempo {

/// One rewrite. A forwarding rule (`x * 1 -> x`) sets `match`, which returns
/// the read (over the node's domain) that the node's value equals, or nullopt.
/// A structural rule sets `rewrite` instead, which rewrites the graph around
/// the node itself and returns true if it did.
struct RewriteRule {
  std::string name;
  std::function<std::optional<Edge>(const Graph&, const Node&)> match;
  std::function<bool(Graph&, NodeId, GraphChange&)> rewrite;
};

/// The rules, in the order they are tried.
const std::vector<RewriteRule>& algebraicRules();

/// Applies `rules` to every node until none applies, noting each rewrite in `change`.
void applyRewriteRules(Graph& graph, const std::vector<RewriteRule>& rules, GraphChange& change);

/// The forwarding rules of views that leave their input as it is: identity, a reshape or
/// expand to the input's own shape, a permute keeping the axis order. PermuteSinking
/// applies them after folding reshapes of reshapes, which leaves such views (a batched
/// [B, 64] read through [B, 1, 64] as [B, 64]).
const std::vector<RewriteRule>& identityViewRules();

class AlgebraicSimplification : public Pass {
public:
  std::string name() const override { return "algebraic-simplification"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
