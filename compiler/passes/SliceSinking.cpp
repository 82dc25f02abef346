#include "passes/SliceSinking.h"

#include "passes/BatchAdapters.h"
#include "passes/GraphRewrite.h"

#include <algorithm>

namespace tempo {

std::string SliceSinking::description() const {
  return "The gradient of a window read such as sum(logp[i, 0:T, 0:B]) is one [T, B] value per i, out of which "
         "every point (i, t, b) of logp picks its own element with a slice at position t, then b. A slice whose "
         "position moves with a dimension stops the later passes: vectorisation cannot batch b when an attribute "
         "mentions b, and the whole [T, B] value stays alive while its elements are read one by one. This pass "
         "moves such slices towards the values they select from, keeping the result exactly the same: through "
         "an elementwise op or an expand that nothing else reads (the op then computes only the selected "
         "elements, at the slice's points, which is the same total work), into a window read (x[i, 0:T] sliced "
         "at t is x[i, t:t+1]), and a window of one position that moves with a dimension becomes a point read "
         "and a reshape (x[i, t]). The gradient becomes an elementwise expression of g[i, t, b] at every point.";
}

namespace {

bool movesWithDim(const IndexExpr& e) { return e.dependsOnKind(SymbolKind::Dim); }

bool isMovingSlice(const Node& n) { return n.op == OpKind::Slice && movesWithDim(n.attrs.start); }

/// A slice of an axis that a slice atom of its read stacks: the read narrows
/// to the selected positions (`x[i, 0:T]` sliced at t:t+1 is `x[i, t:t+1]`).
bool narrowWindowRead(Graph& g, NodeId s, GraphChange& change) {
  const Node n = g.node(s);
  const Edge* in = soleUnconditionalInput(g, n);
  if (!in || g.node(in->producer).id == s) return false;
  int64_t stacked = 0;
  for (size_t j = 0; j < in->index.size(); ++j) {
    const IndexAtom& a = in->index[j];
    if (!a.isSlice()) continue;
    if (stacked++ != n.attrs.axis) continue;
    if (a.isBlock()) return false;
    const std::string before = in->str();
    Edge& e = g.edge(in->id);
    e.index[j] = IndexAtom::slice(a.start + n.attrs.start, a.start + n.attrs.stop);
    Node& m = g.node(s);
    m.op = OpKind::Identity;
    m.attrs = OpAttrs{};
    change.rewritten.insert(s);
    change.notes.push_back(shortLabel(n) + ": slice of the window " + before + " -> " + e.str());
    forwardReaders(g, s, g.edge(in->id), change);
    return true;
  }
  return false;
}

/// The slices `first`, then its only reader if that is a moving slice too,
/// and so on: one selection applied in order (each keeps the rank).
std::vector<NodeId> sliceChain(const Graph& g, NodeId first) {
  std::vector<NodeId> chain{first};
  for (;;) {
    auto users = g.users(chain.back());
    if (users.size() != 1 || isOutput(g, chain.back())) return chain;
    const Node& next = g.node(users[0]->consumer);
    if (!isMovingSlice(next) || next.domain != g.node(first).domain || !users[0]->isIdentityRead(next.domain))
      return chain;
    chain.push_back(next.id);
  }
}

bool sinkable(OpKind op) {
  OpClass c = opClass(op);
  return c == OpClass::Unary || c == OpClass::Binary || c == OpClass::Ternary || c == OpClass::Cast || c == OpClass::Identity ||
         op == OpKind::Expand;
}

/// A chain of moving slices of an elementwise op (or expand) that only the
/// chain reads: the op is computed at the last slice's points on the selected
/// elements of its operands (each operand sliced along the axes it does not
/// broadcast).
bool sinkThroughOp(Graph& g, NodeId first, GraphChange& change) {
  const Edge* in = soleUnconditionalInput(g, g.node(first));
  if (!in) return false;
  const Node e = g.node(in->producer);
  if (!sinkable(e.op) || e.id == first || g.users(e.id).size() != 1 || isOutput(g, e.id)) return false;
  std::vector<NodeId> chain = sliceChain(g, first);
  const Node last = g.node(chain.back());
  const Edge sliceRead = *in;
  // Each operand's read over the last slice's domain: compose e's read of
  // it with the chain's read of e (the chain's later slices read at their own point).
  struct Operand {
    Edge read;
    std::vector<OpAttrs> slices;  // on the operand's own axes
  };
  std::vector<Operand> operands;
  const size_t rank = e.type.shape.size();
  for (const Edge* x : g.inputs(e.id)) {
    if (!x->condition.isAlways()) return false;
    auto atoms = composeReads(e.domain, *x, sliceRead);
    if (!atoms) return false;
    Operand op{*x, {}};
    op.read.index = *atoms;
    const std::vector<IndexExpr> shape = g.readType(*x).shape;
    for (NodeId s : chain) {
      const OpAttrs& a = g.node(s).attrs;
      int64_t aligned = a.axis - static_cast<int64_t>(rank - shape.size());
      if (aligned >= 0 && shape[aligned] == e.type.shape[a.axis]) op.slices.push_back(sliceAttrs(aligned, a.start, a.stop));
    }
    operands.push_back(std::move(op));
  }
  // The sunk op runs over the dimensions its reads and slices mention (a
  // slice of an expanded constant needs no domain at all).
  auto mentioned = [&](const std::string& d) {
    for (const Operand& op : operands) {
      for (const IndexAtom& a : op.read.index)
        if (atomUses(a, d)) return true;
      for (const OpAttrs& a : op.slices)
        if (a.start.dependsOn(d) || a.stop.dependsOn(d)) return true;
    }
    return false;
  };
  std::vector<std::string> domain;
  for (const std::string& d : last.domain)
    if (mentioned(d) || isOutput(g, last.id)) domain.push_back(d);  // an output keeps its layout
  for (const std::string& d : domain) {
    if (std::find(e.domain.begin(), e.domain.end(), d) != e.domain.end()) continue;
    bool moves = std::any_of(chain.begin(), chain.end(), [&](NodeId s) { return g.node(s).attrs.start.dependsOn(d); });
    if (!moves) return false;  // e would be computed again at every point of d
  }

  Node sunk = e;
  sunk.id = -1;
  sunk.domain = domain;
  sunk.type = last.type;
  sunk.name = last.name;
  if (e.op == OpKind::Expand) sunk.attrs.shape = last.type.shape;
  NodeId id = g.addNode(sunk);
  change.added.insert(id);
  for (size_t slot = 0; slot < operands.size(); ++slot) {
    Edge read = operands[slot].read;
    read.id = -1;
    for (const OpAttrs& a : operands[slot].slices) {
      read.consumer = -1;
      NodeId s = addReader(g, OpKind::Slice, a, domain, read, change);
      read = Edge{};
      read.producer = s;
      read.index = identityAtoms(domain);
    }
    read.consumer = id;
    read.inputIndex = static_cast<int>(slot);
    read.condition = Condition::always();
    g.addEdge(read);
  }
  for (const Edge* user : g.users(last.id)) {
    Edge& r = g.edge(user->id);
    std::vector<IndexAtom> atoms;
    for (size_t k = 0; k < last.domain.size(); ++k)
      if (std::find(domain.begin(), domain.end(), last.domain[k]) != domain.end()) atoms.push_back(r.index[k]);
    r.producer = id;
    r.index = atoms;
    change.rewritten.insert(r.consumer);
  }
  if (isOutput(g, last.id)) redirectUsers(g, last.id, id);
  change.notes.push_back(shortLabel(g.node(first)) + ": slices sunk through " + shortLabel(e) + " (" +
                         std::string(opName(e.op)) + ") -> " + shortLabel(g.node(id)));
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    g.removeNode(*it);
    change.removed.insert(*it);
  }
  g.removeNode(e.id);
  change.removed.insert(e.id);
  return true;
}

/// A window of one position that moves with a dimension (`x[i, t:t+1]`)
/// becomes a point read and a reshape that restores the size-1 axis.
bool pointsForUnitWindows(Graph& g, GraphChange& change) {
  bool changed = false;
  std::vector<EdgeId> ids;
  for (const auto& [id, e] : g.edges()) ids.push_back(id);
  for (EdgeId id : ids) {
    const Edge e = g.edge(id);
    if (!e.condition.isAlways()) continue;
    Edge point = e;
    bool unit = false;
    for (IndexAtom& a : point.index) {
      if (!a.isSlice() || a.isBlock() || !movesWithDim(a.start) || !(*a.stop - a.start == IndexExpr(1))) continue;
      a = IndexAtom::point(a.start);
      unit = true;
    }
    if (!unit) continue;
    NodeId r = addReader(g, OpKind::Reshape, targetShape(g.readType(e).shape), g.node(e.consumer).domain, point, change);
    Edge& moved = g.edge(id);
    moved.producer = r;
    moved.index = identityAtoms(g.node(r).domain);
    change.rewritten.insert(e.consumer);
    change.notes.push_back(e.str() + ": a window of one position -> a point read and a reshape");
    changed = true;
  }
  return changed;
}

}  // namespace

void SliceSinking::run(Graph& graph, PassContext& context) {
  for (bool progress = true; progress;) {
    progress = false;
    std::vector<NodeId> slices;
    for (const auto& [id, n] : graph.nodes())
      if (isMovingSlice(n)) slices.push_back(id);
    for (NodeId id : slices) {
      if (!graph.hasNode(id) || !isMovingSlice(graph.node(id))) continue;
      if (narrowWindowRead(graph, id, context.change) || sinkThroughOp(graph, id, context.change)) progress = true;
    }
  }
  pointsForUnitWindows(graph, context.change);
  // A slice made on the way and sunk again further was never there.
  GraphChange& change = context.change;
  for (auto it = change.added.begin(); it != change.added.end();) {
    if (graph.hasNode(*it)) { ++it; continue; }
    change.removed.erase(*it);
    it = change.added.erase(it);
  }
  for (auto it = change.rewritten.begin(); it != change.rewritten.end();)
    it = graph.hasNode(*it) && !change.added.count(*it) ? std::next(it) : change.rewritten.erase(it);
}

}  // namespace tempo
