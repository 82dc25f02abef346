#include "passes/WindowSums.h"

#include "passes/BatchAdapters.h"
#include "passes/GraphRewrite.h"

#include <algorithm>
#include <optional>

namespace tempo {

namespace {

/// A reduce_sum whose one unconditional read stacks slices and that sums
/// exactly the stacked axes (`sum(v[i, 0:T, 0:B])` over axes 0 and 1).
struct WindowSum {
  Edge read;
  std::vector<size_t> slices;  ///< positions of the read's slice atoms, in order
};

std::optional<WindowSum> matchWindowSum(const Graph& g, const Node& n) {
  if (n.op != OpKind::ReduceSum || n.attrs.keepDims) return std::nullopt;
  auto ins = g.inputs(n.id);
  if (ins.size() != 1 || !ins[0]->condition.isAlways() || ins[0]->producer == n.id) return std::nullopt;
  WindowSum w{*ins[0], {}};
  for (size_t j = 0; j < w.read.index.size(); ++j) {
    const IndexAtom& a = w.read.index[j];
    if (a.isBlock()) return std::nullopt;
    if (a.isSlice()) w.slices.push_back(j);
  }
  std::vector<int64_t> stacked;
  for (size_t k = 0; k < w.slices.size(); ++k) stacked.push_back(static_cast<int64_t>(k));
  std::vector<int64_t> axes = n.attrs.axes;
  std::sort(axes.begin(), axes.end());
  if (w.slices.empty() || axes != stacked) return std::nullopt;
  return w;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

/// Whether `stop` ends a window at `extent` (the whole dimension) or at min(c, extent) (a prefix).
bool endsAtOrBefore(const IndexExpr& stop, const IndexExpr& extent) {
  if (stop == extent) return true;
  if (stop.kind() != IndexExpr::Kind::Min || stop.dependsOnKind(SymbolKind::Dim)) return false;
  auto ops = stop.operands();
  return std::find(ops.begin(), ops.end(), extent) != ops.end();
}

/// A node of `op` in place of the sum `r` (its domain, type and name), located at `loc`.
NodeId addInPlaceOf(Graph& graph, const Node& r, OpKind op, const SourceRange& loc, GraphChange& change) {
  Node n;
  n.op = op;
  n.domain = r.domain;
  n.type = r.type;
  n.loc = loc;
  n.name = r.name;
  const NodeId id = graph.addNode(n);
  change.added.insert(id);
  return id;
}

/// The readers of the sum `r` read `replacement`; `r` and `summed`, which only `r` read, are gone.
void replaceSum(Graph& graph, NodeId r, NodeId summed, NodeId replacement, GraphChange& change) {
  redirectUsers(graph, r, replacement);
  for (NodeId gone : {r, summed}) {
    graph.removeNode(gone);
    recordRemoval(change, gone);
  }
}

}  // namespace

bool accumulateWindowSum(Graph& graph, NodeId id, GraphChange& change) {
  const Node r = graph.node(id);
  std::optional<WindowSum> w = matchWindowSum(graph, r);
  if (!w || w->slices.size() != 1) return false;
  const size_t at = w->slices[0];
  const Node& x = graph.node(w->read.producer);
  const std::string d = x.domain[at];
  const IndexAtom window = w->read.index[at];
  const IndexExpr extent = IndexExpr::bound(graph.boundOf(d));
  // An output keeps its whole store anyway: nothing to save.
  if (window.start != IndexExpr(0) || !endsAtOrBefore(*window.stop, extent) || contains(r.domain, d) ||
      isOutput(graph, x.id))
    return false;
  // The running sum goes the way x's values come: forwards, or backwards from
  // the end for a whole window of values a backward recurrence makes.
  const std::optional<int> order = stepwiseOrder(graph, x.id, d);
  const bool whole = *window.stop == extent;
  if (!order || (*order < 0 && !whole)) return false;
  const bool backwards = *order < 0;
  Edge step = w->read;  // x at the running coordinate
  step.index[at] = IndexAtom::point(IndexExpr::dim(d));
  if (!(graph.readType(step) == r.type)) return false;

  std::vector<std::string> domain;  // the sum's dimensions and d, in declaration order
  for (const DimDecl& dim : graph.dims)
    if (contains(r.domain, dim.name) || dim.name == d) domain.push_back(dim.name);
  std::vector<IndexAtom> previous = identityAtoms(domain);  // the step before, in the running order
  for (IndexAtom& a : previous)
    if (a.start == IndexExpr::dim(d)) a = IndexAtom::point(IndexExpr::dim(d) + IndexExpr(backwards ? 1 : -1));
  auto addInput = [&](NodeId consumer, int slot, Edge e, Condition c) {
    e.id = -1;
    e.consumer = consumer;
    e.inputIndex = slot;
    e.condition = std::move(c);
    graph.addEdge(e);
  };
  auto newNode = [&](OpKind op) {
    Node n;
    n.op = op;
    n.domain = domain;
    n.type = r.type;
    n.loc = r.loc;
    NodeId nid = graph.addNode(n);
    change.added.insert(nid);
    return nid;
  };
  // acc[d] = x[0] at d == 0; acc[d - 1] + x[d] while d < stop; acc[d - 1] after (a prefix).
  // Backwards: acc[d] = x[end - 1] at d == end - 1, else acc[d + 1] + x[d], read at 0.
  NodeId acc = newNode(OpKind::Merge), add = newNode(OpKind::Add);
  addInput(add, 0, readOf(acc, previous, r.loc), Condition::always());
  addInput(add, 1, step, Condition::always());
  const IndexExpr coord = IndexExpr::dim(d);
  const IndexExpr first = backwards ? extent - IndexExpr(1) : IndexExpr(0), last = backwards ? IndexExpr(0) : extent - IndexExpr(1);
  addInput(acc, 0, step, Condition::of({Constraint{coord, Constraint::Rel::Eq, first}}));
  addInput(acc, 1, readOf(add, identityAtoms(domain), r.loc),
           whole ? Condition::always() : Condition::of({Constraint{coord, Constraint::Rel::Lt, *window.stop}}));
  if (!whole) addInput(acc, 2, readOf(acc, previous, r.loc), Condition::always());

  // The sum is the running sum's last value.
  Node& n = graph.node(id);
  n.op = OpKind::Identity;
  n.attrs = OpAttrs{};
  Edge& e = graph.edge(w->read.id);
  e.producer = acc;
  e.index.clear();
  for (const std::string& dim : domain)
    e.index.push_back(IndexAtom::point(dim == d ? last : IndexExpr::dim(dim)));
  change.rewritten.insert(id);
  return true;
}

bool splitWindowSum(Graph& graph, NodeId id, GraphChange& change) {
  const Node r = graph.node(id);
  std::optional<WindowSum> w = matchWindowSum(graph, r);
  if (!w || w->slices.size() < 2) return false;
  const Node& m = graph.node(w->read.producer);
  // Every window is whole, along a dimension the sum itself does not have.
  std::vector<std::string> outer;  // the windows' dimensions but the last
  for (size_t k = 0; k < w->slices.size(); ++k) {
    const std::string& d = m.domain[w->slices[k]];
    const IndexAtom& a = w->read.index[w->slices[k]];
    if (!(a.start == IndexExpr(0)) || !(*a.stop == IndexExpr::bound(graph.boundOf(d))) || contains(r.domain, d))
      return false;
    if (k + 1 < w->slices.size()) outer.push_back(d);
  }
  std::vector<std::string> innerDomain;
  for (const DimDecl& d : graph.dims)
    if (contains(r.domain, d.name) || contains(outer, d.name)) innerDomain.push_back(d.name);

  Edge innerRead = w->read;
  for (size_t k = 0; k + 1 < w->slices.size(); ++k)
    innerRead.index[w->slices[k]] = IndexAtom::point(IndexExpr::dim(m.domain[w->slices[k]]));
  OpAttrs lastAxis;
  lastAxis.axes = {0};
  NodeId inner = addReader(graph, OpKind::ReduceSum, lastAxis, innerDomain, innerRead, change);

  std::vector<IndexAtom> outerAtoms;
  for (const std::string& d : innerDomain)
    outerAtoms.push_back(contains(outer, d) ? IndexAtom::slice(IndexExpr(0), IndexExpr::bound(graph.boundOf(d)))
                                            : IndexAtom::point(IndexExpr::dim(d)));
  Edge& e = graph.edge(w->read.id);
  e.producer = inner;
  e.index = outerAtoms;
  Node& n = graph.node(id);
  n.attrs.axes.clear();
  for (size_t k = 0; k < outer.size(); ++k) n.attrs.axes.push_back(static_cast<int64_t>(k));
  change.rewritten.insert(id);
  return true;
}

bool sumEachBranch(Graph& graph, NodeId id, GraphChange& change) {
  const Node r = graph.node(id);
  std::optional<WindowSum> w = matchWindowSum(graph, r);
  if (!w) return false;
  const Node m = graph.node(w->read.producer);
  if (m.op != OpKind::Merge || graph.users(m.id).size() != 1 || isOutput(graph, m.id)) return false;
  // The window stacks m's dims at the slice atoms; every other dim is read at its own name, so a
  // branch's condition means the same over r's domain, and it must not mention a window's dim.
  std::vector<std::string> window;
  for (size_t j = 0; j < w->read.index.size(); ++j) {
    const IndexAtom& a = w->read.index[j];
    if (a.isSlice()) {
      window.push_back(m.domain[j]);
    } else if (!(a.start == IndexExpr::dim(m.domain[j])) || !contains(r.domain, m.domain[j])) {
      return false;
    }
  }
  struct Branch {
    Edge read;  // the branch read from r's domain (its window, or the zero itself), with its condition
    bool zero = false;
  };
  std::vector<Branch> branches;
  for (const Edge* in : graph.inputs(m.id)) {
    if (in->producer == m.id) return false;
    for (const Symbol& s : in->condition.symbols())
      if (contains(window, s.name)) return false;
    const Node& p = graph.node(in->producer);
    Branch b{*in, false};
    // A constant zero of the sum's own type: the sum of its copies over the window is itself.
    if (p.op == OpKind::Constant && p.attrs.value == 0 && p.domain.empty() && p.type == r.type) {
      b.zero = true;
    } else {
      Edge unconditional = *in;  // the condition stays the new merge's
      unconditional.condition = Condition::always();
      auto atoms = composeReads(m.domain, unconditional, w->read);
      if (!atoms) return false;
      b.read.index = *atoms;
      if (!(graph.readType(b.read) == graph.readType(w->read))) return false;
    }
    branches.push_back(std::move(b));
  }
  const NodeId sum = addInPlaceOf(graph, r, OpKind::Merge, r.loc, change);
  int slot = 0;
  for (Branch& b : branches) {
    Edge e = b.zero ? b.read
                    : readOf(addReader(graph, OpKind::ReduceSum, r.attrs, r.domain, b.read, change),
                             identityAtoms(r.domain), r.loc);
    e.id = -1;
    e.consumer = sum;
    e.inputIndex = slot++;
    e.condition = b.read.condition;
    graph.addEdge(e);
  }
  replaceSum(graph, id, m.id, sum, change);
  return true;
}

bool contractOuterProducts(Graph& graph, NodeId id, GraphChange& change) {
  const Node r = graph.node(id);
  std::optional<WindowSum> w = matchWindowSum(graph, r);
  if (!w || w->slices.size() != 1) return false;
  const Node m = graph.node(w->read.producer);
  if (m.op != OpKind::MatMul || graph.users(m.id).size() != 1 || isOutput(graph, m.id)) return false;
  auto ins = graph.inputs(m.id);
  if (ins.size() != 2) return false;
  const TensorType x = graph.readType(*ins[0]), y = graph.readType(*ins[1]);
  if (x.rank() != 2 || y.rank() != 2 || x.shape[1].constantValue() != 1 || y.shape[0].constantValue() != 1)
    return false;
  std::optional<std::vector<IndexAtom>> xAtoms, yAtoms;
  if (ins[0]->condition.isAlways() && ins[1]->condition.isAlways()) {
    xAtoms = composeReads(m.domain, *ins[0], w->read);
    yAtoms = composeReads(m.domain, *ins[1], w->read);
  }
  if (!xAtoms || !yAtoms) return false;
  const IndexExpr rows = w->read.index[w->slices[0]].size();

  // X^T @ Y with X = the window of x as [rows, K] and Y = the window of y as [rows, N].
  NodeId xs = addReader(graph, OpKind::Reshape, targetShape({rows, x.shape[0]}), r.domain,
                        readOf(ins[0]->producer, *xAtoms, ins[0]->loc), change);
  OpAttrs transpose;
  transpose.perm = {1, 0};
  NodeId xt = addReader(graph, OpKind::Permute, transpose, r.domain, readOf(xs, identityAtoms(r.domain), r.loc), change);
  NodeId ys = addReader(graph, OpKind::Reshape, targetShape({rows, y.shape[1]}), r.domain,
                        readOf(ins[1]->producer, *yAtoms, ins[1]->loc), change);
  const NodeId p = addInPlaceOf(graph, r, OpKind::MatMul, m.loc, change);
  for (int slot = 0; slot < 2; ++slot) {
    Edge operand = readOf(slot == 0 ? xt : ys, identityAtoms(r.domain), m.loc);
    operand.consumer = p;
    operand.inputIndex = slot;
    graph.addEdge(operand);
  }
  replaceSum(graph, id, m.id, p, change);
  return true;
}

}  // namespace tempo
