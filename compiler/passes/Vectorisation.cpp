#include "passes/Vectorisation.h"

#include "passes/BatchAdapters.h"
#include "passes/BatchedOps.h"
#include "passes/VectorisationPlan.h"

#include <algorithm>

namespace tempo {

std::string Vectorisation::description() const {
  return "In h[b, t] = tanh(x[b, t] @ W + h[b, t-1] @ U + bias) every read takes b at b itself: the sequences of "
         "the batch never exchange values, yet the graph computes one small vector-matrix product per sequence "
         "and step. This pass finds, for each dimension, the nodes whose reads, conditions, shapes and "
         "attributes never move along it (a recurrence only as a whole), removes the dimension from their "
         "domains and gives their values a leading batch axis of size B instead: h becomes f32[B, H] over (t) "
         "and each step runs one [B, H] @ [H, H] matrix product. Per-point readers and the program's outputs "
         "pick their own row out of the batch through a slice, and sources are read as whole windows 0:B.";
}

namespace {

int countSlices(const std::vector<IndexAtom>& atoms, size_t end) {
  return static_cast<int>(std::count_if(atoms.begin(), atoms.begin() + static_cast<long>(end),
                                        [](const IndexAtom& a) { return a.isSlice(); }));
}

class DimVectoriser {
public:
  DimVectoriser(Graph& g, const VectorisationPlan& plan, std::set<NodeId>& selectors, GraphChange& change)
      : g_(g), plan_(plan), d_(plan.dim), batch_(IndexExpr::bound(g.boundOf(plan.dim))), selectors_(selectors),
        change_(change) {}

  void run() {
    std::map<NodeId, TensorType> unbatched;
    for (NodeId id : plan_.nodes) unbatched[id] = g_.node(id).type;
    std::vector<EdgeId> edges;
    for (const auto& [id, e] : g_.edges())
      if (plan_.nodes.count(e.producer) || plan_.nodes.count(e.consumer)) edges.push_back(id);
    std::map<EdgeId, std::vector<IndexExpr>> readShapes;
    for (EdgeId id : edges) readShapes[id] = g_.readType(g_.edge(id)).shape;
    std::map<NodeId, std::vector<std::string>> oldDomains;
    for (NodeId id : plan_.nodes) {
      Node& n = g_.node(id);
      oldDomains[id] = n.domain;
      n.domain.erase(n.domain.begin() + domainPosition(n.domain, d_));
      n.type.shape.insert(n.type.shape.begin(), batch_);
    }
    for (EdgeId id : edges) {
      Edge e = g_.edge(id);
      bool producerBatched = plan_.nodes.count(e.producer), consumerBatched = plan_.nodes.count(e.consumer);
      int position = domainPosition(producerBatched ? oldDomains[e.producer] : g_.node(e.producer).domain, d_);
      if (consumerBatched) batched_[id] = position >= 0;
      if (producerBatched && consumerBatched) readBatched(id, position);
      else if (producerBatched) selectPosition(id, position, readShapes[id]);
      else if (position >= 0) readWindow(id, position);
    }
    for (GraphOutput& o : g_.outputs)
      if (plan_.nodes.count(o.node)) o.node = selectOutput(o.node, oldDomains[o.node], unbatched[o.node]);
    for (NodeId id : plan_.nodes) batchNode(g_, id, batch_, unbatched[id], batched_, change_);
  }

private:
  /// Both ends batched: the d atom goes; other slices stack in front of the batch axis.
  void readBatched(EdgeId id, int position) {
    Edge& e = g_.edge(id);
    e.index.erase(e.index.begin() + position);
    change_.rewritten.insert(e.consumer);
    int stacked = countSlices(e.index, e.index.size());
    if (stacked > 0) insertAdapter(g_, id, OpKind::Permute, moveAxis(g_.readType(e).rank(), stacked, 0), change_);
  }

  /// A batched node read per point by a per-point producer: the window 0:B along d.
  void readWindow(EdgeId id, int position) {
    Edge& e = g_.edge(id);
    e.index[position] = IndexAtom::slice(IndexExpr(0), batch_);
    change_.rewritten.insert(e.consumer);
    int before = countSlices(e.index, position);
    if (before > 0) insertAdapter(g_, id, OpKind::Permute, moveAxis(g_.readType(e).rank(), before, 0), change_);
  }

