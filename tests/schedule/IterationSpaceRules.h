// IterationSpaceRules: the expected counts of an iteration-space picture,
// computed directly from the graph (independently of compiler/iteration), for
// the model's GoogleTests and the studio's Qt tests alike.
//  - dots: one per point of the domain of every node that has at least one
//    of the two chosen dimensions (nodes over neither are not drawn);
//  - arrows: for every edge whose producer and consumer are both drawn, and
//    every consumer point where the edge is live (its condition holds and,
//    into a merge, no lower-numbered input's condition holds), one arrow per
//    producer point it reads (a point atom reads one coordinate, a slice
//    lo:hi every coordinate in it) that lies inside the producer's domain.
#pragma once

#include "graph/Graph.h"

#include <algorithm>
#include <functional>

namespace tempo::testing {

inline bool drawnInPlane(const Node& n, const std::string& x, const std::string& y) {
  return std::count(n.domain.begin(), n.domain.end(), x) || std::count(n.domain.begin(), n.domain.end(), y);
}

inline void forEachInDomain(const Graph& g, const Node& n, const SymbolEnv& bounds,
                            const std::function<void(const std::vector<int64_t>&)>& f) {
  std::vector<int64_t> p(n.domain.size());
  std::function<void(size_t)> go = [&](size_t i) {
    if (i == p.size()) return f(p);
    for (p[i] = 0; p[i] < bounds.at(g.boundOf(n.domain[i])); ++p[i]) go(i + 1);
  };
  go(0);
}

inline size_t expectedDots(const Graph& g, const SymbolEnv& bounds, const std::string& x, const std::string& y) {
  size_t n = 0;
  for (const auto& [id, node] : g.nodes())
    if (drawnInPlane(node, x, y)) forEachInDomain(g, node, bounds, [&](const std::vector<int64_t>&) { ++n; });
  return n;
}

inline size_t expectedArrows(const Graph& g, const SymbolEnv& bounds, const std::string& x, const std::string& y) {
  size_t n = 0;
  for (const auto& [eid, e] : g.edges()) {
    const Node& c = g.node(e.consumer);
    const Node& p = g.node(e.producer);
    if (!drawnInPlane(c, x, y) || !drawnInPlane(p, x, y)) continue;
    forEachInDomain(g, c, bounds, [&](const std::vector<int64_t>& cp) {
      SymbolEnv env = bounds;
      for (size_t i = 0; i < cp.size(); ++i) env[c.domain[i]] = cp[i];
      if (!e.condition.holds(env)) return;
      if (c.op == OpKind::Merge)
        for (const Edge* other : g.inputs(c.id))
          if (other->inputIndex < e.inputIndex && other->condition.holds(env)) return;
      size_t reads = 1;
      for (size_t i = 0; i < e.index.size(); ++i) {
        int64_t lo = std::max<int64_t>(e.index[i].start.evaluate(env), 0);
        int64_t hi = e.index[i].isSlice() ? e.index[i].stop->evaluate(env) : e.index[i].start.evaluate(env) + 1;
        hi = std::min(hi, bounds.at(g.boundOf(p.domain[i])));
        reads *= hi > lo ? static_cast<size_t>(hi - lo) : 0;
      }
      n += reads;
    });
  }
  return n;
}

}  // namespace tempo::testing
