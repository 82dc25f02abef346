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

/// The matmul reads an operand of rank r through `perm` (operand axis i is axis perm[i] of what
/// it reads: a contiguous value), in place when that value's last, unit-stride axis is one of the
/// operand's matrix axes: a row-major matrix or a transposed one, at any batch strides.
bool gemmReadsInPlace(const std::vector<int64_t>& perm) {
  const size_t r = perm.size();
  return r >= 2 && (perm[r - 1] == static_cast<int64_t>(r - 1) || perm[r - 2] == static_cast<int64_t>(r - 1));
}

std::vector<int64_t> identityPermutation(size_t rank) {
  std::vector<int64_t> perm(rank);
  for (size_t d = 0; d < rank; ++d) perm[d] = static_cast<int64_t>(d);
  return perm;
}

/// A right operand read transposed (its rows' unit-stride axis being the product's K) through a
/// permute computed fewer times than the product (a weight's transpose, once, for a product at
/// every step): the GEMM libraries are slower on such a B (oneDNN's sgemm, 62 against libxsmm's
/// 31 us at 32x256x256 here; libxsmm has no kernel for it), so the permute's one copy stays and
/// every product reads a row-major matrix.
bool transposesAnInvariantRightOperand(const Graph& g, const Node& product, NodeId permute, const std::vector<int64_t>& perm) {
  const size_t r = perm.size();
  return perm[r - 1] != static_cast<int64_t>(r - 1) && g.node(permute).domain.size() < product.domain.size();
}

/// matmul(permute(...permute(a)), b) reads a through the composed permutation: the chain's
/// reads are composed into the matmul's operand edge and the operand's permutation
/// (permA / permB) is set, when the GEMM can read a in place with it (gemmReadsInPlace):
/// BLAS's trans flag and leading dimension, no copy. Permutes nothing else reads go.
int foldPermutesIntoMatmuls(Graph& g, GraphChange& change) {
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
      std::vector<int64_t>& current = in.inputIndex == 0 ? g.node(id).attrs.permA : g.node(id).attrs.permB;
      // Walk up the chain of permutes; fold as far as the last link the GEMM reads in place.
      struct Link {
        Edge read;
        std::vector<int64_t> perm;
      };
      std::vector<Link> chain = {{in, current.empty() ? identityPermutation(g.readType(in).rank()) : current}};
      size_t best = 0;
      while (g.node(chain.back().read.producer).op == OpKind::Permute) {
        const Link& last = chain.back();
        const Node& permute = g.node(last.read.producer);
        const Edge* source = soleUnconditionalInput(g, permute);
        std::optional<std::vector<IndexAtom>> atoms;
        if (source) atoms = composeReads(permute.domain, *source, last.read);
        if (!atoms) break;
        Link next{last.read, {}};
        next.read.producer = source->producer;
        next.read.index = *atoms;
        for (int64_t axis : last.perm) next.perm.push_back(permute.attrs.perm.at(static_cast<size_t>(axis)));
        chain.push_back(std::move(next));
        if (gemmReadsInPlace(chain.back().perm)) best = chain.size() - 1;
      }
      if (best == 0) continue;
      const Link& read = chain[best];
      const std::vector<int64_t>& perm = read.perm;
      if (in.inputIndex == 1 && transposesAnInvariantRightOperand(g, g.node(id), chain[0].read.producer, perm)) continue;
      std::vector<NodeId> passed;
      for (size_t l = 0; l < best; ++l) passed.push_back(chain[l].read.producer);
      Edge& e = g.edge(operand);
      e.producer = read.read.producer;
      e.index = read.read.index;
      current = perm == identityPermutation(perm.size()) ? std::vector<int64_t>{} : perm;
      change.rewritten.insert(id);
      ++folded;
      for (NodeId p : passed)  // the nearest first: each one's removal leaves the next unread
        if (g.users(p).empty() && !isOutput(g, p)) {
          g.removeNode(p);
          recordRemoval(change, p);
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
         "only when its input's shape is fixed, so its store's size is its input's. First, a matmul whose operand "
         "is a permute (or a chain of them) of a value it can read in place, with one of the two matrix axes "
         "at unit stride, reads that value through the permutation (perm_a / perm_b): the GEMM takes it with "
         "its trans flag and leading dimension at any batch strides, and the permutes' copies disappear; "
         "except a right operand transposed by a permute computed fewer times than the product (a weight's "
         "transpose, for a product at every step), whose one copy is cheaper than the libraries' slower "
         "products with a transposed B.";
}

void ViewSelection::run(Graph& graph, PassContext& context) {
  if (int folded = foldPermutesIntoMatmuls(graph, context.change))
    context.change.notes.push_back("matmul operands read through their permutes in place (the GEMM's trans flag "
                                   "and leading dimension, no copy): " + std::to_string(folded));
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
