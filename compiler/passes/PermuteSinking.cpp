#include "passes/PermuteSinking.h"

#include "passes/AlgebraicSimplification.h"
#include "passes/BatchAdapters.h"
#include "passes/GraphRewrite.h"

namespace tempo {

std::string PermuteSinking::description() const {
  return "Vectorisation batches a dimension as a leading axis and hoists x @ W out of the loop over t as one "
         "product over the stacked window x[0:T, 0:B], permuted to [B, T, H]; each step then slices its own "
         "row out along the middle axis. The permute copies the whole input and every step copies a strided "
         "slice. This pass moves permutes towards the readers with three exact rules: a matmul of a permute "
         "that keeps the contracted last axis in place is the permute of the matmul (permute(a) @ W = "
         "permute(a @ W)); a slice of a permute is the permute of a slice (along the axis the permute takes "
         "it from); and a permute that keeps every axis longer than 1 in its order moves no element, so it "
         "becomes a reshape, which shares its input's buffer. A reshape of a reshape reads the first one's "
         "input directly. The product then runs on x as it lies in memory and every step's row is a window of "
         "it: no copy at all, and the numbers are bit for bit the same.";
}

namespace {

/// `n` as an unconditional permute or reshape with one unconditional input, else nullptr for the input.
const Edge* movementInput(const Graph& g, const Node& n, OpKind op) {
  return n.op == op ? soleUnconditionalInput(g, n) : nullptr;
}

/// The end of a sinking rule: `old` (a matmul or slice that read the permute `permute`)
/// becomes `permuted`, a permute of `moved` (the op now applied before the permute).
bool finishSink(Graph& g, NodeId old, NodeId moved, NodeId permuted, NodeId permute, const std::string& what,
                GraphChange& change) {
  change.notes.push_back(shortLabel(g.node(old)) + ": the permute " + shortLabel(g.node(permute)) + " " + what + " -> " +
                         shortLabel(g.node(moved)) + ", then " + shortLabel(g.node(permuted)));
  replaceNode(g, old, permuted, change);
  removeIfUnread(g, permute, change);
  return true;
}

/// matmul(permute(a), w) -> permute(matmul(a, w)) when the permute keeps the last (contracted)
/// axis, w is a matrix (no batch axes to broadcast) and the matmul reads the permute at its own point.
bool sinkBelowMatmul(Graph& g, NodeId id, GraphChange& change) {
  const Node m = g.node(id);
  if (m.op != OpKind::MatMul) return false;
  auto ins = g.inputs(id);
  if (ins.size() != 2) return false;
  const bool inOrder = ins[0]->inputIndex == 0;
  const Edge left = inOrder ? *ins[0] : *ins[1], right = inOrder ? *ins[1] : *ins[0];
  if (!left.condition.isAlways() || !right.condition.isAlways()) return false;
  const Node p = g.node(left.producer);
  const Edge* pin = movementInput(g, p, OpKind::Permute);
  if (!pin || p.id == id || p.domain != m.domain || !left.isIdentityRead(p.domain)) return false;
  const std::vector<int64_t>& perm = p.attrs.perm;
  if (perm.size() < 3 || perm.back() != static_cast<int64_t>(perm.size()) - 1) return false;
  if (g.readType(right).rank() != 2) return false;
  const std::optional<NodeId> product = addBinaryLike(g, m, *pin, right, change);
  if (!product) return false;
  const NodeId unpermuted = *product;
  NodeId permuted = addReader(g, OpKind::Permute, p.attrs, m.domain, readOf(unpermuted, identityAtoms(m.domain), left.loc), change);
  return finishSink(g, id, unpermuted, permuted, p.id, "sunk below the matmul", change);
}

/// slice(permute(y), axis d) -> permute(slice(y, axis perm[d])).
bool sinkBelowSlice(Graph& g, NodeId id, GraphChange& change) {
  const Node s = g.node(id);
  const Edge* in = s.op == OpKind::Slice ? soleUnconditionalInput(g, s) : nullptr;
  if (!in) return false;
  const Node q = g.node(in->producer);
  const Edge* qin = movementInput(g, q, OpKind::Permute);
  if (!qin || q.id == id) return false;
  auto atoms = composeReads(q.domain, *qin, *in);
  if (!atoms) return false;
  Edge read = *qin;
  read.index = *atoms;
  read.consumer = id;
  int64_t axis = q.attrs.perm.at(static_cast<size_t>(s.attrs.axis));
  NodeId sliced = addReader(g, OpKind::Slice, sliceAttrs(axis, s.attrs.start, s.attrs.stop), s.domain, read, change);
  NodeId permuted = addReader(g, OpKind::Permute, q.attrs, s.domain, readOf(sliced, identityAtoms(s.domain), in->loc), change);
  return finishSink(g, id, sliced, permuted, q.id, "sunk below the slice", change);
}

/// A permute that keeps the axes of size other than 1 in their order is a reshape.
bool permuteAsReshape(Graph& g, NodeId id, GraphChange& change) {
  const Node& n = g.node(id);
  const Edge* in = movementInput(g, n, OpKind::Permute);
  if (!in) return false;
  const std::vector<IndexExpr> shape = g.readType(*in).shape;
  int64_t previous = -1;
  for (int64_t axis : n.attrs.perm) {
    if (shape.at(static_cast<size_t>(axis)).constantValue() == 1) continue;
    if (axis < previous) return false;
    previous = axis;
  }
  Node& r = g.node(id);
  r.op = OpKind::Reshape;
  r.attrs = targetShape(r.type.shape);
  change.rewritten.insert(id);
  change.notes.push_back(shortLabel(r) + ": a permute of axes of size 1 -> a reshape");
  return true;
}

/// reshape(reshape(x)) reads x directly.
bool foldReshapes(Graph& g, NodeId id, GraphChange& change) {
  const Node& n = g.node(id);
  const Edge* in = movementInput(g, n, OpKind::Reshape);
  if (!in) return false;
  const Node inner = g.node(in->producer);
  const Edge* innerIn = movementInput(g, inner, OpKind::Reshape);
  if (!innerIn || inner.id == id) return false;
  auto atoms = composeReads(inner.domain, *innerIn, *in);
  if (!atoms) return false;
  Edge& e = g.edge(in->id);
  e.producer = innerIn->producer;
  e.index = *atoms;
  change.rewritten.insert(id);
  change.notes.push_back(shortLabel(n) + ": reads " + e.str() + " directly (a reshape of the reshape " + shortLabel(inner) + ")");
  removeIfUnread(g, inner.id, change);
  return true;
}

}  // namespace

void PermuteSinking::run(Graph& graph, PassContext& context) {
  GraphChange& change = context.change;
  rewriteToFixpoint(graph, [&](NodeId id) {
    return sinkBelowMatmul(graph, id, change) || sinkBelowSlice(graph, id, change) ||
           permuteAsReshape(graph, id, change) || foldReshapes(graph, id, change);
  });
  // Folding leaves reshapes to their input's own shape (a batched [B, 64] read through
  // [B, 1, 64] as [B, 64]): their readers read the input, one statement less per point
  // (six per backward step of REINFORCE).
  applyRewriteRules(graph, identityViewRules(), change);
  for (auto it = change.rewritten.begin(); it != change.rewritten.end();)
    it = graph.hasNode(*it) && !change.added.count(*it) ? std::next(it) : change.rewritten.erase(it);
}

}  // namespace tempo
