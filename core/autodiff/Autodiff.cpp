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

BackwardGraph::BackwardGraph(Graph& g, NodeId loss, AutodiffOptions options)
    : g_(g), loss_(loss), options_(std::move(options)), ctx_(std::make_unique<IslContext>()) {
  checkRequest(g_, loss_, {});
  restart();
}

BackwardGraph::~BackwardGraph() = default;

void BackwardGraph::restart() {
  acc_.clear();
  built_.clear();
  // Only readers that exist now count for liveness: the backward nodes made
  // from here on (and anything lowered later) are no forward readers.
  NodeId firstNew = g_.nodes().empty() ? 0 : g_.nodes().rbegin()->first + 1;
  guards_ = std::make_unique<ValidityGuards>(g_, *ctx_, firstNew);
}

std::vector<NodeId> BackwardGraph::gradients(const std::vector<NodeId>& targets) {
  checkRequest(g_, loss_, targets);
  requested_.insert(targets.begin(), targets.end());
  std::set<NodeId> path = pathNodes(g_, loss_, {requested_.begin(), requested_.end()}, options_);
  // Every edge into a node that already has its accumulator must have been
  // built; otherwise the graph changed under it: start a fresh backward graph.
  bool stale = false;
  for (NodeId cid : path) {
    if (options_.stopGradient.count(cid)) continue;
    for (const Edge* e : g_.inputs(cid))
      stale = stale || (acc_.count(e->producer) && path.count(e->producer) && !built_.count(e->id));
  }
  if (stale) restart();
  extend(path);

  std::vector<NodeId> result;
  for (NodeId t : targets) {
    if (auto it = acc_.find(t); it != acc_.end()) {
      result.push_back(it->second);
    } else if (auto z = zeroGradient_.find(t); z != zeroGradient_.end()) {
      result.push_back(z->second);
    } else {  // the loss does not depend on t
      const Node& node = g_.node(t);
      AdjointBuilder b(g_, node.domain, node.loc);
      result.push_back(zeroGradient_[t] = b.typed(OpKind::Identity, node.type, {AdjointInput::at(b.zeros(node.type))}));
    }
  }
  return result;
}

void BackwardGraph::extend(const std::set<NodeId>& path) {
  std::set<NodeId> fresh;
  for (NodeId n : path)
    if (!acc_.count(n)) fresh.insert(n);
  if (fresh.empty()) return;
  for (NodeId n : path) guards_->of(n);  // memoised before any new backward node exists

  // One accumulator per new node on the path, filled once every contribution exists.
  std::map<NodeId, std::vector<NodeId>> contributions;
  for (NodeId n : fresh) {
    const Node& node = g_.node(n);
    acc_[n] = AdjointBuilder(g_, node.domain, node.loc).typed(OpKind::Identity, node.type, {});
  }
  if (fresh.count(loss_)) {
    const Node& l = g_.node(loss_);
    contributions[loss_].push_back(AdjointBuilder(g_, l.domain, l.loc).constant(l.type, 1.0));
  }

  for (NodeId cid : path) {
    if (options_.stopGradient.count(cid)) continue;
    const Node& c = g_.node(cid);
    std::vector<const Edge*> inputs = g_.inputs(cid);
    AdjointBuilder cb(g_, c.domain, c.loc);
    for (const Edge* e : inputs) {
      if (!fresh.count(e->producer)) continue;
      built_.insert(e->id);
      std::optional<NodeId> readGrad;
      Condition guard = Condition::always();
      if (c.op == OpKind::Merge) {
        readGrad = cb.guarded(acc_.at(cid), effectiveCondition(g_, *e));
      } else {
        readGrad = inputGradient(cb, c, inputs, e->inputIndex, acc_.at(cid));
        guard = guards_->of(cid);
      }
      if (!readGrad) continue;
      contributions[e->producer].push_back(temporalReadAdjoint(g_, *ctx_, *e, *readGrad, guard));
    }
  }

  for (NodeId n : fresh) {
    const Node& node = g_.node(n);
    AdjointBuilder b(g_, node.domain, node.loc);
    const std::vector<NodeId>& parts = contributions[n];
    NodeId sum = parts.empty() ? b.zeros(node.type) : parts[0];
    for (size_t i = 1; i < parts.size(); ++i) sum = b.binary(OpKind::Add, sum, parts[i]);
    b.connect(acc_[n], 0, AdjointInput::at(sum));
  }
}

std::vector<NodeId> addGradients(Graph& g, NodeId loss, const std::vector<NodeId>& targets,
                                 const AutodiffOptions& options) {
  return BackwardGraph(g, loss, options).gradients(targets);
}

}  // namespace tempo
