#include "autodiff/ValidityGuards.h"

namespace tempo {

namespace {

Constraint substituted(const Constraint& c, const std::map<std::string, IndexExpr>& subst) {
  return {c.lhs.substitute(subst), c.rel, c.rhs.substitute(subst)};
}

}  // namespace

Condition ValidityGuards::of(NodeId node) {
  std::vector<Constraint> conj = conjunction(node);
  return conj.empty() ? Condition::always() : Condition::of(conj);
}

std::vector<Constraint> ValidityGuards::conjunction(NodeId node) {
  if (auto it = memo_.find(node); it != memo_.end()) return it->second;
  const Node& n = g_.node(node);
  if (opClass(n.op) == OpClass::Source || n.op == OpKind::Merge || inProgress_.count(node)) return {};
  inProgress_.insert(node);
  std::vector<Constraint> conj;
  for (const Edge* e : g_.inputs(node)) {
    const Node& p = g_.node(e->producer);
    bool pointRead = true;
    std::map<std::string, IndexExpr> subst;
    for (size_t i = 0; i < e->index.size() && i < p.domain.size(); ++i) {
      const IndexAtom& a = e->index[i];
      IndexExpr bound = IndexExpr::bound(g_.boundOf(p.domain[i]));
      if (a.isSlice()) {
        pointRead = false;
        conj.push_back({a.start, Constraint::Rel::Ge, 0});
        conj.push_back({a.start, Constraint::Rel::Le, *a.stop});
        conj.push_back({*a.stop, Constraint::Rel::Le, bound});
      } else {
        conj.push_back({a.start, Constraint::Rel::Ge, 0});
        conj.push_back({a.start, Constraint::Rel::Lt, bound});
        subst[p.domain[i]] = a.start;
      }
    }
    if (pointRead)
      for (const Constraint& c : conjunction(e->producer)) conj.push_back(substituted(c, subst));
  }
  inProgress_.erase(node);
  return memo_[node] = dropImpliedByBox(g_, ctx_, n.domain, conj);
}

std::vector<Constraint> dropImpliedByBox(const Graph& g, IslContext& ctx, const std::vector<std::string>& domain,
                                         const std::vector<Constraint>& conj) {
  std::vector<IndexExpr> bounds;
  for (const std::string& d : domain) bounds.push_back(IndexExpr::bound(g.boundOf(d)));
  std::vector<std::string> params = g.boundNames();
  PointSet box = PointSet::box(ctx, domain, bounds, params);
  std::vector<Constraint> kept;
  for (const Constraint& c : conj) {
    PointSet holds = PointSet::fromConstraints(ctx, domain, params, {c});
    if (box.isSubsetOf(holds)) continue;
    bool duplicate = false;
    for (const Constraint& k : kept) duplicate = duplicate || k.str() == c.str();
    if (!duplicate) kept.push_back(c);
  }
  return kept;
}

}  // namespace tempo
