#include "passes/PointSpecialisation.h"

#include "passes/ConditionSimplifier.h"
#include "passes/GraphRewrite.h"

#include <algorithm>
#include <map>
#include <optional>

namespace tempo {

namespace {

/// The coordinates an edge's condition pins: `t == 0` in its only disjunct reads t at 0.
std::map<std::string, IndexExpr> pinnedBy(const Condition& c) {
  std::map<std::string, IndexExpr> pins;
  if (c.disjuncts().size() != 1) return pins;
  for (const Constraint& k : c.disjuncts().front()) {
    if (k.rel != Constraint::Rel::Eq) continue;
    for (const auto& [var, value] : {std::pair{k.lhs, k.rhs}, std::pair{k.rhs, k.lhs}})
      if (auto s = var.asSymbol(); s && s->kind == SymbolKind::Dim && !value.dependsOnKind(SymbolKind::Dim))
        pins.emplace(s->name, value);
  }
  return pins;
}

/// The coordinate at which every reader of `id` reads position `pos` of its domain (under its
/// edge's guard), when they all read it at the same one and it lies inside the domain whatever
/// the bounds (0, or the dimension's bound minus one); nullopt otherwise.
std::optional<IndexExpr> fixedCoordinate(const Graph& g, NodeId id, size_t pos, const std::string& dim) {
  std::optional<IndexExpr> at;
  const IndexExpr last = IndexExpr::bound(g.boundOf(dim)) - IndexExpr(1);
  for (const Edge* e : g.users(id)) {
    const IndexAtom& a = e->index.at(pos);
    if (a.isSlice() || a.isBlock()) return std::nullopt;
    // A read guarded by `t == 0` (a merge's first-step branch) reads at t = 0.
    const IndexExpr c = a.start.substitute(pinnedBy(e->condition));
    if (c.dependsOnKind(SymbolKind::Dim) || (!(c == IndexExpr(0)) && !(c == last))) return std::nullopt;
    if (at && !(*at == c)) return std::nullopt;
    at = c;
  }
  return at;
}

void substituteAll(std::vector<IndexExpr>& exprs, const std::map<std::string, IndexExpr>& at) {
  for (IndexExpr& e : exprs) e = e.substitute(at);
}

/// Node `id` computed at `dim` = `c` only: the coordinate goes into everything the node says
/// about itself, the dimension out of its domain and its readers' index.
void specialise(Graph& graph, NodeId id, size_t pos, const IndexExpr& c) {
  const std::map<std::string, IndexExpr> at{{graph.node(id).domain[pos], c}};
  for (const Edge* in : graph.inputs(id)) {
    Edge& e = graph.edge(in->id);
    for (IndexAtom& a : e.index) {
      a.start = a.start.substitute(at);
      if (a.stop) a.stop = a.stop->substitute(at);
      if (a.block) a.block->first = a.block->first.substitute(at);
    }
    e.condition = e.condition.substitute(at);
  }
  Node& n = graph.node(id);
  substituteAll(n.type.shape, at);
  if (n.attrs.index) n.attrs.index = n.attrs.index->substitute(at);
  n.attrs.start = n.attrs.start.substitute(at);
  n.attrs.stop = n.attrs.stop.substitute(at);
  substituteAll(n.attrs.shape, at);
  n.domain.erase(n.domain.begin() + static_cast<long>(pos));
  for (const Edge* e : graph.users(id)) {
    Edge& reader = graph.edge(e->id);
    reader.index.erase(reader.index.begin() + static_cast<long>(pos));
  }
}

/// A merge's branches that can no longer be taken over its domain go; the others' conditions
/// take their shortest form. Returns how many went.
int dropBranchesNeverTaken(Graph& graph, NodeId id, IslContext& ctx) {
  ConditionSimplifier simplifier(ctx, graph, graph.node(id).domain);
  std::vector<std::pair<EdgeId, Condition>> branches;
  bool someTaken = false;
  for (const Edge* in : graph.inputs(id)) {
    branches.emplace_back(in->id, simplifier.simplify(in->condition));
    someTaken = someTaken || !branches.back().second.isNever();
  }
  if (!someTaken) return 0;  // undefined there: its readers say so when they run
  int removed = 0;
  for (auto& [edge, condition] : branches) {
    if (condition.isNever()) {
      graph.removeEdge(edge);
      ++removed;
    } else {
      graph.edge(edge).condition = std::move(condition);
    }
  }
  if (removed) compactInputSlots(graph, id);
  return removed;
}

}  // namespace

void specialiseFixedPointReads(Graph& graph, PassContext& context) {
  IslContext ctx;
  for (bool progress = true; progress;) {
    progress = false;
    auto components = componentsWithinAnIteration(graph);
    for (auto it = components.rbegin(); it != components.rend(); ++it) {
      if (it->size() != 1) continue;  // a recurrence's member: its value at c needs the others'
      const NodeId id = it->front();
      const Node& n = graph.node(id);
      // A source's domain indexes its array, but an eval_index is its index itself.
      if ((opClass(n.op) == OpClass::Source && n.op != OpKind::EvalIndex) || n.op == OpKind::Fused || isOutput(graph, id) ||
          graph.users(id).empty())
        continue;
      bool selfRead = false;
      for (const Edge* e : graph.inputs(id)) selfRead = selfRead || e->producer == id;
      if (selfRead) continue;
      std::string points;
      for (size_t pos = n.domain.size(); pos-- > 0;) {
        const std::string dim = graph.node(id).domain[pos];
        std::optional<IndexExpr> c = fixedCoordinate(graph, id, pos, dim);
        if (!c) continue;
        specialise(graph, id, pos, *c);
        points = dim + " = " + c->str() + (points.empty() ? "" : ", " + points);
      }
      if (points.empty()) continue;
      progress = true;
      context.change.rewritten.insert(id);
      for (const Edge* e : graph.users(id)) context.change.rewritten.insert(e->consumer);
      std::string note = shortLabel(graph.node(id)) + ": computed at " + points + " only";
      if (graph.node(id).op == OpKind::Merge)
        if (int removed = dropBranchesNeverTaken(graph, id, ctx)) {
          note += ", " + std::to_string(removed) + " branch" + (removed > 1 ? "es" : "") + " never taken removed";
          // One branch left, always taken: its readers read the branch itself.
          if (const Edge* only = soleUnconditionalInput(graph, graph.node(id))) {
            const Edge forwarded = *only;
            if (forwardReaders(graph, id, forwarded, context.change)) note += ", its readers read the branch";
          }
        }
      context.change.notes.push_back(note);
    }
  }
}

}  // namespace tempo
