#include "passes/ConditionSimplifier.h"

namespace tempo {

namespace {

std::vector<IndexExpr> boundsOf(const Graph& g, const std::vector<std::string>& domain) {
  std::vector<IndexExpr> bounds;
  for (const std::string& d : domain) bounds.push_back(IndexExpr::bound(g.boundOf(d)));
  return bounds;
}

/// Each `a != b` becomes two disjuncts, one with `a < b` and one with `a > b`.
std::vector<std::vector<Constraint>> splitNotEqual(const std::vector<std::vector<Constraint>>& disjuncts) {
  std::vector<std::vector<Constraint>> out;
  for (const auto& conj : disjuncts) {
    std::vector<std::vector<Constraint>> expanded(1);
    for (const Constraint& c : conj) {
      if (c.rel != Constraint::Rel::Ne) {
        for (auto& e : expanded) e.push_back(c);
        continue;
      }
      std::vector<std::vector<Constraint>> next;
      for (const auto& e : expanded)
        for (Constraint::Rel rel : {Constraint::Rel::Lt, Constraint::Rel::Gt}) {
          next.push_back(e);
          next.back().push_back({c.lhs, rel, c.rhs});
        }
      expanded = std::move(next);
    }
    out.insert(out.end(), expanded.begin(), expanded.end());
  }
  return out;
}

}  // namespace

ConditionSimplifier::ConditionSimplifier(IslContext& ctx, const Graph& g, const std::vector<std::string>& domain)
    : ctx_(ctx),
      vars_(domain),
      params_(g.boundNames()),
      box_(PointSet::box(ctx, domain, boundsOf(g, domain), g.boundNames())) {}

PointSet ConditionSimplifier::setOf(const std::vector<Constraint>& conjunction) const {
  return PointSet::fromConstraints(ctx_, vars_, params_, conjunction).intersect(box_);
}

PointSet ConditionSimplifier::setOf(const std::vector<std::vector<Constraint>>& disjuncts) const {
  PointSet acc = box_.subtract(box_);
  for (const auto& conj : disjuncts) acc = acc.unite(setOf(conj));
  return acc;
}

bool ConditionSimplifier::sameSet(const PointSet& a, const PointSet& b) const {
  return a.isSubsetOf(b) && b.isSubsetOf(a);
}

std::vector<Constraint> ConditionSimplifier::dropRedundantConstraints(std::vector<Constraint> conjunction) const {
  PointSet target = setOf(conjunction);
  for (size_t i = 0; i < conjunction.size();) {
    std::vector<Constraint> without = conjunction;
    without.erase(without.begin() + static_cast<long>(i));
    if (sameSet(setOf(without), target)) conjunction = std::move(without);
    else ++i;
  }
  return conjunction;
}

Condition ConditionSimplifier::simplify(const Condition& c) const {
  std::vector<std::vector<Constraint>> disjuncts;
  for (const auto& conj : splitNotEqual(c.disjuncts()))
    if (!setOf(conj).isEmpty()) disjuncts.push_back(dropRedundantConstraints(conj));
  PointSet whole = setOf(disjuncts);
  if (whole.isEmpty()) return Condition::never();
  if (box_.isSubsetOf(whole)) return Condition::always();
  for (size_t i = 0; i < disjuncts.size();) {
    std::vector<std::vector<Constraint>> others = disjuncts;
    others.erase(others.begin() + static_cast<long>(i));
    if (sameSet(setOf(others), whole)) disjuncts = std::move(others);
    else ++i;
  }
  Condition out = Condition::never();
  for (const auto& conj : disjuncts) out = out || Condition::of(conj);
  return out;
}

}  // namespace tempo
