#include "passes/Fusion.h"

#include "ops/FusedProgram.h"
#include "passes/GraphRewrite.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace tempo {

std::string Fusion::description() const {
  return "Elementwise ops (neg, exp, add with broadcasting, where, cast, ...) each write a whole tensor that the "
         "next op reads straight back. This pass groups chains of them over the same domain, where each op "
         "reads the previous one at its own point and nothing outside the chain reads the intermediates, into "
         "one `fused` node that carries the chain as a small expression program, printed in full: "
         "fused[(in0 - in1) / sqrt(in2 + 1e-05) * in3]. Scalar constants become literals of the program. The "
         "runtime evaluates a fused node in one pass over its output, a few hundred elements at a time, so the "
         "intermediates never reach memory; the numbers are the same as before.";
}

namespace {

/// A scalar constant read at a point (a window of one, `c[0:T]`, is a vector of it: an input).
bool isScalarConstant(const Graph& g, const Edge& e) {
  const Node& p = g.node(e.producer);
  return p.op == OpKind::Constant && p.type.shape.empty() && e.condition.isAlways() && g.readType(e).shape.empty();
}

bool isOneElement(const TensorType& t) {
  return std::all_of(t.shape.begin(), t.shape.end(),
                     [](const IndexExpr& d) { return d.constantValue() == std::optional<int64_t>(1); });
}

/// A node `p` may join a group rooted at `root` when it is elementwise, over the same domain, not an
/// output, read only by group members at their own point, and either of the root's shape or a single
/// element: the fused kernel evaluates every step once per output element, so a step of a smaller
/// but not scalar shape ([rows, 1] under a [rows, cols] root) would be recomputed cols times.
bool canJoin(const Graph& g, const Node& p, const Node& root, const std::set<NodeId>& members) {
  if (!isFusable(p.op) || p.domain != root.domain || isOutput(g, p.id)) return false;
  if (p.type.shape != root.type.shape && !isOneElement(p.type)) return false;
  auto users = g.users(p.id);
  if (users.empty()) return false;
  return std::all_of(users.begin(), users.end(), [&](const Edge* e) {
    return members.count(e->consumer) && e->condition.isAlways() && e->isIdentityRead(p.domain);
  });
}

/// The group rooted at `root`: producers pulled in while they can join.
std::set<NodeId> growGroup(const Graph& g, NodeId root, const std::set<NodeId>& taken) {
  std::set<NodeId> members = {root};
  for (bool grew = true; grew;) {
    grew = false;
    for (NodeId m : std::vector<NodeId>(members.begin(), members.end()))
      for (const Edge* e : g.inputs(m)) {
        NodeId p = e->producer;
        if (members.count(p) || taken.count(p) || !canJoin(g, g.node(p), g.node(root), members)) continue;
        members.insert(p);
        grew = true;
      }
  }
  // A member reading the root (a cycle through the group) cannot be fused into one node.
  for (NodeId m : members)
    for (const Edge* e : g.inputs(m))
      if (e->producer == root) return {root};
  return members;
}

/// Members producers-first (a topological order of the group's internal edges).
std::vector<NodeId> producersFirst(const Graph& g, const std::set<NodeId>& members) {
  std::vector<NodeId> order;
  std::set<NodeId> placed;
  while (order.size() < members.size())
    for (NodeId m : members) {
      if (placed.count(m)) continue;
      auto ins = g.inputs(m);
      bool ready = std::all_of(ins.begin(), ins.end(), [&](const Edge* e) {
        return !members.count(e->producer) || placed.count(e->producer);
      });
      if (!ready) continue;
      order.push_back(m);
      placed.insert(m);
    }
  return order;
}

/// The fused node for a group, with its input reads (not yet in the graph).
struct FusedGroup {
  Node node;
  std::vector<Edge> inputs;
  std::set<NodeId> foldedConstants;
};

FusedGroup buildGroup(const Graph& g, NodeId root, const std::set<NodeId>& members) {
  FusedGroup out;
  std::map<NodeId, int> stepOf;
  std::map<std::string, int> inputOf;  // a read's text -> input slot
  for (NodeId id : producersFirst(g, members)) {
    const Node& n = g.node(id);
    FusedStep step{n.op, {}, n.type.dtype};
    for (const Edge* e : g.inputs(id)) {
      if (members.count(e->producer)) {
        step.operands.push_back({FusedOperand::Kind::Step, stepOf.at(e->producer), 0, DType::F32});
      } else if (isScalarConstant(g, *e)) {
        const Node& c = g.node(e->producer);
        step.operands.push_back({FusedOperand::Kind::Literal, 0, c.attrs.value, c.type.dtype});
        out.foldedConstants.insert(c.id);
      } else {
        auto [it, fresh] = inputOf.emplace(e->str(), static_cast<int>(out.inputs.size()));
        if (fresh) {
          Edge read = *e;
          read.inputIndex = it->second;
          out.inputs.push_back(read);
        }
        step.operands.push_back({FusedOperand::Kind::Input, it->second, 0, DType::F32});
      }
    }
    stepOf[id] = static_cast<int>(out.node.attrs.program.size());
    out.node.attrs.program.push_back(step);
  }
  const Node& r = g.node(root);
  out.node.op = OpKind::Fused;
  out.node.attrs.fusedFrom.assign(members.begin(), members.end());
  out.node.domain = r.domain;
  out.node.type = r.type;
  out.node.loc = r.loc;
  out.node.name = r.name;
  return out;
}

/// Fusable nodes, every one after the fusable nodes that read it (consumers first), so that a
/// group is started at the end of its chain. Only reads between fusable nodes order them; such
/// reads cannot form a cycle in a valid graph (a cycle would have to pass through a merge).
std::vector<NodeId> consumersFirst(const Graph& g) {
  std::map<NodeId, int> pendingReaders;
  for (const auto& [id, n] : g.nodes()) {
    if (!isFusable(n.op)) continue;
    int readers = 0;
    for (const Edge* e : g.users(id)) readers += isFusable(g.node(e->consumer).op) && e->consumer != id;
    pendingReaders[id] = readers;
  }
  std::vector<NodeId> order, ready;
  for (const auto& [id, count] : pendingReaders)
    if (count == 0) ready.push_back(id);
  while (!ready.empty()) {
    NodeId id = ready.back();
    ready.pop_back();
    order.push_back(id);
    for (const Edge* e : g.inputs(id)) {
      auto it = pendingReaders.find(e->producer);
      if (it != pendingReaders.end() && e->producer != id && --it->second == 0) ready.push_back(e->producer);
    }
  }
  return order;
}

std::string idList(const std::set<NodeId>& ids) {
  std::string s;
  for (NodeId id : ids) s += (s.empty() ? "%" : ", %") + std::to_string(id);
  return s;
}

}  // namespace

