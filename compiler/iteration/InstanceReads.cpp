#include "iteration/InstanceReads.h"

#include <algorithm>
#include <stdexcept>

namespace tempo {

namespace {

using Ranges = std::vector<std::pair<int64_t, int64_t>>;

void forEachInBox(const Ranges& ranges, const std::function<void(const std::vector<int64_t>&)>& f) {
  std::vector<int64_t> x(ranges.size());
  std::function<void(size_t)> rec = [&](size_t i) {
    if (i == ranges.size()) return f(x);
    for (x[i] = ranges[i].first; x[i] < ranges[i].second; ++x[i]) rec(i + 1);
  };
  rec(0);
}

int64_t extentOf(const Graph& g, const std::string& dim, const SymbolEnv& bounds) {
  auto it = bounds.find(g.boundOf(dim));
  if (it == bounds.end()) throw std::invalid_argument("no value for the bound of dimension " + dim);
  return it->second;
}

/// True when the point `p` of `n` satisfies the guard of each of its dimensions that has one
/// (static tiling's `BS*ds <= t`); a guard naming a symbol the point lacks does not cut it.
bool insideGuards(const Graph& g, const Node& n, const std::vector<int64_t>& p, const SymbolEnv& bounds) {
  if (g.dimGuards.empty()) return true;
  SymbolEnv env;
  for (const std::string& d : n.domain) {
    auto guard = g.dimGuards.find(d);
    if (guard == g.dimGuards.end()) continue;
    if (env.empty()) env = instanceEnv(n, p, bounds);
    try {
      if (!guard->second.holds(env)) return false;
    } catch (const std::out_of_range&) {  // names a dimension the node lacks: it runs on the whole range
    }
  }
  return true;
}

}  // namespace

SymbolEnv instanceEnv(const Node& consumer, const std::vector<int64_t>& point, const SymbolEnv& bounds) {
  SymbolEnv env = bounds;
  for (size_t i = 0; i < point.size() && i < consumer.domain.size(); ++i) env[consumer.domain[i]] = point[i];
  return env;
}

bool edgeLiveAt(const Graph& g, const Edge& e, const SymbolEnv& env) {
  if (!e.condition.holds(env)) return false;
  if (g.node(e.consumer).op != OpKind::Merge) return true;
  for (const Edge* s : g.inputs(e.consumer))
    if (s->inputIndex < e.inputIndex && s->condition.holds(env)) return false;
  return true;
}

void forEachReadPoint(const Graph& g, const Edge& e, const SymbolEnv& env, const SymbolEnv& bounds,
                      const std::function<void(const std::vector<int64_t>&)>& f) {
  const Node& p = g.node(e.producer);
  Ranges ranges;
  for (size_t i = 0; i < e.index.size() && i < p.domain.size(); ++i) {
    int64_t lo = e.index[i].start.evaluate(env);
    int64_t hi = e.index[i].isSlice() ? e.index[i].stop->evaluate(env) : lo + 1;
    ranges.push_back({std::max<int64_t>(lo, 0), std::min(hi, extentOf(g, p.domain[i], bounds))});
  }
  forEachInBox(ranges, [&](const std::vector<int64_t>& point) {
    if (insideGuards(g, p, point, bounds)) f(point);
  });
}

int64_t domainSize(const Graph& g, const Node& n, const SymbolEnv& bounds) {
  int64_t size = 1;
  for (const std::string& d : n.domain) size *= extentOf(g, d, bounds);
  return size;
}

void forEachDomainPoint(const Graph& g, const Node& n, const SymbolEnv& bounds,
                        const std::function<void(const std::vector<int64_t>&)>& f) {
  Ranges ranges;
  for (const std::string& d : n.domain) ranges.push_back({0, extentOf(g, d, bounds)});
  forEachInBox(ranges, [&](const std::vector<int64_t>& point) {
    if (insideGuards(g, n, point, bounds)) f(point);
  });
}

}  // namespace tempo
