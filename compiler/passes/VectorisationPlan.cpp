#include "passes/VectorisationPlan.h"

#include "passes/GraphRewrite.h"

#include <algorithm>

namespace tempo {

int domainPosition(const std::vector<std::string>& domain, const std::string& dim) {
  auto it = std::find(domain.begin(), domain.end(), dim);
  return it == domain.end() ? -1 : static_cast<int>(it - domain.begin());
}

namespace {

bool atomMentions(const IndexAtom& a, const std::string& dim) {
  return a.start.dependsOn(dim) || (a.stop && a.stop->dependsOn(dim));
}

bool conditionMentions(const Condition& c, const std::string& dim) {
  for (const Symbol& s : c.symbols())
    if (s.name == dim) return true;
  return false;
}

std::string nodeRef(const Node& n) { return "%" + std::to_string(n.id) + (n.name.empty() ? "" : " " + n.name); }

/// Why `n` cannot batch `dim` by itself (its own type, attributes and reads), or "".
std::string localRefusal(const Graph& g, const Node& n, const std::string& dim) {
  if (opClass(n.op) == OpClass::Source) return "a source keeps its domain (its array is indexed by it)";
  if (n.op == OpKind::Gather || n.op == OpKind::ScatterAdd)
    return "a gather or scatter-add keeps its domain (its ids pick whole slices: no batched form yet)";
  for (const IndexExpr& s : n.type.shape)
    if (s.dependsOn(dim)) return "its shape " + n.type.shapeStr() + " depends on " + dim;
  const OpAttrs& a = n.attrs;
  bool attrMentions = a.start.dependsOn(dim) || a.stop.dependsOn(dim) ||
                      std::any_of(a.shape.begin(), a.shape.end(), [&](const IndexExpr& s) { return s.dependsOn(dim); });
  if (attrMentions) return "its attributes depend on " + dim;
  for (const Edge* e : g.inputs(n.id)) {
    if (conditionMentions(e->condition, dim)) return "its read " + e->str() + " has a condition on " + dim;
    const Node& p = g.node(e->producer);
    int position = domainPosition(p.domain, dim);
    for (const IndexExpr& s : p.type.shape)
      if (position >= 0 && s.dependsOn(dim))
        return "it reads " + e->str() + ", whose shape " + p.type.shapeStr() + " depends on " + dim;
    for (size_t i = 0; i < e->index.size(); ++i) {
      const IndexAtom& atom = e->index[i];
      bool identity = !atom.isSlice() && atom.start == IndexExpr::dim(dim);
      if (p.domain[i] == dim ? !identity : atomMentions(atom, dim))
        return "it reads " + e->str() + ", not at " + dim + " itself";
    }
  }
  return "";
}

/// True when an unvectorised reader `e` can select its point of `dim` from a
/// batched value at every bound value: at `dim` itself, at 0 or at the last
/// position, or the whole window 0:bound.
bool selectableRead(const Graph& g, const Edge& e, int position, const std::string& dim) {
  const IndexAtom& atom = e.index[position];
  IndexExpr bound = IndexExpr::bound(g.boundOf(dim));
  if (atom.isSlice()) return atom.start == IndexExpr(0) && *atom.stop == bound;
  bool ownPoint = atom.start == IndexExpr::dim(dim) && domainPosition(g.node(e.consumer).domain, dim) >= 0;
  return ownPoint || atom.start == IndexExpr(0) || atom.start == bound - 1;
}

/// Nodes whose value may be defined at some points of `dim` and undefined at
/// others with the other coordinates fixed (a branch reading `x[b - 1]` is
/// undefined at b = 0). Greatest fixpoint: a node is uniform unless a condition
/// or a read moves along `dim`, or it reads a non-uniform producer at `dim`.
std::set<NodeId> nonUniformAlong(const Graph& g, const std::string& dim) {
  std::set<NodeId> out;
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [id, n] : g.nodes()) {
      if (out.count(id) || domainPosition(n.domain, dim) < 0) continue;
      bool uniform = true;
      for (const Edge* e : g.inputs(id)) {
        if (conditionMentions(e->condition, dim)) uniform = false;
        const Node& p = g.node(e->producer);
        for (size_t i = 0; i < e->index.size() && uniform; ++i) {
          const IndexAtom& atom = e->index[i];
          if (!atomMentions(atom, dim)) continue;
          bool identity = p.domain[i] == dim && !atom.isSlice() && atom.start == IndexExpr::dim(dim);
          uniform = identity && !out.count(p.id);
        }
      }
      if (!uniform) out.insert(id), changed = true;
    }
  }
  return out;
}

