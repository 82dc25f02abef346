#include "executor/SwapPlacement.h"

#include "executor/BufferSharing.h"

#include "executor/MemoryPrediction.h"

#include <algorithm>
#include <map>
#include <set>

namespace tempo {

namespace {

void executedNodes(const LoopBody& body, std::set<NodeId>& out) {
  for (const LoopStmt& s : body) {
    if (const auto* f = s.as<ForStmt>()) executedNodes(f->body, out);
    if (const auto* i = s.as<IfStmt>()) executedNodes(i->thenBody, out), executedNodes(i->elseBody, out);
    if (const auto* e = s.as<ExecStmt>()) out.insert(e->node);
  }
}

bool isMemoryStatement(const LoopStmt& s) { return !s.as<ForStmt>() && !s.as<IfStmt>() && !s.as<ExecStmt>(); }

std::string label(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  return "%" + std::to_string(id) + " " + (n.name.empty() ? std::string(opName(n.op)) : n.name);
}

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
};

struct Swap {
  NodeId node;
  size_t outAfter, inBefore;
  StoreBytes bytes;
};

}  // namespace

std::string SwapPlan::report() const {
  std::string out = "memory budget " + std::to_string(budget) + " B: " + (met() ? "met" : "NOT met") +
                    ", predicted peak " + std::to_string(predictedPeak) + " B, " + std::to_string(swaps.size()) +
                    (swaps.size() == 1 ? " swap\n" : " swaps\n");
  for (const std::string& s : swaps) out += "  swap " + s + "\n";
  for (const std::string& s : unmet) out += "  over budget: " + s + "\n";
  return out;
}

SwapPlan placeSwaps(const Graph& g, const LoopProgram& placed, const SymbolEnv& bounds, int64_t budget) {
  const LoopBody& top = placed.body;
  const std::vector<SharedBuffer> shared = sharedBuffers(g, bounds);
  MemoryPrediction before = predictMemory(placed, bounds, shared);
  std::set<NodeId> outputs;
  for (const GraphOutput& o : g.outputs) outputs.insert(o.node);

  std::vector<std::set<NodeId>> executed(top.size());
  for (size_t i = 0; i < top.size(); ++i) executedNodes({top[i]}, executed[i]);
  std::map<NodeId, Candidate> candidates;
  std::map<NodeId, size_t> outputAllocs;  ///< top-level index of each output's Alloc
  for (size_t i = 0; i < top.size(); ++i) {
    if (const auto* a = top[i].as<AllocStmt>(); a && outputs.count(a->node)) outputAllocs[a->node] = i;
    if (const auto* a = top[i].as<AllocStmt>(); a && !outputs.count(a->node))
      candidates[a->node] = {a->node, i, top.size(), {}, a->bytes, before.allocated[a->node]};
    if (const auto* f = top[i].as<FreeStmt>(); f && candidates.count(f->node)) candidates[f->node].free = i;
  }
  for (auto& [id, c] : candidates) {
    std::set<NodeId> users{id};
    for (const Edge* e : g.users(id)) users.insert(e->consumer);
    for (size_t i = 0; i < top.size(); ++i)
      if (std::any_of(users.begin(), users.end(), [&](NodeId u) { return executed[i].count(u) > 0; }))
        c.uses.push_back(i);
  }

  SwapPlan plan;
  plan.budget = budget;
  std::vector<int64_t> saved(top.size(), 0);
  std::vector<Swap> swaps;
  std::set<std::pair<NodeId, size_t>> swappedGaps;  ///< (node, previous use)
  for (size_t p = 0; p < top.size(); ++p) {
    if (isMemoryStatement(top[p])) continue;
    while (before.peakDuring[p] - saved[p] > budget) {
      const Candidate* best = nullptr;
      size_t bestPrev = 0, bestNext = 0;
      for (const auto& [id, c] : candidates) {
        if (c.alloc > p || c.free < p || c.value == 0 || c.uses.empty()) continue;
        auto next = std::upper_bound(c.uses.begin(), c.uses.end(), p);
        if (next == c.uses.end() || next == c.uses.begin() || *std::prev(next) == p) continue;  // used here
        size_t prev = *std::prev(next);
        if (swappedGaps.count({id, prev})) continue;
        if (!best || *next > bestNext || (*next == bestNext && c.value > best->value))
          best = &c, bestPrev = prev, bestNext = *next;
      }
      if (!best) break;
      swappedGaps.insert({best->node, bestPrev});
      swaps.push_back({best->node, bestPrev, bestNext, best->bytes});
      for (size_t q = bestPrev + 1; q < bestNext; ++q) saved[q] += best->value;
      plan.swaps.push_back(label(g, best->node) + " (" + std::to_string(best->value) + " B): out after `" +
                           headline(g, top[bestPrev]) + "` (statement " + std::to_string(bestPrev) +
                           "), in before statement " + std::to_string(bestNext));
    }
    if (before.peakDuring[p] - saved[p] > budget) {
      std::string used;
      for (const auto& [id, c] : candidates)
        if (c.alloc < p && c.free > p && std::binary_search(c.uses.begin(), c.uses.end(), p))
          used += (used.empty() ? "" : ", ") + label(g, id) + " " + std::to_string(c.value) + " B";
      for (const auto& [o, at] : outputAllocs)
        if (at < p)
          used += (used.empty() ? "" : ", ") + label(g, o) + " " + std::to_string(before.allocated[o]) +
                  " B (an output)";
      int64_t inside = before.peakDuring[p] - before.liveBefore[p];
      plan.unmet.push_back("statement " + std::to_string(p) + " `" + headline(g, top[p]) + "` peaks at " +
                           std::to_string(before.peakDuring[p] - saved[p]) + " B: " + std::to_string(inside) +
                           " B are allocated inside it, and the stores live around it are used by it or are outputs (" +
                           (used.empty() ? "none" : used) + ")");
    }
  }

  for (size_t i = 0; i < top.size(); ++i) {
    for (const Swap& s : swaps)
      if (s.inBefore == i) plan.program.body.push_back({SwapInStmt{s.node, s.bytes}});
    plan.program.body.push_back(top[i]);
    for (const Swap& s : swaps)
      if (s.outAfter == i) plan.program.body.push_back({SwapOutStmt{s.node, s.bytes}});
  }
  plan.predictedPeak = predictMemory(plan.program, bounds, shared).peakBytes;
  return plan;
}

}  // namespace tempo
