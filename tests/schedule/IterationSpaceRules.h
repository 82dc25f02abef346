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
// Domains are boxes cut by the graph's dimension guards (static tiling's
// blocks exist only where `BS*ds <= t`), with bounds derived as the graph says.
#pragma once

#include "graph/Graph.h"

#include <algorithm>
#include <functional>

namespace tempo::testing {

inline bool drawnInPlane(const Node& n, const std::string& x, const std::string& y) {
  return std::count(n.domain.begin(), n.domain.end(), x) || std::count(n.domain.begin(), n.domain.end(), y);
}

/// True when the node point `env` satisfies every guard of the node's own
/// dimensions (a guard naming a dimension the node lacks does not cut it).
inline bool insideGuards(const Graph& g, const Node& n, const SymbolEnv& env) {
  for (const std::string& d : n.domain) {
    auto guard = g.dimGuards.find(d);
    if (guard == g.dimGuards.end()) continue;
    try {
      if (!guard->second.holds(env)) return false;
    } catch (const std::exception&) {  // names a dimension the node lacks
    }
  }
  return true;
}

inline SymbolEnv pointEnv(const SymbolEnv& bounds, const Node& n, const std::vector<int64_t>& p) {
  SymbolEnv env = bounds;
  for (size_t i = 0; i < p.size(); ++i) env[n.domain[i]] = p[i];
  return env;
}

/// Calls `f` on every point of `n`'s guarded domain box, each coordinate i in [lo[i], hi[i]).
inline void forEachInBox(const Graph& g, const Node& n, const SymbolEnv& bounds, const std::vector<int64_t>& lo,
                         const std::vector<int64_t>& hi, const std::function<void(const std::vector<int64_t>&)>& f) {
  std::vector<int64_t> p(n.domain.size());
  std::function<void(size_t)> go = [&](size_t i) {
    if (i == p.size()) {
      if (insideGuards(g, n, pointEnv(bounds, n, p))) f(p);
      return;
    }
    for (p[i] = lo[i]; p[i] < hi[i]; ++p[i]) go(i + 1);
  };
  go(0);
}

inline void forEachInDomain(const Graph& g, const Node& n, const SymbolEnv& bounds,
                            const std::function<void(const std::vector<int64_t>&)>& f) {
  std::vector<int64_t> lo(n.domain.size(), 0), hi;
  for (const std::string& d : n.domain) hi.push_back(bounds.at(g.boundOf(d)));
  forEachInBox(g, n, bounds, lo, hi, f);
}

inline size_t expectedDots(const Graph& g, const SymbolEnv& given, const std::string& x, const std::string& y) {
  const SymbolEnv bounds = g.withDerivedBounds(given);
  size_t n = 0;
  for (const auto& [id, node] : g.nodes())
    if (drawnInPlane(node, x, y)) forEachInDomain(g, node, bounds, [&](const std::vector<int64_t>&) { ++n; });
  return n;
}

inline size_t expectedArrows(const Graph& g, const SymbolEnv& given, const std::string& x, const std::string& y) {
  const SymbolEnv bounds = g.withDerivedBounds(given);
  size_t n = 0;
  for (const auto& [eid, e] : g.edges()) {
    const Node& c = g.node(e.consumer);
    const Node& p = g.node(e.producer);
    if (!drawnInPlane(c, x, y) || !drawnInPlane(p, x, y)) continue;
    forEachInDomain(g, c, bounds, [&](const std::vector<int64_t>& cp) {
      SymbolEnv env = pointEnv(bounds, c, cp);
      if (!e.condition.holds(env)) return;
      if (c.op == OpKind::Merge)
        for (const Edge* other : g.inputs(c.id))
          if (other->inputIndex < e.inputIndex && other->condition.holds(env)) return;
      std::vector<int64_t> lo, hi;
      for (size_t i = 0; i < e.index.size(); ++i) {
        lo.push_back(std::max<int64_t>(e.index[i].start.evaluate(env), 0));
        int64_t stop = e.index[i].isSlice() ? e.index[i].stop->evaluate(env) : e.index[i].start.evaluate(env) + 1;
        hi.push_back(std::min(stop, bounds.at(g.boundOf(p.domain[i]))));
      }
      forEachInBox(g, p, bounds, lo, hi, [&](const std::vector<int64_t>&) { ++n; });
    });
  }
  return n;
}

}  // namespace tempo::testing
