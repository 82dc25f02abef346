#include "frontend/DomainChecks.h"

#include "graph/GraphAlgorithms.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>
#include <tuple>

namespace tempo {

namespace {

void checkCoverage(LoweringContext& cx) {
  for (const TensorSymbol* t : cx.scope.recurrentTensors()) {
    if (t->poisoned) continue;
    if (t->branches.empty()) {
      cx.error(t->declRange, "'" + t->name + "' is declared but has no branches: define it, e.g. `" + t->name + "[" +
                                 [&] { std::string s; for (size_t i = 0; i < t->domain.size(); ++i) s += (i ? ", " : "") + t->domain[i]; return s; }() +
                                 "] = ...`");
      continue;
    }
    Condition covered = Condition::never();
    for (const auto& b : t->branches) covered = covered || b.guard;
    Site site{t->domain, !covered};
    PointSet missing = cx.sitePoints(site);
    if (missing.isEmpty()) continue;
    std::string example;
    if (auto ex = missing.sample()) {
      for (const std::string& d : t->domain) example += (example.empty() ? "" : ", ") + d + " = " + std::to_string((*ex)[d]);
      std::string bounds;
      for (const std::string& p : cx.params())
        if (ex->count(p)) bounds += (bounds.empty() ? "" : ", ") + p + " = " + std::to_string((*ex)[p]);
      example = " (for example " + example + " when " + bounds + ")";
    }
    cx.error(t->declRange, "no branch of '" + t->name + "' covers every point of its domain " + tupleString(t->domain) + example);
  }
}

std::string primed(const std::string& d) { return d + "_src"; }

/// `'p' and 'q'`: the named tensors of a cycle; when it has none (the nodes `grad` adds),
/// the tensors declared where those nodes come from (they keep the forward node's range).
std::string cycleNames(const Graph& g, const std::vector<NodeId>& comp) {
  std::vector<std::string> names;
  auto add = [&](const std::string& name) {
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (NodeId n : comp) add(g.node(n).name);
  if (names.empty())
    for (NodeId n : comp)
      for (const auto& [id, other] : g.nodes())
        if (!other.name.empty() && other.loc.begin == g.node(n).loc.begin) add(other.name);
  if (names.empty()) return "'%" + std::to_string(comp.front()) + "'";
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + ("'" + names[i] + "'");
  return text;
}

class RecurrenceCheck {
public:
  RecurrenceCheck(LoweringContext& cx, std::vector<NodeId> comp) : cx_(cx), comp_(comp.begin(), comp.end()) {}

  void run() {
    const Graph& g = cx_.graph;
    for (const auto& [id, e] : g.edges())
      if (comp_.count(e.consumer) && comp_.count(e.producer)) edges_.push_back(&e);
    if (edges_.empty()) return;  // a single node without a self-loop
    const Node* anchor = anchorNode();
    domain_ = g.node(*comp_.begin()).domain;
    vars_ = domain_;
    for (const std::string& d : domain_) vars_.push_back(primed(d));
    for (const Edge* e : edges_) relations_.push_back(relation(*e));
    if (!checkSamePointCycles(*anchor)) return;
    if (findOrder()) return;
    std::string reads;
    for (const Edge* e : edges_)
      if (e->loc.valid() && !e->index.empty()) reads += (reads.empty() ? "" : ", ") + readText(*e);
    std::string what = anchor->name.empty()
                           ? "the gradient of the recurrence through " +
                                 cycleNames(g, std::vector<NodeId>(comp_.begin(), comp_.end()))
                           : "the recurrence through '" + anchor->name + "'";
    cx_.error(anchor->loc, what + " does not go strictly into the past or strictly into the future along any order of " +
                               tupleString(domain_) + (reads.empty() ? "" : "; its reads: " + reads));
  }

private:
  const Node* anchorNode() const {
    for (NodeId n : comp_)
      if (cx_.graph.node(n).op == OpKind::Merge) return &cx_.graph.node(n);
    return &cx_.graph.node(*comp_.begin());
  }

  /// `h[t - 1]`: the read as the user wrote it, by the producer's name.
  std::string readText(const Edge& e) const {
    const Node& p = cx_.graph.node(e.producer);
    std::string s = (p.name.empty() ? "%" + std::to_string(p.id) : p.name) + "[";
    for (size_t i = 0; i < e.index.size(); ++i) s += (i ? ", " : "") + e.index[i].str();
    return s + "]";
  }

  /// {(c, c_src) : c_src is read by consumer point c through e}.
  PointSet relation(const Edge& e) {
    std::vector<Constraint> cs;
    for (const std::string& d : domain_) {
      IndexExpr b = IndexExpr::bound(cx_.scope.boundOf(d));
      cs.push_back({IndexExpr::dim(d), Constraint::Rel::Ge, 0});
      cs.push_back({IndexExpr::dim(d), Constraint::Rel::Lt, b});
    }
    for (size_t i = 0; i < e.index.size() && i < domain_.size(); ++i) {
      IndexExpr p = IndexExpr::dim(primed(domain_[i]));
      const IndexAtom& a = e.index[i];
      if (a.isSlice()) {
        cs.push_back({p, Constraint::Rel::Ge, a.start});
        cs.push_back({p, Constraint::Rel::Lt, *a.stop});
      } else {
        cs.push_back({p, Constraint::Rel::Eq, a.start});
      }
    }
    auto params = cx_.params();
    PointSet r = PointSet::fromConstraints(cx_.isl, vars_, params, cs);
    Condition region = e.condition;
    if (auto it = cx_.nodeRegion.find(e.consumer); it != cx_.nodeRegion.end()) region = region && it->second;
    return r.intersect(region.toPointSet(cx_.isl, vars_, params));
  }

  PointSet samePoint() {
    std::vector<Constraint> cs;
    for (const std::string& d : domain_) cs.push_back({IndexExpr::dim(primed(d)), Constraint::Rel::Eq, IndexExpr::dim(d)});
    return PointSet::fromConstraints(cx_.isl, vars_, cx_.params(), cs);
  }

  /// A cycle of reads at the same point exists at a point x only if every edge on it reads
  /// at x itself. Each edge reads at the same point on a set of points (a branch at `t == 0`,
  /// a gradient guarded to `t >= 1`): the domain is cut into the cells those sets make, and
  /// each cell is checked with the edges that read at the same point there. (A backward graph
  /// has edges at the same point on disjoint sets whose node-level cycle is no cycle.)
  bool checkSamePointCycles(const Node& anchor) {
    PointSet same = samePoint();
    std::vector<PointSet> onSame;
    for (const PointSet& r : relations_) onSame.push_back(r.intersect(same));
    std::vector<PointSet> cells{same};
    constexpr size_t kMaxCells = 64;
    for (const PointSet& set : onSame) {
      if (set.isEmpty() || cells.size() > kMaxCells) continue;
      std::vector<PointSet> next;
      for (const PointSet& c : cells)
        for (PointSet part : {c.intersect(set), c.subtract(set)})
          if (!part.isEmpty()) next.push_back(std::move(part));
      cells = std::move(next);
    }
    if (cells.size() > kMaxCells) cells = {same};  // too many: every edge in one cell, as at node level
    for (const PointSet& cell : cells) {
      std::map<NodeId, std::vector<NodeId>> succ;
      for (size_t i = 0; i < edges_.size(); ++i)
        if (!onSame[i].intersect(cell).isEmpty()) succ[edges_[i]->consumer].push_back(edges_[i]->producer);
      if (!hasCycle(succ)) continue;
      std::string example = anchor.name.empty() ? "" : ", such as " + anchor.name + "[t-1]";
      cx_.error(anchor.loc, nameOf(anchor) + " depends on itself at the same point: a recurrence must read a "
                                "strictly earlier (or strictly later) point" + example);
      return false;
    }
    return true;
  }

  bool hasCycle(std::map<NodeId, std::vector<NodeId>>& succ) const {
    std::map<NodeId, int> state;  // 0 new, 1 open, 2 done
    std::function<bool(NodeId)> cyclic = [&](NodeId v) {
      state[v] = 1;
      for (NodeId w : succ[v]) {
        if (state[w] == 1) return true;
        if (state[w] == 0 && cyclic(w)) return true;
      }
      state[v] = 2;
      return false;
    };
    for (NodeId n : comp_)
      if (state[n] == 0 && cyclic(n)) return true;
    return false;
  }

  /// `'h'`, or for the nodes `grad` adds `the gradient of 'h'` (cycleNames).
  std::string nameOf(const Node& anchor) const {
    if (!anchor.name.empty()) return "'" + anchor.name + "'";
    return "the gradient of " + cycleNames(cx_.graph, std::vector<NodeId>(comp_.begin(), comp_.end()));
  }

  /// Points where the source is lexicographically after the consumer under (perm, signs).
  PointSet forwardSet(const std::vector<size_t>& perm, const std::vector<int>& signs) {
    auto params = cx_.params();
    PointSet acc = PointSet::fromConstraints(cx_.isl, vars_, params, {});
    acc = acc.subtract(acc);
    std::vector<Constraint> prefix;
    for (size_t k = 0; k < perm.size(); ++k) {
      const std::string& d = domain_[perm[k]];
      IndexExpr c = IndexExpr::dim(d), p = IndexExpr::dim(primed(d));
      std::vector<Constraint> cs = prefix;
      cs.push_back({signs[perm[k]] > 0 ? p : c, Constraint::Rel::Gt, signs[perm[k]] > 0 ? c : p});
      acc = acc.unite(PointSet::fromConstraints(cx_.isl, vars_, params, cs));
      prefix.push_back({p, Constraint::Rel::Eq, c});
    }
    return acc;
  }

  bool findOrder() {
    size_t n = domain_.size();
    std::vector<size_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    do {
      for (unsigned mask = 0; mask < (1u << n); ++mask) {
        std::vector<int> signs(n);
        for (size_t i = 0; i < n; ++i) signs[i] = (mask >> i) & 1 ? -1 : 1;  // -1: the future is "earlier"
        PointSet forward = forwardSet(perm, signs);
        bool ok = true;
        for (const PointSet& r : relations_)
          if (!r.intersect(forward).isEmpty()) { ok = false; break; }
        if (ok) return true;
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
    return false;
  }

  LoweringContext& cx_;
  std::set<NodeId> comp_;
  std::vector<const Edge*> edges_;
  std::vector<PointSet> relations_;
  std::vector<std::string> domain_;
  std::vector<std::string> vars_;
};

/// A cycle through values over different domains, as `optimize` makes (the
/// params over (i), the forward pass over (i, b, t), the loss over (i)). It
/// is well founded when a dimension they all share orders it: every read in
/// the cycle goes to an earlier-or-equal coordinate of that dimension (in one
/// direction), and the reads that go strictly earlier are left out; what is
/// still cyclic is checked again, piece by piece (by RecurrenceCheck once a
/// piece has one domain).
class LayeredRecurrenceCheck {
public:
  explicit LayeredRecurrenceCheck(LoweringContext& cx) : cx_(cx) {}

  void run(const std::vector<NodeId>& comp, const std::vector<EdgeId>& edges) {
    const Graph& g = cx_.graph;
    const std::vector<std::string>& first = g.node(comp.front()).domain;
    std::vector<std::string> shared;
    bool oneDomain = true;
    for (const std::string& d : first) {
      bool everywhere = true;
      for (NodeId n : comp) everywhere = everywhere && std::count(g.node(n).domain.begin(), g.node(n).domain.end(), d);
      if (everywhere) shared.push_back(d);
    }
    for (NodeId n : comp) oneDomain = oneDomain && g.node(n).domain == first;
    if (oneDomain) {
      RecurrenceCheck(cx_, comp).run();
      return;
    }
    for (const std::string& d : shared)
      for (int direction : {1, -1}) {
        std::vector<EdgeId> kept;
        bool ordered = true;
        for (EdgeId id : edges) {
          if (reads(g.edge(id), d, direction > 0 ? Constraint::Rel::Gt : Constraint::Rel::Lt)) {
            ordered = false;
            break;
          }
          if (reads(g.edge(id), d, Constraint::Rel::Eq)) kept.push_back(id);
        }
        if (!ordered || kept.size() == edges.size()) continue;
        for (const std::vector<NodeId>& piece : stronglyConnectedComponents(g, comp, kept)) {
          std::set<NodeId> members(piece.begin(), piece.end());
          std::vector<EdgeId> inside;
          for (EdgeId id : kept)
            if (members.count(g.edge(id).consumer) && members.count(g.edge(id).producer)) inside.push_back(id);
          if (!inside.empty()) run(piece, inside);
        }
        return;
      }
    const Node* anchor = &g.node(comp.front());
    std::string domains;
    std::set<std::vector<std::string>> seen;
    for (NodeId n : comp) {
      if (g.node(n).op == OpKind::Merge && !g.node(n).name.empty() && anchor->name.empty()) anchor = &g.node(n);
      if (seen.insert(g.node(n).domain).second) domains += (domains.empty() ? "" : " and ") + tupleString(g.node(n).domain);
    }
    std::string what = "the recurrence through " + cycleNames(g, comp);
    if (anchor->name.empty()) what = "the gradient of " + what;  // only nodes `grad` added: named after their tensors
    cx_.error(anchor->loc, what + " mixes values over " + domains +
                               "; such a cycle must go strictly into the past (or the future) along a dimension they all share");
  }

private:
  /// Whether some consumer point reads through `e` a coordinate of `dim` that is `rel` its own.
  /// A point read at a constant shift (`h[t - 1]`) answers by the shift's sign, once it is known
  /// whether the edge reads anything at all; other reads ask isl.
  bool reads(const Edge& e, const std::string& dim, Constraint::Rel rel) {
    const IndexAtom* a = atomAlong(e, dim);
    if (a && !a->isSlice())
      if (std::optional<int64_t> shift = (a->start - IndexExpr::dim(dim)).constantValue()) {
        const bool holds = rel == Constraint::Rel::Gt ? *shift > 0 : rel == Constraint::Rel::Lt ? *shift < 0 : *shift == 0;
        if (!holds) return false;
        auto known = readsAnything_.find(std::make_pair(e.id, dim));
        if (known == readsAnything_.end())
          known = readsAnything_.emplace(std::make_pair(e.id, dim), !relationAlong(e, dim).isEmpty()).first;
        return known->second;
      }
    return !relationAlong(e, dim).intersect(compare(e, dim, rel)).isEmpty();
  }

  /// The atom through which `e` reads `dim` of its producer (null when the producer has no such dim).
  const IndexAtom* atomAlong(const Edge& e, const std::string& dim) const {
    const std::vector<std::string>& pd = cx_.graph.node(e.producer).domain;
    const size_t k = static_cast<size_t>(std::find(pd.begin(), pd.end(), dim) - pd.begin());
    return k < e.index.size() ? &e.index[k] : nullptr;
  }

  std::vector<std::string> vars(const Edge& e, const std::string& dim) const {
    std::vector<std::string> v = cx_.graph.node(e.consumer).domain;
    v.push_back(primed(dim));
    return v;
  }

  /// `dim_src REL dim` over the consumer's points (the same for every
  /// consumer of one domain: built once per domain, dimension and relation).
  const PointSet& compare(const Edge& e, const std::string& dim, Constraint::Rel rel) {
    auto key = std::make_tuple(cx_.graph.node(e.consumer).domain, dim, static_cast<int>(rel));
    auto it = comparisons_.find(key);
    if (it == comparisons_.end())
      it = comparisons_.emplace(key, PointSet::fromConstraints(cx_.isl, vars(e, dim), cx_.params(),
                                                               {{IndexExpr::dim(primed(dim)), rel, IndexExpr::dim(dim)}}))
               .first;
    return it->second;
  }

  /// {(c, dim_src) : the consumer point c reads coordinate dim_src of `dim` through e};
  /// built once per edge and dimension (both directions and every piece of the cycle ask again).
  const PointSet& relationAlong(const Edge& e, const std::string& dim) {
    auto key = std::make_pair(e.id, dim);
    auto it = relations_.find(key);
    if (it == relations_.end()) it = relations_.emplace(key, buildRelationAlong(e, dim)).first;
    return it->second;
  }

  PointSet buildRelationAlong(const Edge& e, const std::string& dim) {
    const Graph& g = cx_.graph;
    std::vector<Constraint> cs;
    for (const std::string& d : g.node(e.consumer).domain) {
      cs.push_back({IndexExpr::dim(d), Constraint::Rel::Ge, 0});
      cs.push_back({IndexExpr::dim(d), Constraint::Rel::Lt, IndexExpr::bound(cx_.scope.boundOf(d))});
    }
    IndexExpr src = IndexExpr::dim(primed(dim));
    if (const IndexAtom* atom = atomAlong(e, dim)) {
      const IndexAtom& a = *atom;
      if (a.isSlice()) {
        cs.push_back({src, Constraint::Rel::Ge, a.start});
        cs.push_back({src, Constraint::Rel::Lt, *a.stop});
      } else {
        cs.push_back({src, Constraint::Rel::Eq, a.start});
      }
    }
    std::vector<std::string> v = vars(e, dim);
    PointSet r = PointSet::fromConstraints(cx_.isl, v, cx_.params(), cs);
    Condition region = e.condition;
    if (auto it = cx_.nodeRegion.find(e.consumer); it != cx_.nodeRegion.end()) region = region && it->second;
    return r.intersect(region.toPointSet(cx_.isl, v, cx_.params()));
  }

  LoweringContext& cx_;
  std::map<std::pair<EdgeId, std::string>, PointSet> relations_;
  std::map<std::pair<EdgeId, std::string>, bool> readsAnything_;  ///< relationAlong is not empty
  std::map<std::tuple<std::vector<std::string>, std::string, int>, PointSet> comparisons_;
};

}  // namespace

void checkDomains(LoweringContext& cx) {
  checkCoverage(cx);
  if (cx.diags.hasErrors()) return;  // cycles through broken tensors would only repeat errors
  for (auto& comp : stronglyConnectedComponents(cx.graph)) {
    if (!isCyclic(cx.graph, comp)) continue;
    std::set<NodeId> members(comp.begin(), comp.end());
    std::vector<EdgeId> edges;
    for (const auto& [id, e] : cx.graph.edges())
      if (members.count(e.consumer) && members.count(e.producer)) edges.push_back(id);
    LayeredRecurrenceCheck(cx).run(comp, edges);
  }
}

}  // namespace tempo
