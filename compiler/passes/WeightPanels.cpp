#include "passes/WeightPanels.h"

#include "passes/BatchAdapters.h"
#include "passes/GraphRewrite.h"

#include <algorithm>

namespace tempo {

std::string WeightPanels::description() const {
  return "A decoder step multiplies a few rows (B = 8 sequences) by each layer's weights, megabytes that do not "
         "fit in the cache, so the step streams them from memory. A GEMM library reads a row-major matrix "
         "column block by column block, its rows far apart, and packs each block before it multiplies; the "
         "same bytes laid out as panels of 64 columns, each panel contiguous, are read front to back, about "
         "twice as fast here. This pass rewrites x @ W, when W is an f32 matrix of at least 1 MiB whose width "
         "is a multiple of 64, x has at most 32 rows and each value of W is read at least 16 times (the "
         "steps of a dimension it does not vary with, at the bound hints), into x @ P: "
         "P = permute(reshape(W, [K, N/64, 64]), (1, 0, 2)) is copied once per value of W, and the product's "
         "[N/64, rows, 64] result is put back in order by a permute and a reshape. Every output element is "
         "the same dot product (the GEMM may round it in another order).";
}

namespace {

constexpr int64_t kPanel = 64;                     ///< columns per panel: four AVX-512 registers
constexpr int64_t kMinWeightBytes = int64_t(1) << 20;  ///< beyond L2: streamed from farther away
constexpr int64_t kMaxRows = 32;                   ///< a few rows: the product is bound by the weights' bytes

/// Products per value of W from which the panel copy pays: the copy reads and writes W once
/// (about three reads' time), each product then reads it in half the time.
constexpr int64_t kMinReadsPerValue = 16;

/// How many times the consumer reads each value of the operand at the hinted bounds: the
/// product of the extents of the consumer's dimensions the read does not move along (1 when
/// there are none; nullopt when an extent is unknown there).
std::optional<int64_t> readsPerValue(const Graph& g, const Node& consumer, const Edge& read, const SymbolEnv& bounds) {
  int64_t reads = 1;
  for (const std::string& dim : consumer.domain) {
    const bool moves =
        std::any_of(read.index.begin(), read.index.end(), [&](const IndexAtom& a) { return atomUses(a, dim); });
    if (moves) continue;
    auto extent = bounds.find(g.boundOf(dim));
    if (extent == bounds.end()) return std::nullopt;
    reads *= std::max<int64_t>(extent->second, 1);
  }
  return reads;
}

/// The rows of the left operand at the hinted bounds (1 for a vector); nullopt when unknown.
std::optional<int64_t> rowsAtHints(const TensorType& left, const SymbolEnv& hints) {
  if (left.rank() == 1) return 1;
  try {
    return left.shape[0].evaluate(hints);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool panelWeights(Graph& g, NodeId id, const SymbolEnv& hints, GraphChange& change) {
  const Node m = g.node(id);
  if (m.op != OpKind::MatMul || !m.attrs.permA.empty() || !m.attrs.permB.empty() || m.type.dtype != DType::F32)
    return false;
  auto ins = g.inputs(id);
  if (ins.size() != 2 || !ins[0]->condition.isAlways() || !ins[1]->condition.isAlways()) return false;
  const bool inOrder = ins[0]->inputIndex == 0;
  const Edge left = inOrder ? *ins[0] : *ins[1], right = inOrder ? *ins[1] : *ins[0];
  const TensorType lt = g.readType(left), wt = g.readType(right);
  if (wt.rank() != 2 || wt.dtype != DType::F32 || (lt.rank() != 1 && lt.rank() != 2)) return false;
  const std::optional<int64_t> k = wt.shape[0].constantValue(), n = wt.shape[1].constantValue();
  if (!k || !n || *n % kPanel != 0 || *n < 2 * kPanel || *k * *n * 4 < kMinWeightBytes) return false;
  const std::optional<int64_t> rows = rowsAtHints(lt, hints);
  if (!rows || *rows > kMaxRows) return false;
  const std::optional<int64_t> reads = readsPerValue(g, m, right, hints);
  if (!reads || *reads < kMinReadsPerValue) return false;

  // P = permute(reshape(W, [K, N/64, 64]), (1, 0, 2)) over W's own domain: once per value of W.
  const Node w = g.node(right.producer);
  const std::vector<IndexAtom> wPoint = identityAtoms(w.domain);
  const OpAttrs panelShape = targetShape({IndexExpr(*k), IndexExpr(*n / kPanel), IndexExpr(kPanel)});
  NodeId split = addReader(g, OpKind::Reshape, panelShape, w.domain, readOf(w.id, wPoint, right.loc), change);
  OpAttrs panelOrder;
  panelOrder.perm = {1, 0, 2};
  NodeId panels = addReader(g, OpKind::Permute, panelOrder, w.domain, readOf(split, wPoint, right.loc), change);

  // x @ P: [N/64, rows, 64] (a vector: [N/64, 64]), back to [rows, N] (or [N]).
  Edge panelRead = right;
  panelRead.producer = panels;
  const std::optional<NodeId> product = addBinaryLike(g, m, left, panelRead, change);
  if (!product) return false;
  const NodeId panelled = *product;
  const std::vector<IndexAtom> here = identityAtoms(m.domain);
  NodeId ordered = panelled;
  if (lt.rank() == 2) ordered = addReader(g, OpKind::Permute, panelOrder, m.domain, readOf(panelled, here, m.loc), change);
  NodeId result = addReader(g, OpKind::Reshape, targetShape(m.type.shape), m.domain, readOf(ordered, here, m.loc), change);
  change.notes.push_back(shortLabel(m) + ": " + std::to_string(*k) + " x " + std::to_string(*n) + " weights of " +
                         shortLabel(w) + " read as " + std::to_string(*n / kPanel) + " panels of " +
                         std::to_string(kPanel) + " columns (" + shortLabel(g.node(panels)) + "), product " +
                         shortLabel(g.node(panelled)));
  replaceNode(g, id, result, change);
  return true;
}

}  // namespace

void WeightPanels::run(Graph& graph, PassContext& context) {
  std::vector<NodeId> matmuls;
  for (const auto& [id, n] : graph.nodes())
    if (n.op == OpKind::MatMul) matmuls.push_back(id);
  SymbolEnv bounds = context.hintedBounds(graph);
  try {
    bounds = graph.withDerivedBounds(bounds);
  } catch (const std::exception&) {
    // a derived bound without its inputs: products over its dimension are left as they are
  }
  for (NodeId id : matmuls) panelWeights(graph, id, bounds, context.change);
}

}  // namespace tempo
