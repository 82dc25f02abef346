// LoopEnumeration: running a LoopProgram at concrete bounds without an executor.
//
// `enumerateExecutions` walks the loop AST at one bound assignment,
// evaluating loop bounds and guards with IndexExpr::evaluate, and returns the
// sequence of (node, point) executions in order. `checkExecutionOrder` then
// checks the two properties a schedule must have, directly from the graph
// (not from the scheduler's own relations): every point of every node's
// domain runs exactly once, and for every edge, wherever the consumer reads
// (the edge's guard holds and, for a merge, no earlier branch's does), every
// producer point it reads that lies in the producer's domain ran earlier.
#pragma once

#include "graph/Graph.h"
#include "schedule/LoopAst.h"

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tempo::testing {

struct Execution {
  NodeId node = -1;
  std::vector<int64_t> point;
  bool operator<(const Execution& o) const { return std::tie(node, point) < std::tie(o.node, o.point); }
};

inline void enumerateBody(const LoopBody& body, SymbolEnv& env, std::vector<Execution>& out, size_t limit) {
  for (const LoopStmt& s : body) {
    if (const auto* f = s.as<ForStmt>()) {
      int64_t lo = f->lower.evaluate(env), hi = f->upper.evaluate(env);
      for (int64_t v = lo; v < hi; v += f->step) {
        env[f->var] = v;
        enumerateBody(f->body, env, out, limit);
      }
      env.erase(f->var);
    } else if (const auto* i = s.as<IfStmt>()) {
      enumerateBody(i->condition.holds(env) ? i->thenBody : i->elseBody, env, out, limit);
    } else if (const auto* e = s.as<ExecStmt>()) {
      Execution x{e->node, {}};
      for (const IndexExpr& p : e->point) x.point.push_back(p.evaluate(env));
      out.push_back(std::move(x));
      if (out.size() > limit) throw std::runtime_error("too many executions");
    }
  }
}

inline std::vector<Execution> enumerateExecutions(const LoopProgram& p, const SymbolEnv& bounds,
                                                  size_t limit = 2'000'000) {
  SymbolEnv env = bounds;
  std::vector<Execution> out;
  enumerateBody(p.body, env, out, limit);
  return out;
}

/// Calls `f` with every point of the box 0 <= x_i < extent_i.
inline void forEachPoint(const std::vector<std::pair<int64_t, int64_t>>& ranges,
                         const std::function<void(const std::vector<int64_t>&)>& f) {
  std::vector<int64_t> x(ranges.size());
  std::function<void(size_t)> rec = [&](size_t i) {
    if (i == ranges.size()) return f(x);
    for (x[i] = ranges[i].first; x[i] < ranges[i].second; ++x[i]) rec(i + 1);
  };
  rec(0);
}

inline std::vector<std::pair<int64_t, int64_t>> domainBox(const Graph& g, const Node& n, const SymbolEnv& bounds) {
  std::vector<std::pair<int64_t, int64_t>> box;
  for (const std::string& d : n.domain) box.push_back({0, bounds.at(g.boundOf(d))});
  return box;
}

inline std::string pointText(const Graph& g, NodeId id, const std::vector<int64_t>& p) {
  std::string s = "%" + std::to_string(id) + "[";
  for (size_t i = 0; i < p.size(); ++i) s += (i ? ", " : "") + std::to_string(p[i]);
  return s + "]";
}

/// "" when the run is a valid execution of `g`, else the first problem found.
inline std::string checkExecutionOrder(const Graph& g, const std::vector<Execution>& run, const SymbolEnv& bounds) {
  std::map<Execution, size_t> when;
  for (size_t i = 0; i < run.size(); ++i)
    if (!when.emplace(run[i], i).second) return "ran twice: " + pointText(g, run[i].node, run[i].point);
  size_t expected = 0;
  std::string problem;
  for (const auto& [id, n] : g.nodes())
    forEachPoint(domainBox(g, n, bounds), [&](const std::vector<int64_t>& p) {
      ++expected;
      if (problem.empty() && !when.count({id, p})) problem = "never ran: " + pointText(g, id, p);
    });
  if (!problem.empty()) return problem;
  if (expected != run.size()) return "ran points outside the domains";
  for (const auto& [eid, e] : g.edges()) {
    const Node& c = g.node(e.consumer);
    const Node& p = g.node(e.producer);
    std::vector<const Edge*> siblings = g.inputs(e.consumer);
    forEachPoint(domainBox(g, c, bounds), [&](const std::vector<int64_t>& cp) {
      if (!problem.empty()) return;
      SymbolEnv env = bounds;
      for (size_t i = 0; i < cp.size(); ++i) env[c.domain[i]] = cp[i];
      if (!e.condition.holds(env)) return;
      if (c.op == OpKind::Merge)
        for (const Edge* s : siblings)
          if (s->inputIndex < e.inputIndex && s->condition.holds(env)) return;
      std::vector<std::pair<int64_t, int64_t>> ranges;
      for (size_t i = 0; i < e.index.size(); ++i) {
        int64_t lo = e.index[i].start.evaluate(env);
        int64_t hi = e.index[i].isSlice() ? e.index[i].stop->evaluate(env) : lo + 1;
        int64_t extent = bounds.at(g.boundOf(p.domain[i]));
        ranges.push_back({std::max<int64_t>(lo, 0), std::min(hi, extent)});
      }
      size_t consumerAt = when.at({c.id, cp});
      forEachPoint(ranges, [&](const std::vector<int64_t>& pp) {
        if (problem.empty() && when.at({p.id, pp}) >= consumerAt)
          problem = pointText(g, c.id, cp) + " reads " + pointText(g, p.id, pp) + " before it ran (edge " + e.str() + ")";
      });
    });
  }
  return problem;
}

}  // namespace tempo::testing
