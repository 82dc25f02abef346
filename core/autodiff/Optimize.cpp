#include "autodiff/Optimize.h"

#include "autodiff/AdjointBuilder.h"
#include "autodiff/Autodiff.h"

#include <algorithm>

namespace tempo {

namespace {

bool hasDim(const Node& n, const std::string& dim) {
  return std::find(n.domain.begin(), n.domain.end(), dim) != n.domain.end();
}

std::string quoted(const Graph& g, NodeId n) {
  const Node& node = g.node(n);
  return node.name.empty() ? "%" + std::to_string(n) : "'" + node.name + "'";
}

/// Every node the loss reads, directly or not (the loss included).
std::set<NodeId> upstreamOf(const Graph& g, NodeId loss) {
  std::set<NodeId> seen{loss};
  std::vector<NodeId> work{loss};
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    for (const Edge* e : g.inputs(n))
      if (seen.insert(e->producer).second) work.push_back(e->producer);
  }
  return seen;
}

/// The params to train: the float candidates the loss depends on.
std::vector<NodeId> trainedParams(const Graph& g, const OptimizeRequest& r) {
  std::set<NodeId> upstream = upstreamOf(g, r.loss);
  std::vector<NodeId> out;
  for (NodeId p : r.params) {
    if (!upstream.count(p) || !isDifferentiableType(g.node(p).type)) continue;
    if (hasDim(g.node(p), r.dim))
      throw OptimizeError("the param " + quoted(g, p) + " is already over '" + r.dim + "'; optimize makes the params it trains recurrent over '" + r.dim + "' itself", p);
    out.push_back(p);
  }
  if (out.empty())
    throw OptimizeError("the loss " + quoted(g, r.loss) + " does not depend on any float param: there is nothing to optimize");
  return out;
}

/// The nodes that gain the iteration dimension: the params, and every node
/// not over it that reads one of them (through such nodes).
std::set<NodeId> nodesGainingDim(const Graph& g, const std::vector<NodeId>& params, const std::string& dim) {
  std::set<NodeId> gaining(params.begin(), params.end());
  std::vector<NodeId> work(params.begin(), params.end());
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    for (const Edge* e : g.users(n))
      if (!hasDim(g.node(e->consumer), dim) && gaining.insert(e->consumer).second) work.push_back(e->consumer);
  }
  return gaining;
}

/// Adds `dim` to every node of `gaining` (in declaration order) and reads
/// those nodes at the same `dim` everywhere.
void addIterationDim(Graph& g, const std::set<NodeId>& gaining, const std::string& dim) {
  std::vector<EdgeId> edges;
  for (const auto& [id, e] : g.edges())
    if (gaining.count(e.producer)) edges.push_back(id);
  for (NodeId n : gaining) {
    std::vector<std::string>& domain = g.node(n).domain;
    auto pos = std::find_if(domain.begin(), domain.end(), [&](const std::string& d) { return g.dimIndex(d) > g.dimIndex(dim); });
    domain.insert(pos, dim);
  }
  for (EdgeId id : edges) {
    Edge& e = g.edge(id);
    const std::vector<std::string>& domain = g.node(e.producer).domain;
    size_t at = static_cast<size_t>(std::find(domain.begin(), domain.end(), dim) - domain.begin());
    e.index.insert(e.index.begin() + static_cast<std::ptrdiff_t>(at), IndexAtom::point(IndexExpr::dim(dim)));
  }
}

/// Moves param `p`'s initialiser to a new source node and makes `p` an empty
/// merge (its branches come last); returns the initialiser.
NodeId detachInitialiser(Graph& g, NodeId p) {
  Node init = g.node(p);
  init.id = -1;
  init.name += ".init";
  NodeId id = g.addNode(std::move(init));
  Node& param = g.node(p);
  param.op = OpKind::Merge;
  param.attrs = {};
  return id;
}

}  // namespace

void addOptimizer(Graph& g, const OptimizeRequest& r) {
  if (g.dimIndex(r.dim) < 0) throw OptimizeError("'" + r.dim + "' is not a dimension of this program");
  const TensorType& lossType = g.node(r.loss).type;
  if (!lossType.isScalar() || !isDifferentiableType(lossType))
    throw OptimizeError("the loss " + quoted(g, r.loss) + " must be a float scalar (f32[] or f64[]), not " + lossType.str());
  std::vector<NodeId> params = trainedParams(g, r);

  std::map<NodeId, NodeId> initialisers;
  for (NodeId p : params) initialisers[p] = detachInitialiser(g, p);
  addIterationDim(g, nodesGainingDim(g, params, r.dim), r.dim);
  if (!hasDim(g.node(r.loss), r.dim))
    throw OptimizeError("the loss " + quoted(g, r.loss) + " does not vary over '" + r.dim +
                        "': it reads the params only at fixed iterations");

  AutodiffOptions options;
  options.stopGradient = r.stopGradient;
  std::vector<NodeId> grads = addGradients(g, r.loss, params, options);

  IterationScalars scalars(g, r.dim, r.loc);
  if (r.optimizer.clipNorm) grads = addGradientClipping(scalars, grads, *r.optimizer.clipNorm);
  for (size_t k = 0; k < params.size(); ++k) {
    NodeId p = params[k];
    NodeId update = addParamUpdate(scalars, r.optimizer, p, grads[k]);
    const Node& param = g.node(p);
    AdjointBuilder b(g, param.domain, param.loc);
    std::vector<IndexAtom> previous;
    for (const std::string& d : param.domain)
      previous.push_back(IndexAtom::point(d == r.dim ? IndexExpr::dim(d) - 1 : IndexExpr::dim(d)));
    Condition first = Condition::of({{IndexExpr::dim(r.dim), Constraint::Rel::Eq, IndexExpr(0)}});
    b.connect(p, 0, AdjointInput{initialisers.at(p), {}, true, first});
    b.connect(p, 1, AdjointInput::through(update, previous));
    g.trainedParams.push_back({param.name, p, update, r.dim});
  }
}

std::string finalParamOutputName(const std::string& param) { return param + ".final"; }

std::vector<GraphOutput> addFinalParamOutputs(Graph& g) {
  std::vector<GraphOutput> outs;
  for (const TrainedParam& t : g.trainedParams) {
    const Node& update = g.node(t.update);
    std::vector<std::string> own;
    std::vector<IndexAtom> last;
    for (const std::string& d : update.domain) {
      if (d == t.dim) {
        last.push_back(IndexAtom::point(IndexExpr::bound(g.boundOf(d)) - 1));
      } else {
        own.push_back(d);
        last.push_back(IndexAtom::point(IndexExpr::dim(d)));
      }
    }
    AdjointBuilder b(g, own, update.loc);
    NodeId final = b.typed(OpKind::Identity, update.type, {AdjointInput::through(t.update, last)});
    g.node(final).name = finalParamOutputName(t.name);
    GraphOutput o{finalParamOutputName(t.name), final, update.loc};
    g.outputs.push_back(o);
    outs.push_back(o);
  }
  return outs;
}

}  // namespace tempo