  /// A per-point reader of a batched node picks its position (or window) of d.
  void selectPosition(EdgeId id, int position, const std::vector<IndexExpr>& readShape) {
    Edge& e = g_.edge(id);
    IndexAtom atom = e.index[position];
    int wanted = countSlices(e.index, position);
    e.index.erase(e.index.begin() + position);
    change_.rewritten.insert(e.consumer);
    int axis = countSlices(e.index, e.index.size());
    if (!atom.isSlice()) {
      selectors_.insert(insertAdapter(g_, id, OpKind::Slice, sliceAttrs(axis, atom.start, atom.start + 1), change_));
      selectors_.insert(insertAdapter(g_, id, OpKind::Reshape, targetShape(readShape), change_));
      return;
    }
    bool whole = atom.start == IndexExpr(0) && *atom.stop == batch_;
    if (!whole) selectors_.insert(insertAdapter(g_, id, OpKind::Slice, sliceAttrs(axis, atom.start, *atom.stop), change_));
    if (wanted != axis)
      selectors_.insert(insertAdapter(g_, id, OpKind::Permute, moveAxis(g_.readType(g_.edge(id)).rank(), axis, wanted),
                                      change_));
  }

  /// The output keeps its declared domain and type: a per-point row of the batch.
  NodeId selectOutput(NodeId id, const std::vector<std::string>& domain, const TensorType& type) {
    Edge read;
    read.producer = id;
    read.index = identityAtoms(g_.node(id).domain);
    read.loc = g_.node(id).loc;
    IndexExpr at = IndexExpr::dim(d_);
    NodeId row = addReader(g_, OpKind::Slice, sliceAttrs(0, at, at + 1), domain, read, change_);
    Edge rowRead;
    rowRead.producer = row;
    rowRead.index = identityAtoms(domain);
    rowRead.loc = read.loc;
    NodeId out = addReader(g_, OpKind::Reshape, targetShape(type.shape), domain, rowRead, change_);
    selectors_.insert(row);
    selectors_.insert(out);
    return out;
  }

  Graph& g_;
  const VectorisationPlan& plan_;
  std::string d_;
  IndexExpr batch_;
  std::set<NodeId>& selectors_;
  GraphChange& change_;
  std::map<EdgeId, bool> batched_;
};

std::string joinIds(const Graph& g, const std::set<NodeId>& ids) {
  std::string out;
  for (NodeId id : ids) {
    const Node& n = g.node(id);
    out += (out.empty() ? "%" : ", %") + std::to_string(id) + (n.name.empty() ? "" : " " + n.name);
  }
  return out;
}

}  // namespace

void Vectorisation::run(Graph& graph, PassContext& context) {
  std::set<NodeId> selectors;  // adapters to per-point readers stay per point
  for (const DimDecl& dim : std::vector<DimDecl>(graph.dims)) {
    // Iterations of `optimize` run one after another (each reads the params the
    // previous one updated); batching a value along them would precompute it for
    // every iteration and keep it alive, so the peak would grow with their count.
    bool trained = std::any_of(graph.trainedParams.begin(), graph.trainedParams.end(),
                               [&](const TrainedParam& p) { return p.dim == dim.name; });
    if (trained) {
      context.change.notes.push_back(dim.name + ": not batched: it is the iteration dimension of optimize");
      continue;
    }
    // A dimension that ends `until` a condition runs step by step so that it can stop: a batch
    // along it would compute every step up to the bound before the condition is known.
    bool until = std::any_of(graph.outputs.begin(), graph.outputs.end(),
                             [&](const GraphOutput& o) { return o.untilDim == dim.name; });
    if (until) {
      context.change.notes.push_back(dim.name + ": not batched: it ends until a condition holds");
      continue;
    }
    // An adapter made for an earlier dimension is an ordinary node for this one: a
    // selector of x[i] out of a batch over i batches along b with its readers.
    VectorisationPlan plan = planVectorisation(graph, dim.name, {});
    for (const auto& [id, why] : plan.refusals) {
      if (selectors.count(id) || opClass(graph.node(id).op) == OpClass::Source) continue;
      context.change.notes.push_back(dim.name + ": %" + std::to_string(id) +
                                     (graph.node(id).name.empty() ? "" : " " + graph.node(id).name) +
                                     " keeps it: " + why);
    }
    if (plan.nodes.empty()) continue;
    context.change.notes.push_back(dim.name + ": batched " + joinIds(graph, plan.nodes));
    DimVectoriser(graph, plan, selectors, context.change).run();
  }
}

}  // namespace tempo
