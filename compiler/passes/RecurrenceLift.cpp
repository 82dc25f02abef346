#include "passes/RecurrenceLift.h"

#include "passes/ConditionSimplifier.h"
#include "passes/GraphRewrite.h"

namespace tempo {

namespace {

/// The pieces of `acc = merge(x[first] if d == first, add(acc[d -+ 1], x[d]))`.
struct RunningSum {
  NodeId merge = -1, add = -1, addend = -1;
  size_t position = 0;      ///< where the recurrence dimension sits in the domain
  IndexExpr first, last;    ///< 0 and T - 1 (prefix) or T - 1 and 0 (suffix)
  EdgeId selfRead = -1;     ///< the add's read of acc
  SourceRange addendLoc;
};

/// True when `atoms` reads every dimension of `domain` at itself, except `position`, read at `at`.
bool identityExcept(const std::vector<IndexAtom>& atoms, const std::vector<std::string>& domain, size_t position,
                    const IndexExpr& at) {
  if (atoms.size() != domain.size()) return false;
  for (size_t i = 0; i < domain.size(); ++i) {
    IndexExpr want = i == position ? at : IndexExpr::dim(domain[i]);
    if (atoms[i].isSlice() || atoms[i].start != want) return false;
  }
  return true;
}

/// The position and direction (-1: reads the past) of the single shifted dimension of a self read.
std::optional<std::pair<size_t, int>> shiftedDimension(const Edge& self, const std::vector<std::string>& domain) {
  for (size_t i = 0; i < domain.size(); ++i)
    for (int step : {-1, 1})
      if (identityExcept(self.index, domain, i, IndexExpr::dim(domain[i]) + IndexExpr(step)))
        return std::make_pair(i, step);
  return std::nullopt;
}

/// True when `base` holds exactly where `d == first` over the merge's domain and the two
/// branches together cover the whole domain (so the step branch holds everywhere else).
bool branchesSplitAtFirst(const Graph& g, const Node& merge, const std::string& d, const IndexExpr& first,
                          const Condition& base, const Condition& step) {
  IslContext ctx;
  ConditionSimplifier simplifier(ctx, g, merge.domain);
  Condition atFirst = Condition::of({Constraint{IndexExpr::dim(d), Constraint::Rel::Eq, first}});
  bool sameSet = simplifier.simplify((base && !atFirst) || (!base && atFirst)).isNever();
  return sameSet && simplifier.simplify(!base && !step).isNever();
}

std::optional<RunningSum> matchRunningSum(const Graph& g, const Node& m) {
  auto branches = g.inputs(m.id);
  if (m.op != OpKind::Merge || branches.size() != 2 || isOutput(g, m.id)) return std::nullopt;
  const Edge& baseEdge = *branches[0];
  const Edge& stepEdge = *branches[1];
  const Node& add = g.node(stepEdge.producer);
  if (add.op != OpKind::Add || add.id == m.id || add.domain != m.domain || !(add.type == m.type) ||
      !stepEdge.isIdentityRead(add.domain) || g.users(add.id).size() != 1 || isOutput(g, add.id))
    return std::nullopt;
  auto operands = g.inputs(add.id);
  if (operands.size() != 2) return std::nullopt;
  for (int selfSlot : {0, 1}) {
    const Edge& self = *operands[selfSlot];
    const Edge& addend = *operands[1 - selfSlot];
    if (self.producer != m.id || addend.producer == m.id || !self.condition.isAlways() ||
        !addend.condition.isAlways())
      continue;
    const Node& x = g.node(addend.producer);
    auto shifted = shiftedDimension(self, m.domain);
    if (!shifted || x.domain != m.domain || !addend.isIdentityRead(x.domain) || !(g.readType(addend) == m.type))
      continue;
    auto [position, step] = *shifted;
    const std::string& d = m.domain[position];
    if (stepwiseOrder(g, x.id, d)) continue;  // no parallel reduction to gain; x would need a whole store
    IndexExpr lastIndex = IndexExpr::bound(g.boundOf(d)) - IndexExpr(1);
    RunningSum r{m.id, add.id, x.id, position, step < 0 ? IndexExpr(0) : lastIndex,
                 step < 0 ? lastIndex : IndexExpr(0), self.id, addend.loc};
    if (baseEdge.producer != x.id || !identityExcept(baseEdge.index, m.domain, position, r.first) ||
        !branchesSplitAtFirst(g, m, d, r.first, baseEdge.condition, stepEdge.condition))
      continue;
    // Every other reader reads acc only at its last element.
    bool onlyLast = true;
    for (const Edge* reader : g.users(m.id))
      if (reader->id != self.id) onlyLast &= !reader->index[position].isSlice() && reader->index[position].start == r.last;
    if (onlyLast) return r;
  }
  return std::nullopt;
}

}  // namespace

bool liftRunningSum(Graph& graph, NodeId id, GraphChange& change) {
  std::optional<RunningSum> r = matchRunningSum(graph, graph.node(id));
  if (!r) return false;
  const Node& m = graph.node(r->merge);
  const std::string d = m.domain[r->position];
  Node total;
  total.op = OpKind::ReduceSum;
  total.attrs.axes = {0};
  total.domain = m.domain;
  total.domain.erase(total.domain.begin() + static_cast<long>(r->position));
  total.type = m.type;
  total.loc = m.loc;
  total.name = m.name;
  NodeId totalId = graph.addNode(total);
  Edge window;
  window.consumer = totalId;
  window.producer = r->addend;
  for (const std::string& dim : m.domain)
    window.index.push_back(dim == d ? IndexAtom::slice(IndexExpr(0), IndexExpr::bound(graph.boundOf(d)))
                                    : IndexAtom::point(IndexExpr::dim(dim)));
  window.loc = r->addendLoc;
  graph.addEdge(window);
  for (const Edge* reader : graph.users(r->merge)) {
    if (reader->id == r->selfRead) continue;
    Edge& e = graph.edge(reader->id);
    e.producer = totalId;
    e.index.erase(e.index.begin() + static_cast<long>(r->position));
    change.rewritten.insert(e.consumer);
  }
  graph.removeNode(r->merge);
  graph.removeNode(r->add);
  for (NodeId gone : {r->merge, r->add}) recordRemoval(change, gone);
  change.added.insert(totalId);
  return true;
}

}  // namespace tempo
