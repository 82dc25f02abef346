#include "passes/ViewSelection.h"

#include <algorithm>

namespace tempo {

namespace {

bool readsAtAPoint(const Edge& e) {
  return std::none_of(e.index.begin(), e.index.end(), [](const IndexAtom& a) { return a.isSlice() || a.isBlock(); });
}

bool isOutput(const Graph& g, NodeId id) {
  return std::any_of(g.outputs.begin(), g.outputs.end(), [&](const GraphOutput& o) { return o.node == id; });
}

/// The view's buffer is one no store replaces while the view holds it: a slice read
/// stacks a fresh buffer (the executor copies a stack that is a window of a store's),
/// and a whole-array source's values are windows of an array held all run. A point of
/// a computed store is not: the store drops it at its next write while the view still
/// holds it, so for a moment both would be live where the prediction counts one.
bool readsABufferThatStaysPut(const Graph& g, const Edge& in) {
  return !readsAtAPoint(in) || isWholeArraySource(g.node(in.producer).op);
}

/// An expand's store holds its input's bytes: known when it reads one point of an
/// input whose element shape is the same at every point.
bool expandReadsAFixedShape(const Graph& g, NodeId id) {
  std::vector<const Edge*> in = g.inputs(id);
  if (in.size() != 1 || !readsAtAPoint(*in.front())) return false;
  const Node& producer = g.node(in.front()->producer);
  for (const IndexExpr& extent : producer.type.shape)
    for (const Symbol& symbol : extent.symbols())
      if (symbol.kind == SymbolKind::Dim) return false;
  return true;
}

bool readersTakeAView(const Graph& g, NodeId id) {
  std::vector<const Edge*> users = g.users(id);
  return !users.empty() && std::all_of(users.begin(), users.end(), [&](const Edge* e) {
    return readsAtAPoint(*e) && readsStridedViews(g.node(e->consumer).op);
  });
}

}  // namespace

std::string ViewSelection::description() const {
  return "A permute or an expand moves or repeats elements without computing anything. When every reader "
         "reads it at a point with a kernel that walks strides (elementwise, where, fused, sums and maxima), "
         "its value can stay a strided view of its input's buffer: no copy is made and the bytes are held "
         "once. Outputs, readers that stack slices of it, and other kernels keep the copy; an expand is a view "
         "only when its input's shape is fixed, so its store's size is its input's.";
}

void ViewSelection::run(Graph& graph, PassContext& context) {
  int permutes = 0, expands = 0;
  std::vector<NodeId> ids;
  for (const auto& [id, n] : graph.nodes())
    if ((n.op == OpKind::Permute || n.op == OpKind::Expand) && !n.attrs.view) ids.push_back(id);
  for (NodeId id : ids) {
    const Node& n = graph.node(id);
    std::vector<const Edge*> in = graph.inputs(id);
    if (in.size() != 1 || !readsABufferThatStaysPut(graph, *in.front())) continue;
    if (isOutput(graph, id) || !readersTakeAView(graph, id)) continue;
    if (n.op == OpKind::Expand && !expandReadsAFixedShape(graph, id)) continue;
    graph.node(id).attrs.view = true;
    context.change.rewritten.insert(id);
    ++(n.op == OpKind::Permute ? permutes : expands);
  }
  if (permutes + expands > 0)
    context.change.notes.push_back("strided views of their inputs (no copy): " + std::to_string(permutes) +
                                   (permutes == 1 ? " permute, " : " permutes, ") + std::to_string(expands) +
                                   (expands == 1 ? " expand" : " expands"));
}

}  // namespace tempo
