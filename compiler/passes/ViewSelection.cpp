#include "passes/ViewSelection.h"

#include "passes/GraphRewrite.h"

#include <algorithm>

namespace tempo {

namespace {

bool readsAtAPoint(const Edge& e) {
  return std::none_of(e.index.begin(), e.index.end(), [](const IndexAtom& a) { return a.isSlice() || a.isBlock(); });
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

/// The permutation swaps the last two axes and keeps the others.
bool swapsLastTwo(const std::vector<int64_t>& perm) {
  const size_t r = perm.size();
  if (r < 2) return false;
  for (size_t d = 0; d + 2 < r; ++d)
    if (perm[d] != static_cast<int64_t>(d)) return false;
  return perm[r - 2] == static_cast<int64_t>(r - 1) && perm[r - 1] == static_cast<int64_t>(r - 2);
}

/// matmul(permute(a) swapping a's last two axes, b) reads a transposed: the permute's read of
/// a is composed into the matmul's operand edge and the operand's transpose flag is set, so the
/// GEMM reads a as it lies (BLAS's trans flag). The permute goes when nothing else reads it.
int foldTransposesIntoMatmuls(Graph& g, GraphChange& change) {
  int folded = 0;
  std::vector<NodeId> products;
  for (const auto& [id, n] : g.nodes())
    if (n.op == OpKind::MatMul) products.push_back(id);
  for (NodeId id : products) {
    std::vector<EdgeId> operands;
    for (const Edge* e : g.inputs(id)) operands.push_back(e->id);
    for (EdgeId operand : operands) {
      const Edge in = g.edge(operand);
      if (!in.condition.isAlways() || !readsAtAPoint(in) || in.inputIndex > 1) continue;
      const Node& permute = g.node(in.producer);
      if (permute.op != OpKind::Permute || !swapsLastTwo(permute.attrs.perm)) continue;
      const Edge* source = soleUnconditionalInput(g, permute);
      bool& transposed = in.inputIndex == 0 ? g.node(id).attrs.transposeA : g.node(id).attrs.transposeB;
      if (!source || transposed) continue;
      std::optional<std::vector<IndexAtom>> atoms = composeReads(permute.domain, *source, in);
      if (!atoms) continue;
      Edge& e = g.edge(operand);
      e.producer = source->producer;
      e.index = *atoms;
      transposed = true;
      change.rewritten.insert(id);
      ++folded;
      if (g.users(in.producer).empty() && !isOutput(g, in.producer)) {
        g.removeNode(in.producer);
        recordRemoval(change, in.producer);
      }
    }
  }
  return folded;
}

}  // namespace

std::string ViewSelection::description() const {
  return "A permute or an expand moves or repeats elements without computing anything. When every reader "
         "reads it at a point with a kernel that walks strides (elementwise, where, fused, sums and maxima), "
         "its value can stay a strided view of its input's buffer: no copy is made and the bytes are held "
         "once. Outputs, readers that stack slices of it, and other kernels keep the copy; an expand is a view "
         "only when its input's shape is fixed, so its store's size is its input's. A permute that swaps the "
         "last two axes of a matmul's operand disappears into the matmul, which reads the operand transposed "
         "(BLAS's trans flag).";
}

void ViewSelection::run(Graph& graph, PassContext& context) {
  if (int folded = foldTransposesIntoMatmuls(graph, context.change))
    context.change.notes.push_back("matmul operands read transposed in place (the GEMM's trans flag, no copy): " +
                                   std::to_string(folded));
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
