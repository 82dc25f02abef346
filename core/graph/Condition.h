// Condition: a boolean formula over a node's domain that guards an edge.
//
// Conditions come from the branches of a recurrent tensor (`h[b, 0] = ...`
// holds where t == 0) and say when an edge of the symbolic dependence graph
// is live. They are kept in disjunctive normal form over Constraints between
// IndexExprs, which is enough for ordered branches (a later branch holds where
// its own guard holds and no earlier guard does) and converts exactly into an
// isl set. A Condition prints as `true`, `false`, `t == 0` or
// `(t == 0 and b >= 1) or t >= 2`.
#pragma once

#include "symbolic/PointSet.h"

#include <map>
#include <string>
#include <vector>

namespace tempo {

class Condition {
public:
  /// The always-true condition.
  Condition() : disjuncts_(1) {}
  /// The always-true condition (one empty conjunction).
  static Condition always() { return Condition(std::vector<std::vector<Constraint>>(1)); }
  /// The always-false condition (no disjunct).
  static Condition never() { return Condition(std::vector<std::vector<Constraint>>{}); }
  static Condition of(std::vector<Constraint> conjunction) {
    return Condition(std::vector<std::vector<Constraint>>{std::move(conjunction)});
  }

  bool isAlways() const;
  bool isNever() const { return disjuncts_.empty(); }
  const std::vector<std::vector<Constraint>>& disjuncts() const { return disjuncts_; }

  Condition operator&&(const Condition& other) const;
  Condition operator||(const Condition& other) const;
  Condition operator!() const;
  /// The same condition with every symbol named in `values` replaced by its expression.
  Condition substitute(const std::map<std::string, IndexExpr>& values) const;

  /// True at the point `env` (dimension and bound values).
  bool holds(const SymbolEnv& env) const;
  /// The points of `vars` (with `params`) where the condition holds.
  PointSet toPointSet(IslContext& ctx, const std::vector<std::string>& vars,
                      const std::vector<std::string>& params) const;
  std::set<Symbol> symbols() const;
  std::string str() const;
  bool operator==(const Condition& other) const;

private:
  explicit Condition(std::vector<std::vector<Constraint>> d) : disjuncts_(std::move(d)) {}
  std::vector<std::vector<Constraint>> disjuncts_;
};

/// True when `c` holds at `env`.
bool constraintHolds(const Constraint& c, const SymbolEnv& env);
/// The negation of one constraint (`t == 0` -> `t != 0`).
Constraint negate(const Constraint& c);

}  // namespace tempo
