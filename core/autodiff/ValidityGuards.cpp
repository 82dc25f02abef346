#include "autodiff/ValidityGuards.h"

#include "graph/MergeBranches.h"

namespace tempo {

namespace {

Constraint substituted(const Constraint& c, const std::map<std::string, IndexExpr>& subst) {
  return {c.lhs.substitute(subst), c.rel, c.rhs.substitute(subst)};
}

/// Liveness conditions beyond this many constraints (over all disjuncts) are
/// given up on: the node then counts as needed everywhere, which is safe.
constexpr size_t kMaxLivenessTerms = 16;

size_t complexity(const Condition& c) {
  size_t n = 0;
  for (const std::vector<Constraint>& d : c.disjuncts()) n += d.size() + 1;
  return n;
}

}  // namespace

Condition ValidityGuards::of(NodeId node) {
  if (auto it = guardMemo_.find(node); it != guardMemo_.end()) return it->second;
  std::vector<Constraint> conj = defined(node);
  Condition guard = conj.empty() ? Condition::always() : Condition::of(conj);
  Condition needed = live(node);
  if (!needed.isAlways()) guard = guard && needed;
  return guardMemo_[node] = guard;
}

Condition ValidityGuards::live(NodeId node) {
  if (auto it = liveMemo_.find(node); it != liveMemo_.end()) return it->second;
  const Node& n = g_.node(node);
  if (liveInProgress_.count(node) || n.op == OpKind::Merge) return Condition::always();
  for (const GraphOutput& o : g_.outputs)
    if (o.node == node) return liveMemo_[node] = Condition::always();
  std::vector<const Edge*> users;
  for (const Edge* e : g_.users(node))
    if (e->consumer < readersBefore_) users.push_back(e);
  if (users.empty()) return liveMemo_[node] = Condition::always();
  liveInProgress_.insert(node);
  Condition acc = Condition::never();
  for (const Edge* e : users) {
    const Node& u = g_.node(e->consumer);
    if (!e->isIdentityRead(n.domain) || u.domain != n.domain) {
      acc = Condition::always();
      break;
    }
    Condition readerLive = u.op == OpKind::Merge ? Condition::always() : live(u.id);
    acc = acc || (readerLive && effectiveCondition(g_, *e));
    if (acc.isAlways() || complexity(acc) > kMaxLivenessTerms) {  // too intricate: needed everywhere
      acc = Condition::always();
      break;
    }
  }
  liveInProgress_.erase(node);
  return liveMemo_[node] = acc;
}

std::vector<Constraint> ValidityGuards::defined(NodeId node) {
  if (auto it = definedMemo_.find(node); it != definedMemo_.end()) return it->second;
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
      for (const Constraint& c : defined(e->producer)) conj.push_back(substituted(c, subst));
  }
  inProgress_.erase(node);
  return definedMemo_[node] = dropImpliedByBox(g_, ctx_, n.domain, conj);
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
