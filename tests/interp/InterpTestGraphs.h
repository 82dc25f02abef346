// InterpTestGraphs: small helpers for building SDGs by hand in interpreter tests.
//
// The interpreter tests do not go through the front end: they assemble graphs
// node by node with these helpers (a node with its op, domain, type and
// attributes; an edge with its index atoms and condition), so each test shows
// exactly the graph it evaluates.
#pragma once

#include "graph/Graph.h"

#include <string>
#include <vector>

namespace tempo::interp_test {

inline IndexExpr dim(const std::string& name) { return IndexExpr::dim(name); }
inline IndexExpr bound(const std::string& name) { return IndexExpr::bound(name); }

inline TensorType f32(std::vector<IndexExpr> shape = {}) { return {DType::F32, std::move(shape)}; }
inline TensorType i64(std::vector<IndexExpr> shape = {}) { return {DType::I64, std::move(shape)}; }

inline NodeId addNode(Graph& g, OpKind op, std::vector<std::string> domain, TensorType type,
                      OpAttrs attrs = {}, std::string name = "") {
  Node n;
  n.op = op;
  n.domain = std::move(domain);
  n.type = std::move(type);
  n.attrs = std::move(attrs);
  n.name = std::move(name);
  return g.addNode(std::move(n));
}

inline void addEdge(Graph& g, NodeId consumer, int slot, NodeId producer, std::vector<IndexAtom> index,
                    Condition condition = Condition::always()) {
  Edge e;
  e.consumer = consumer;
  e.inputIndex = slot;
  e.producer = producer;
  e.index = std::move(index);
  e.condition = std::move(condition);
  g.addEdge(std::move(e));
}

inline IndexAtom at(IndexExpr e) { return IndexAtom::point(std::move(e)); }
inline IndexAtom range(IndexExpr lo, IndexExpr hi) { return IndexAtom::slice(std::move(lo), std::move(hi)); }

inline Condition when(IndexExpr lhs, Constraint::Rel rel, IndexExpr rhs) {
  return Condition::of({Constraint{std::move(lhs), rel, std::move(rhs)}});
}

inline OpAttrs constantAttrs(double v) {
  OpAttrs a;
  a.value = v;
  return a;
}

inline OpAttrs indexAttrs(IndexExpr e) {
  OpAttrs a;
  a.index = std::move(e);
  return a;
}

inline OpAttrs reduceAttrs(std::vector<int64_t> axes) {
  OpAttrs a;
  a.axes = std::move(axes);
  return a;
}

inline OpAttrs hashAttrs(uint64_t key, double scale) {
  OpAttrs a;
  a.seed = key;
  a.b = scale;
  return a;
}

inline OpAttrs loadAttrs(const std::string& path) {
  OpAttrs a;
  a.path = path;
  a.displayPath = path;
  return a;
}

/// The ids of the counter graph.
struct CounterGraph {
  NodeId one = -1, inc = -1, c = -1;
};

/// c[t] = 1 if t == 0 else c[t - 1] + 1, over `t < T`, output `c`.
inline CounterGraph buildCounter(Graph& g) {
  const IndexExpr t = dim("t");
  g.dims = {{"t", "T"}};
  CounterGraph k;
  k.one = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(1));
  k.inc = addNode(g, OpKind::Add, {"t"}, f32());
  k.c = addNode(g, OpKind::Merge, {"t"}, f32(), {}, "c");
  addEdge(g, k.inc, 0, k.c, {at(t - 1)});
  addEdge(g, k.inc, 1, k.one, {});
  addEdge(g, k.c, 0, k.one, {}, when(t, Constraint::Rel::Eq, 0));
  addEdge(g, k.c, 1, k.inc, {at(t)}, when(t, Constraint::Rel::Ge, 1));
  g.outputs = {{"c", k.c, {}}};
  return k;
}

/// a[t] = b[t], b[t] = a[t] over `t < T` (%0 and %1): a cycle at one point, which no schedule orders.
inline Graph samePointCycle() {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId a = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "a");
  NodeId b = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "b");
  addEdge(g, a, 0, b, {at(dim("t"))});
  addEdge(g, b, 0, a, {at(dim("t"))});
  return g;
}

}  // namespace tempo::interp_test