void Fusion::run(Graph& graph, PassContext& context) {
  std::set<NodeId> taken;
  for (NodeId root : consumersFirst(graph)) {
      if (taken.count(root)) continue;
      std::set<NodeId> members = growGroup(graph, root, taken);
      if (members.size() < 2) continue;
      FusedGroup group = buildGroup(graph, root, members);
      if (group.inputs.empty()) continue;  // only constants: constant folding's job
      taken.insert(members.begin(), members.end());
      NodeId fused = graph.addNode(group.node);
      for (Edge read : group.inputs) {
        read.id = -1;
        read.consumer = fused;
        graph.addEdge(read);
      }
      for (const Edge* e : graph.users(root)) context.change.rewritten.insert(e->consumer);
      redirectUsers(graph, root, fused);
      for (NodeId m : members) {
        graph.removeNode(m);
        context.change.removed.insert(m);
        context.change.rewritten.erase(m);
      }
      for (NodeId k : group.foldedConstants)
        if (graph.users(k).empty() && !isOutput(graph, k)) {
          graph.removeNode(k);
          context.change.removed.insert(k);
          context.change.rewritten.erase(k);
        }
      context.change.added.insert(fused);
      context.change.notes.push_back("%" + std::to_string(fused) + ": fused " + idList(members) + " into " +
                                     fusedExpression(group.node.attrs.program));
    }
}

}  // namespace tempo
