// AlgebraicSimplification: a table of exact rewrite rules.
//
// Each rule recognises a node that only passes on a value it reads — `x * 1`,
// `x + 0`, `x - 0`, `x / 1`, `neg(neg(x))`, `identity(x)`, a cast to the same
// dtype, a reshape or expand to the same shape, a permute that keeps the axis
// order, a merge with a single unconditional branch — and makes the node's
// readers read that value directly (composing the two reads' index atoms, see
// GraphRewrite). Only rules that give exactly the same numbers are in the
// table (`x + 0` can only turn a -0.0 into +0.0, which compares equal); no
// rule reassociates floating-point arithmetic.
#pragma once

#include "pass/Pass.h"

#include <functional>
#include <optional>
#include <vector>

namespace tempo {

/// One rewrite: `x * 1 -> x`. `match` returns the read (over the node's
/// domain) that the node's value equals, or nullopt.
struct RewriteRule {
  std::string name;
  std::function<std::optional<Edge>(const Graph&, const Node&)> match;
};

/// The rules, in the order they are tried.
const std::vector<RewriteRule>& algebraicRules();

class AlgebraicSimplification : public Pass {
public:
  std::string name() const override { return "algebraic-simplification"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
