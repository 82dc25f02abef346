#include "memory/SwapPlacement.h"

#include "memory/BudgetFloor.h"
#include "memory/BufferSharing.h"

#include "memory/MemoryPrediction.h"
#include "memory/RecomputeCost.h"

#include <algorithm>
#include <map>
#include <set>

namespace tempo {

namespace {

void executedNodes(const LoopBody& body, std::set<NodeId>& out, std::map<NodeId, int>& execs) {
  for (const LoopStmt& s : body) {
    if (const auto* f = s.as<ForStmt>()) executedNodes(f->body, out, execs);
    if (const auto* i = s.as<IfStmt>()) executedNodes(i->thenBody, out, execs), executedNodes(i->elseBody, out, execs);
    if (const auto* e = s.as<ExecStmt>()) out.insert(e->node), ++execs[e->node];
  }
}

bool isMemoryStatement(const LoopStmt& s) { return !s.as<ForStmt>() && !s.as<IfStmt>() && !s.as<ExecStmt>(); }

/// The first line of a statement's printed form (`for c0 in 0..T:`, `exec %4 h`).
std::string headline(const Graph& g, const LoopStmt& s) {
  std::string text = printLoopProgram(g, LoopProgram{{s}});
  return text.substr(0, text.find('\n'));
}

struct Candidate {
  NodeId node;
  size_t alloc = 0, free = 0;  ///< top-level indices
  std::vector<size_t> uses;    ///< top-level indices of the statements that write or read it
  StoreBytes bytes;
  int64_t value = 0;
  std::set<NodeId> users;      ///< the node and its readers
};

/// The positions of `body`'s elements that run one of `users`.
std::vector<size_t> usesIn(const std::vector<std::set<NodeId>>& executed, const std::set<NodeId>& users) {
  std::vector<size_t> out;
  for (size_t i = 0; i < executed.size(); ++i)
    if (std::any_of(users.begin(), users.end(), [&](NodeId u) { return executed[i].count(u) > 0; })) out.push_back(i);
  return out;
}

/// What each element of `body` executes.
std::vector<std::set<NodeId>> executedBy(const LoopBody& body, std::map<NodeId, int>& execs) {
  std::vector<std::set<NodeId>> out(body.size());
  for (size_t i = 0; i < body.size(); ++i) executedNodes({body[i]}, out[i], execs);
  return out;
}

/// A store out of memory between two uses: swapped out and in, or freed and recomputed.
struct Eviction {
  NodeId node;
  size_t outAfter, inBefore;  ///< positions in the body it is placed in
  StoreBytes bytes;
  bool recompute = false;
};

/// `body` with the swaps of `evictions` (positions in it) placed.
LoopBody withSwaps(const LoopBody& body, const std::vector<Eviction>& evictions) {
  LoopBody out;
  for (size_t i = 0; i < body.size(); ++i) {
    for (const Eviction& e : evictions)
      if (e.inBefore == i) out.push_back({SwapInStmt{e.node, e.bytes}});
    out.push_back(body[i]);
    for (const Eviction& e : evictions)
      if (e.outAfter == i) out.push_back({SwapOutStmt{e.node, e.bytes}});
  }
  return out;
}

}  // namespace

std::string SwapPlan::infeasibility() const {
  return "no schedule fits in " + std::to_string(budget) + " B: " + floorReason;
}

std::string SwapPlan::report() const {
  if (!feasible()) return "memory budget " + std::to_string(budget) + " B: infeasible, " + infeasibility() + "\n";
  std::string out = "memory budget " + std::to_string(budget) + " B: " + (met() ? "met" : "not met by the plan (the rest is paged at run time)") +
                    ", predicted peak " + std::to_string(predictedPeak) + " B, " + std::to_string(swaps.size()) +
                    (swaps.size() == 1 ? " swap, " : " swaps, ") + std::to_string(recomputes.size()) +
                    (recomputes.size() == 1 ? " recompute\n" : " recomputes\n");
  for (const std::string& s : swaps) out += "  swap " + s + "\n";
  for (const std::string& s : recomputes) out += "  recompute " + s + "\n";
  for (const std::string& s : unmet) out += "  over budget in the plan: " + s + "\n";
  return out;
}

SwapPlan placeSwaps(const Graph& g, const LoopProgram& placed, const SymbolEnv& bounds, int64_t budget) {
  const LoopBody& top = placed.body;
  const std::vector<SharedBuffer> shared = sharedBuffers(g, bounds);
  MemoryPrediction before = predictMemory(placed, bounds, shared);
  std::set<NodeId> outputs;
  for (const GraphOutput& o : g.outputs) outputs.insert(o.node);

  std::map<NodeId, int> execs;
  std::vector<std::set<NodeId>> executed = executedBy(top, execs);
  std::map<NodeId, size_t> topExec;  ///< the top-level exec of a node executed once, there
  for (size_t i = 0; i < top.size(); ++i)
    if (const auto* e = top[i].as<ExecStmt>()) topExec[e->node] = i;
  std::map<NodeId, Candidate> candidates;
  std::map<NodeId, size_t> outputAllocs;  ///< top-level index of each output's Alloc
  for (size_t i = 0; i < top.size(); ++i) {
    if (const auto* a = top[i].as<AllocStmt>(); a && outputs.count(a->node)) outputAllocs[a->node] = i;
    if (const auto* a = top[i].as<AllocStmt>(); a && !outputs.count(a->node))
      candidates[a->node] = {a->node, i, top.size(), {}, a->bytes, before.allocated[a->node], {}};
    if (const auto* f = top[i].as<FreeStmt>(); f && candidates.count(f->node)) candidates[f->node].free = i;
  }
  for (auto& [id, c] : candidates) {
    c.users = {id};
    for (const Edge* e : g.users(id)) c.users.insert(e->consumer);
    c.uses = usesIn(executed, c.users);
  }

  SwapPlan plan;
  plan.budget = budget;
  std::map<NodeId, int64_t> outputBytes;  // an output holding another output's buffers counts once
  for (NodeId o : outputs)
    if (std::none_of(shared.begin(), shared.end(), [&](const SharedBuffer& s) {
          return s.holder == o && outputs.count(s.producer) && s.producer != o;
        }))
      outputBytes[o] = before.allocated[o];
  BudgetFloor floor = budgetFloor(g, bounds, outputBytes, before.allocated);
  plan.floor = floor.bytes;
  plan.floorReason = floor.why;
  if (!plan.feasible()) {
    plan.program = placed;
    plan.predictedPeak = before.peakBytes;
    return plan;
  }
  std::vector<int64_t> saved(top.size(), 0);
  std::vector<Eviction> evictions;
  // `v` can be computed again right before statement `next`: executed once, by
  // a top-level exec, from inputs computed before it that are in memory then
  // (allocated at the top level around `next`, not evicted across it).
  auto recomputable = [&](NodeId v, size_t next) {
    auto at = topExec.find(v);
    if (at == topExec.end() || execs[v] != 1) return false;
    for (const Edge* e : g.inputs(v)) {
      const NodeId u = e->producer;
      for (size_t i = at->second; i < top.size(); ++i)
        if (executed[i].count(u)) return false;
      auto c = candidates.find(u);
      bool live = c != candidates.end() ? c->second.alloc < next && c->second.free > next
                                        : outputAllocs.count(u) && outputAllocs[u] < next;
      if (!live) return false;
      for (const Eviction& ev : evictions)  // a swap back in right before `next` comes first
        if (ev.node == u && ev.outAfter < next && (next < ev.inBefore || (next == ev.inBefore && ev.recompute)))
          return false;
    }
    return true;
  };
  std::set<std::pair<NodeId, size_t>> swappedGaps;  ///< (node, previous use)
  std::map<size_t, std::vector<Eviction>> inside;    ///< top-level loop -> swaps placed in its body
  std::map<size_t, std::vector<Eviction>> afterLoop; ///< top-level loop -> stores swapped in after it
  // Inside a top-level loop `p` still over the budget: the stores allocated
  // around it and used by it, swapped out after a use and in before the next
  // use of the same iteration (Belady again, per element of the body, at its
  // worst iteration). Returns the loop's peak after them.
  auto evictInside = [&](size_t p, const ForStmt& loop) {
    const std::vector<int64_t> peak = predictMemory(placed, bounds, shared, nullptr, &loop.body).focusPeakDuring;
    const int64_t around = before.peakDuring[p] - saved[p];
    if (peak.size() != loop.body.size()) return around;
    std::map<NodeId, int> unused;
    const std::vector<std::set<NodeId>> runs = executedBy(loop.body, unused);
    std::map<NodeId, std::vector<size_t>> usesInBody;  ///< per store: the body positions that use it
    for (const auto& [id, c] : candidates) usesInBody[id] = usesIn(runs, c.users);
    std::vector<int64_t> freed(peak.size(), 0);
    std::set<std::pair<NodeId, size_t>> gaps;
    // A store allocated around the loop, used by it, not swapped out across it.
    auto usable = [&](const Candidate& c) {
      if (c.alloc > p || c.free < p || c.value == 0 || !std::binary_search(c.uses.begin(), c.uses.end(), p)) return false;
      return std::none_of(evictions.begin(), evictions.end(),
                          [&](const Eviction& e) { return e.node == c.node && e.outAfter < p && p < e.inBefore; });
    };
    // Out after body position `prev`, in before `next` (past the end: the next iteration's `next - size`).
    auto record = [&](const Candidate& c, size_t prev, size_t next) {
      gaps.insert({c.node, prev});
      const bool wraps = next >= peak.size();
      const size_t in = wraps ? next - peak.size() : next;
      inside[p].push_back({c.node, prev, in, c.bytes, false});
      if (wraps) afterLoop[p].push_back({c.node, p, p + 1, c.bytes, false});
      plan.swaps.push_back(statementLabel(g, c.node) + " (" + std::to_string(c.value) + " B): out after `" +
                           headline(g, loop.body[prev]) + "`, in before `" + headline(g, loop.body[in]) +
                           (wraps ? "` of the next iteration" : "`") + ", every iteration of `" + headline(g, top[p]) +
                           "` (statement " + std::to_string(p) + ")" + (wraps ? ", and in after it" : ""));
    };
    for (size_t q = 0; q < peak.size(); ++q) {
      if (isMemoryStatement(loop.body[q])) continue;
      while (peak[q] - saved[p] - freed[q] > budget) {
        const Candidate* best = nullptr;
        size_t bestPrev = 0, bestNext = 0;
        for (const auto& [id, c] : candidates) {
          if (!usable(c)) continue;
          const std::vector<size_t>& uses = usesInBody[id];
          if (uses.empty() || std::binary_search(uses.begin(), uses.end(), q)) continue;
          // Before a later use of the same iteration, or (after its last use)
          // before its first use in the next one: `next` counts past the end.
          auto next = std::upper_bound(uses.begin(), uses.end(), q);
          if (next == uses.begin()) continue;  // before its first use: the first iteration has it in memory
          const size_t prev = *std::prev(next), at = next == uses.end() ? uses.front() + peak.size() : *next;
          if (gaps.count({id, prev})) continue;
          if (!best || at > bestNext || (at == bestNext && c.value > best->value))
            best = &c, bestPrev = prev, bestNext = at;
        }
        if (!best) break;
        record(*best, bestPrev, bestNext);
        for (size_t r = bestPrev + 1; r < std::min(bestNext, peak.size()); ++r) freed[r] += best->value;
      }
    }
    // The loop's peak with its swaps, walked again. The choice above counts a
    // store swapped after its last use as away from there to the end of the
    // body only; from the second iteration on it is away before its first use
    // too. So the stores left are tried that way one by one, largest first,
    // each kept if the walked peak comes down.
    auto walked = [&] {
      LoopProgram trial = placed;
      trial.body[p].as<ForStmt>()->body = withSwaps(loop.body, inside[p]);
      return predictMemory(trial, bounds, shared).peakDuring[p] - saved[p];
    };
    int64_t result = inside.count(p) ? walked() : around;
    std::vector<const Candidate*> rest;
    for (const auto& [id, c] : candidates)
      if (usable(c)) rest.push_back(&c);
    std::stable_sort(rest.begin(), rest.end(), [](const Candidate* a, const Candidate* b) { return a->value > b->value; });
    for (const Candidate* c : rest) {
      if (result <= budget) break;
      const std::vector<size_t>& uses = usesInBody[c->node];
      if (uses.empty() || gaps.count({c->node, uses.back()})) continue;
      inside[p].push_back({c->node, uses.back(), uses.front(), c->bytes, false});
      const int64_t trial = walked();
      inside[p].pop_back();
      if (trial >= result) continue;
      record(*c, uses.back(), uses.front() + peak.size());
      result = trial;
    }
    return result;
  };
  for (size_t p = 0; p < top.size(); ++p) {
    if (isMemoryStatement(top[p])) continue;
    while (before.peakDuring[p] - saved[p] > budget) {
      const Candidate* best = nullptr;
      size_t bestPrev = 0, bestNext = 0;
      double bestCost = 0;  // per byte freed: a recompute's operations, or a swap's bytes moved (at the same rate)
      bool bestRecomputes = false;
      for (const auto& [id, c] : candidates) {
        if (c.alloc > p || c.free < p || c.value == 0 || c.uses.empty()) continue;
        auto next = std::upper_bound(c.uses.begin(), c.uses.end(), p);
        if (next == c.uses.end() || next == c.uses.begin() || *std::prev(next) == p) continue;  // used here
        size_t prev = *std::prev(next);
        if (swappedGaps.count({id, prev})) continue;
        const double swapCost = 2.0 * kFlopsPerByteMoved;
        const bool recomputes = recomputable(id, *next) && cheaperToRecompute(g, g.node(id), bounds, c.value);
        const double cost =
            recomputes ? static_cast<double>(recomputeFlops(g, g.node(id), bounds)) / c.value : swapCost;
        // Belady: the farthest next use; then the cheapest to bring back, then the largest.
        bool better = !best || *next > bestNext ||
                      (*next == bestNext && (cost < bestCost || (cost == bestCost && c.value > best->value)));
        if (better) best = &c, bestPrev = prev, bestNext = *next, bestCost = cost, bestRecomputes = recomputes;
      }
      if (!best) break;
      swappedGaps.insert({best->node, bestPrev});
      const Node& victim = g.node(best->node);
      const bool recompute = bestRecomputes;
      evictions.push_back({best->node, bestPrev, bestNext, best->bytes, recompute});
      for (size_t q = bestPrev + 1; q < bestNext; ++q) saved[q] += best->value;
      const std::string gap = statementLabel(g, best->node) + " (" + std::to_string(best->value) + " B): ";
      const std::string after = "after `" + headline(g, top[bestPrev]) + "` (statement " + std::to_string(bestPrev) + ")";
      if (recompute) {
        for (const Edge* e : g.inputs(best->node))  // the recompute reads them at bestNext
          if (auto c = candidates.find(e->producer); c != candidates.end())
            c->second.uses.insert(std::upper_bound(c->second.uses.begin(), c->second.uses.end(), bestNext), bestNext);
        plan.recomputes.push_back(gap + "freed " + after + ", computed again before statement " +
                                  std::to_string(bestNext) + ": " +
                                  std::to_string(recomputeFlops(g, victim, bounds)) + " operations against " +
                                  std::to_string(2 * best->value) + " B a swap moves");
      } else {
        plan.swaps.push_back(gap + "out " + after + ", in before statement " + std::to_string(bestNext));
      }
    }
    int64_t remaining = before.peakDuring[p] - saved[p];
    if (remaining > budget)
      if (const auto* loop = top[p].as<ForStmt>()) remaining = evictInside(p, *loop);
    if (remaining > budget) {
      std::string used;
      for (const auto& [id, c] : candidates)
        if (c.alloc < p && c.free > p && std::binary_search(c.uses.begin(), c.uses.end(), p))
          used += (used.empty() ? "" : ", ") + statementLabel(g, id) + " " + std::to_string(c.value) + " B";
      for (const auto& [o, at] : outputAllocs)
        if (at < p)
          used += (used.empty() ? "" : ", ") + statementLabel(g, o) + " " + std::to_string(before.allocated[o]) +
                  " B (an output)";
      int64_t inside = before.peakDuring[p] - before.liveBefore[p];
      plan.unmet.push_back("statement " + std::to_string(p) + " `" + headline(g, top[p]) + "` peaks at " +
                           std::to_string(remaining) + " B: " + std::to_string(inside) +
                           " B are allocated inside it, and the stores live around it are used by it or are outputs (" +
                           (used.empty() ? "none" : used) + ")");
    }
  }

  for (size_t i = 0; i < top.size(); ++i) {
    for (const Eviction& s : evictions)  // swaps first: a recompute may read what they bring back
      if (s.inBefore == i && !s.recompute) plan.program.body.push_back({SwapInStmt{s.node, s.bytes}});
    for (const Eviction& s : evictions)
      if (s.inBefore == i && s.recompute) {
        plan.program.body.push_back({AllocStmt{s.node, s.bytes, true}});
        plan.program.body.push_back(top[topExec.at(s.node)]);
      }
    if (auto in = inside.find(i); in != inside.end()) {
      ForStmt loop = *top[i].as<ForStmt>();
      loop.body = withSwaps(loop.body, in->second);
      plan.program.body.push_back({std::move(loop)});
      for (const Eviction& e : afterLoop[i]) plan.program.body.push_back({SwapInStmt{e.node, e.bytes}});
    } else {
      plan.program.body.push_back(top[i]);
    }
    for (const Eviction& s : evictions)
      if (s.outAfter == i)
        plan.program.body.push_back(s.recompute ? LoopStmt{FreeStmt{s.node, s.bytes}} : LoopStmt{SwapOutStmt{s.node, s.bytes}});
  }
  plan.predictedPeak = predictMemory(plan.program, bounds, shared).peakBytes;
  return plan;
}

}  // namespace tempo
