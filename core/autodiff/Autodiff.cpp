#include "autodiff/Autodiff.h"

#include "autodiff/GradientRules.h"
#include "autodiff/TemporalReadAdjoint.h"
#include "autodiff/ValidityGuards.h"
#include "graph/MergeBranches.h"

#include <map>

namespace tempo {

namespace {

std::string label(const Graph& g, NodeId n) {
  std::string s = "%" + std::to_string(n);
  if (g.hasNode(n) && !g.node(n).name.empty()) s += " '" + g.node(n).name + "'";
  return s;
}

/// The nodes on a differentiable path from a target to the loss.
std::set<NodeId> pathNodes(const Graph& g, NodeId loss, const std::vector<NodeId>& targets,
                           const AutodiffOptions& options) {
  auto flows = [&](const Edge& e) {
    return !options.stopGradient.count(e.consumer) && isDifferentiableType(g.node(e.producer).type) &&
           isDifferentiableType(g.node(e.consumer).type);
  };
  std::set<NodeId> forward(targets.begin(), targets.end());
  std::vector<NodeId> work(targets.begin(), targets.end());
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    for (const Edge* e : g.users(n))
      if (flows(*e) && forward.insert(e->consumer).second) work.push_back(e->consumer);
  }
  std::set<NodeId> backward{loss};
  work = {loss};
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    for (const Edge* e : g.inputs(n))
      if (flows(*e) && backward.insert(e->producer).second) work.push_back(e->producer);
  }
  std::set<NodeId> both;
  for (NodeId n : forward)
    if (backward.count(n)) both.insert(n);
  return both;
}

void checkRequest(const Graph& g, NodeId loss, const std::vector<NodeId>& targets) {
  if (!g.hasNode(loss)) throw AutodiffError("autodiff: no loss node " + label(g, loss));
  const TensorType& lt = g.node(loss).type;
  if (!lt.isScalar() || !isDifferentiableType(lt))
    throw AutodiffError("autodiff: the loss " + label(g, loss) + " must be a float scalar, not " + lt.str());
  for (NodeId t : targets) {
    if (!g.hasNode(t)) throw AutodiffError("autodiff: no target node " + label(g, t));
    if (!isDifferentiableType(g.node(t).type))
      throw AutodiffError("autodiff: cannot differentiate with respect to " + label(g, t) + " of type " +
                          g.node(t).type.str() + " (not a float tensor)");
  }
}

}  // namespace

std::vector<NodeId> addGradients(Graph& g, NodeId loss, const std::vector<NodeId>& targets,
                                 const AutodiffOptions& options) {
  checkRequest(g, loss, targets);
  IslContext ctx;
  ValidityGuards guards(g, ctx);
  std::set<NodeId> path = pathNodes(g, loss, targets, options);
  for (NodeId n : path) guards.of(n);  // memoised before any backward node exists

  // One accumulator per node on the path, filled once every contribution exists.
  std::map<NodeId, NodeId> acc;
  std::map<NodeId, std::vector<NodeId>> contributions;
  for (NodeId n : path) {
    const Node& node = g.node(n);
    acc[n] = AdjointBuilder(g, node.domain, node.loc).typed(OpKind::Identity, node.type, {});
  }
  if (path.count(loss)) {
    const Node& l = g.node(loss);
    contributions[loss].push_back(AdjointBuilder(g, l.domain, l.loc).constant(l.type, 1.0));
  }

  for (NodeId cid : path) {
    if (options.stopGradient.count(cid)) continue;
    const Node& c = g.node(cid);
    std::vector<const Edge*> inputs = g.inputs(cid);
    AdjointBuilder cb(g, c.domain, c.loc);
    for (const Edge* e : inputs) {
      if (!path.count(e->producer)) continue;
      std::optional<NodeId> readGrad;
      Condition guard = Condition::always();
      if (c.op == OpKind::Merge) {
        readGrad = cb.guarded(acc.at(cid), effectiveCondition(g, *e));
      } else {
        readGrad = inputGradient(cb, c, inputs, e->inputIndex, acc.at(cid));
        guard = guards.of(cid);
      }
      if (!readGrad) continue;
      contributions[e->producer].push_back(temporalReadAdjoint(g, ctx, *e, *readGrad, guard));
    }
  }

  for (NodeId n : path) {
    const Node& node = g.node(n);
    AdjointBuilder b(g, node.domain, node.loc);
    const std::vector<NodeId>& parts = contributions[n];
    NodeId sum = parts.empty() ? b.zeros(node.type) : parts[0];
    for (size_t i = 1; i < parts.size(); ++i) sum = b.binary(OpKind::Add, sum, parts[i]);
    b.connect(acc[n], 0, AdjointInput::at(sum));
  }

  std::vector<NodeId> result;
  for (NodeId t : targets) {
    if (path.count(t)) {
      result.push_back(acc[t]);
    } else {  // the loss does not depend on t
      const Node& node = g.node(t);
      AdjointBuilder b(g, node.domain, node.loc);
      result.push_back(b.typed(OpKind::Identity, node.type, {AdjointInput::at(b.zeros(node.type))}));
    }
  }
  return result;
}

}  // namespace tempo
