// ConditionSimplifier: shortest equivalent form of an edge condition over a node's domain.
//
// A condition only matters at the points of its node's domain box
// (0 <= d < bound(d) for every dimension d, bounds >= 1). Over that box many
// constraints are redundant: `t != 0` is `t > 0`, `l == 0 and t > 0` needs
// nothing of `l != 0 or ...`. The simplifier asks isl: it splits `!=` into
// `<` or `>`, drops disjuncts that are empty or covered by the others and
// constraints whose removal does not change the set, and answers `true` or
// `false` when the condition holds everywhere or nowhere in the box.
#pragma once

#include "graph/Condition.h"
#include "graph/Graph.h"

#include <string>
#include <vector>

namespace tempo {

class ConditionSimplifier {
public:
  /// Simplifies conditions over `domain` (dimensions of `g`).
  ConditionSimplifier(IslContext& ctx, const Graph& g, const std::vector<std::string>& domain);

  Condition simplify(const Condition& c) const;

private:
  PointSet setOf(const std::vector<Constraint>& conjunction) const;
  PointSet setOf(const std::vector<std::vector<Constraint>>& disjuncts) const;
  bool sameSet(const PointSet& a, const PointSet& b) const;
  std::vector<Constraint> dropRedundantConstraints(std::vector<Constraint> conjunction) const;

  IslContext& ctx_;
  std::vector<std::string> vars_;
  std::vector<std::string> params_;
  PointSet box_;
};

}  // namespace tempo
