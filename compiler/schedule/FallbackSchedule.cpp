// FallbackSchedule: components in topological order, a searched loop order inside.
#include "schedule/FallbackSchedule.h"

#include "graph/GraphAlgorithms.h"

#include "schedule/IslPtr.h"
#include "schedule/ScheduleCheck.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>

namespace tempo {

namespace {

/// Kahn's algorithm over `nodes` with the edges `accept` keeps; ties by
/// smallest key; leftovers (on a cycle) are appended by key.
std::vector<int> topologicalOrder(int n, const std::vector<std::pair<int, int>>& arcs) {
  std::vector<int> indegree(n, 0);
  std::vector<std::vector<int>> succ(n);
  for (auto [a, b] : arcs)
    if (a != b) {
      succ[a].push_back(b);
      ++indegree[b];
    }
  std::set<int> ready;
  for (int i = 0; i < n; ++i)
    if (!indegree[i]) ready.insert(i);
  std::vector<int> order;
  std::vector<bool> placed(n, false);
  while (!ready.empty()) {
    int v = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(v);
    placed[v] = true;
    for (int w : succ[v])
      if (--indegree[w] == 0) ready.insert(w);
  }
  for (int i = 0; i < n; ++i)
    if (!placed[i]) order.push_back(i);
  return order;
}

struct LoopChoice {
  std::vector<std::string> order;  ///< dimension names, outermost first
  std::vector<int> sign;           ///< +1 forwards, -1 backwards
};

/// Every loop order of `dims` with every direction, declaration order and forwards first.
std::vector<LoopChoice> loopChoices(const std::vector<std::string>& dims) {
  std::vector<LoopChoice> out;
  std::vector<size_t> perm(dims.size());
  std::iota(perm.begin(), perm.end(), 0);
  do {
    for (unsigned mask = 0; mask < (1u << dims.size()); ++mask) {
      LoopChoice c;
      for (size_t i = 0; i < perm.size(); ++i) {
        c.order.push_back(dims[perm[i]]);
        c.sign.push_back((mask >> i) & 1 ? -1 : 1);
      }
      out.push_back(c);
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

struct ComponentScheduler {
  const Graph& g;
  const DependenceRelations& rel;
  IslContext& ctx;
  std::vector<std::string> allDims;  ///< every dimension, declaration order

  std::string params() const {
    std::string s;
    for (size_t i = 0; i < rel.params.size(); ++i) s += (i ? ", " : "") + rel.params[i];
    return "[" + s + "] -> ";
  }

  /// `S_n[c0, c1] -> [comp, ±c1 or 0, ..., pos]`.
  std::string piece(NodeId id, int comp, int pos, const LoopChoice& loops) const {
    const Node& n = g.node(id);
    std::string vars, time = std::to_string(comp);
    for (size_t i = 0; i < n.domain.size(); ++i) vars += (i ? ", " : "") + ("c" + std::to_string(i));
    // Time coordinates follow the chosen loop order, then the unused dims as 0.
    for (size_t k = 0; k < loops.order.size(); ++k) {
      auto own = std::find(n.domain.begin(), n.domain.end(), loops.order[k]);
      std::string coord = "0";
      if (own != n.domain.end())
        coord = std::string(loops.sign[k] < 0 ? "-" : "") + "c" + std::to_string(own - n.domain.begin());
      time += ", " + coord;
    }
    for (size_t k = loops.order.size(); k < allDims.size(); ++k) time += ", 0";
    return statementName(id) + "[" + vars + "] -> [" + time + ", " + std::to_string(pos) + "]";
  }

  std::string unionText(const std::vector<std::string>& pieces) const {
    std::string body;
    for (size_t i = 0; i < pieces.size(); ++i) body += (i ? "; " : "") + pieces[i];
    return params() + "{ " + body + " }";
  }

  std::string dependencesWithin(const std::set<NodeId>& members) const {
    std::vector<std::string> texts;
    for (const EdgeDependence& d : rel.dependences)
      if (members.count(d.producer) && members.count(d.consumer)) texts.push_back(d.validity);
    std::string body;
    for (const std::string& t : texts) {
      size_t open = t.find('{'), close = t.rfind('}');
      std::string b = t.substr(open + 1, close - open - 1);
      if (b.find_first_not_of(' ') == std::string::npos) continue;
      body += (body.empty() ? "" : "; ") + b;
    }
    return params() + "{ " + body + " }";
  }

  /// Same-point reads inside the component order its statements within one iteration.
  std::vector<NodeId> positions(const std::vector<NodeId>& members) const {
    std::map<NodeId, int> local;
    for (size_t i = 0; i < members.size(); ++i) local[members[i]] = static_cast<int>(i);
    std::vector<std::pair<int, int>> arcs;
    for (const auto& [id, e] : g.edges())
      if (local.count(e.producer) && local.count(e.consumer) &&
          e.isIdentityRead(g.node(e.producer).domain))
        arcs.push_back({local[e.producer], local[e.consumer]});
    std::vector<NodeId> out;
    for (int i : topologicalOrder(static_cast<int>(members.size()), arcs)) out.push_back(members[i]);
    return out;
  }

  /// The pieces of one component, with the first loop choice its dependences allow.
  std::vector<std::string> schedule(const std::vector<NodeId>& members, int comp) const {
    std::vector<NodeId> ordered = positions(members);
    std::set<NodeId> memberSet(members.begin(), members.end());
    std::vector<std::string> used;
    for (const std::string& dim : allDims)
      for (NodeId id : members)
        if (std::count(g.node(id).domain.begin(), g.node(id).domain.end(), dim)) {
          used.push_back(dim);
          break;
        }
    std::string deps = dependencesWithin(memberSet);
    bool trivial = deps.find("S_") == std::string::npos;
    for (const LoopChoice& loops : loopChoices(used)) {
      std::vector<std::string> pieces;
      for (size_t pos = 0; pos < ordered.size(); ++pos)
        pieces.push_back(piece(ordered[pos], comp, static_cast<int>(pos), loops));
      if (trivial || scheduleRespects(ctx, deps, unionText(pieces))) return pieces;
    }
    std::string names;
    for (NodeId id : members) names += " %" + std::to_string(id);
    throw IslError("fallback schedule: no loop order respects the dependences of the cycle through" + names);
  }
};

}  // namespace

std::string buildFallbackSchedule(const Graph& g, const DependenceRelations& rel, IslContext& ctx) {
  ComponentScheduler s{g, rel, ctx, {}};
  for (const DimDecl& d : g.dims) s.allDims.push_back(d.name);
  for (const auto& [id, n] : g.nodes())
    for (const std::string& dim : n.domain)
      if (std::find(s.allDims.begin(), s.allDims.end(), dim) == s.allDims.end()) s.allDims.push_back(dim);

  std::vector<std::vector<NodeId>> comps = stronglyConnectedComponents(g);
  std::map<NodeId, int> compOf;
  for (size_t i = 0; i < comps.size(); ++i)
    for (NodeId id : comps[i]) compOf[id] = static_cast<int>(i);
  // Order components topologically, ties by their smallest node id.
  std::vector<size_t> byFirst(comps.size());
  std::iota(byFirst.begin(), byFirst.end(), 0);
  std::sort(byFirst.begin(), byFirst.end(), [&](size_t a, size_t b) { return comps[a][0] < comps[b][0]; });
  std::vector<int> rank(comps.size());
  for (size_t i = 0; i < byFirst.size(); ++i) rank[byFirst[i]] = static_cast<int>(i);
  std::vector<std::pair<int, int>> arcs;
  for (const auto& [id, e] : g.edges())
    if (compOf[e.producer] != compOf[e.consumer]) arcs.push_back({rank[compOf[e.producer]], rank[compOf[e.consumer]]});
  std::vector<int> order = topologicalOrder(static_cast<int>(comps.size()), arcs);

  std::vector<std::string> pieces;
  for (size_t k = 0; k < order.size(); ++k)
    for (const std::string& p : s.schedule(comps[byFirst[order[k]]], static_cast<int>(k))) pieces.push_back(p);
  std::string text = s.unionText(pieces);
  if (!scheduleRespects(ctx, rel.validityUnion(), text))
    throw IslError("fallback schedule violates dependences: " +
                   scheduleViolations(ctx, rel.validityUnion(), text));
  return text;
}

}  // namespace tempo