bool computes(OpKind op) {
  OpClass c = opClass(op);
  return c != OpClass::Movement && c != OpClass::Identity && c != OpClass::Merge;
}

/// Removes each group of planned nodes (connected by reads) in which no node
/// computes: batching pure data movement only adds copies at its borders.
void dropGroupsWithoutWork(const Graph& g, VectorisationPlan& plan) {
  std::set<NodeId> seen;
  for (NodeId start : std::set<NodeId>(plan.nodes)) {
    if (seen.count(start)) continue;
    std::set<NodeId> group;
    std::vector<NodeId> work{start};
    while (!work.empty()) {
      NodeId id = work.back();
      work.pop_back();
      if (!plan.nodes.count(id) || !group.insert(id).second) continue;
      for (const Edge* e : g.inputs(id)) work.push_back(e->producer);
      for (const Edge* e : g.users(id)) work.push_back(e->consumer);
    }
    seen.insert(group.begin(), group.end());
    if (std::any_of(group.begin(), group.end(), [&](NodeId id) { return computes(g.node(id).op); })) continue;
    for (NodeId id : group) {
      plan.nodes.erase(id);
      plan.refusals.emplace(id, "its group only moves data (nothing to batch)");
    }
  }
}

}  // namespace

VectorisationPlan planVectorisation(const Graph& g, const std::string& dim, const std::set<NodeId>& keep) {
  VectorisationPlan plan;
  plan.dim = dim;
  for (const auto& [id, n] : g.nodes()) {
    if (domainPosition(n.domain, dim) < 0) continue;
    std::string why = keep.count(id) ? "it is an adapter between batched and per-point values"
                                     : localRefusal(g, n, dim);
    if (why.empty()) plan.nodes.insert(id);
    else plan.refusals[id] = why;
  }
  auto refuse = [&](NodeId id, const std::string& why) {
    plan.nodes.erase(id);
    plan.refusals.emplace(id, why);
  };
  std::vector<std::vector<NodeId>> components = componentsProducersFirst(g);
  std::set<NodeId> nonUniform = nonUniformAlong(g, dim);
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& component : components) {
      if (component.size() < 2) continue;
      // A member without `dim` (a parameter updated once per iteration, a loss summed over
      // the batch) computes one value for every position of `dim`: it neither blocks the
      // batch nor is batched. Only a per-point member that has `dim` splits the cycle.
      auto outside = std::find_if(component.begin(), component.end(), [&](NodeId id) {
        return !plan.nodes.count(id) && domainPosition(g.node(id).domain, dim) >= 0;
      });
      if (outside == component.end()) continue;
      for (NodeId id : component) {
        if (!plan.nodes.count(id)) continue;
        refuse(id, "it is in a recurrence with " + nodeRef(g.node(*outside)) + ", which keeps " + dim);
        changed = true;
      }
    }
    for (NodeId id : std::set<NodeId>(plan.nodes)) {
      for (const Edge* e : g.inputs(id)) {
        if (plan.nodes.count(e->producer) || !nonUniform.count(e->producer)) continue;
        refuse(id, "it would read all of " + nodeRef(g.node(e->producer)) + " along " + dim +
                       ", which may be undefined at some of its points");
        changed = true;
        break;
      }
    }
    for (NodeId id : std::set<NodeId>(plan.nodes)) {
      int position = domainPosition(g.node(id).domain, dim);
      for (const Edge* e : g.users(id)) {
        if (plan.nodes.count(e->consumer) || selectableRead(g, *e, position, dim)) continue;
        refuse(id, nodeRef(g.node(e->consumer)) + " reads it at " + e->index[position].str() +
                       ", which may lie outside 0:" + g.boundOf(dim) + " for some " + g.boundOf(dim));
        changed = true;
        break;
      }
    }
  }
  dropGroupsWithoutWork(g, plan);
  return plan;
}

}  // namespace tempo
