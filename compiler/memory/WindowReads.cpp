// WindowReads: a lifetime check over the placed loop program.
#include "memory/WindowReads.h"

#include "memory/BufferSharing.h"

#include <algorithm>
#include <climits>
#include <map>
#include <optional>
#include <set>

namespace tempo {

namespace {

/// Where a statement sits: the statement list it is in (numbered in walk
/// order, so each list of the program has its own number) and its index in it,
/// for each list from the top level down.
using Position = std::vector<std::pair<int, int>>;

/// The positions of every memory and exec statement, by node.
struct NodeStatements {
  std::map<NodeId, std::vector<Position>> execs, allocs, frees, swaps;
};

void collect(const LoopBody& body, Position& at, int& lists, NodeStatements& out) {
  const int list = lists++;
  for (size_t i = 0; i < body.size(); ++i) {
    at.emplace_back(list, static_cast<int>(i));
    const LoopStmt& s = body[i];
    if (const auto* f = s.as<ForStmt>()) collect(f->body, at, lists, out);
    if (const auto* c = s.as<IfStmt>()) {
      collect(c->thenBody, at, lists, out);
      collect(c->elseBody, at, lists, out);
    }
    if (const auto* e = s.as<ExecStmt>()) out.execs[e->node].push_back(at);
    if (const auto* a = s.as<AllocStmt>()) out.allocs[a->node].push_back(at);
    if (const auto* f = s.as<FreeStmt>()) out.frees[f->node].push_back(at);
    if (const auto* o = s.as<SwapOutStmt>()) out.swaps[o->node].push_back(at);
    if (const auto* o = s.as<SwapInStmt>()) out.swaps[o->node].push_back(at);
    at.pop_back();
  }
}

const std::vector<Position>& positionsOf(const std::map<NodeId, std::vector<Position>>& m, NodeId n) {
  static const std::vector<Position> none;
  auto it = m.find(n);
  return it == m.end() ? none : it->second;
}

/// The statement list and the open interval of indices in it where the store
/// of `producer` is allocated; nullopt when its alloc and free are not one
/// pair in one list (or it is swapped).
struct Lifetime {
  int list = 0;
  size_t depth = 0;  ///< the list's depth (0: the top level)
  int after = -1;    ///< the alloc's index (-1: open from the start)
  int before = 0;    ///< the free's index (INT_MAX: never freed)
};

std::optional<Lifetime> lifetimeOf(const NodeStatements& s, NodeId producer) {
  const auto& allocs = positionsOf(s.allocs, producer);
  const auto& frees = positionsOf(s.frees, producer);
  if (allocs.size() > 1 || frees.size() > 1 || !positionsOf(s.swaps, producer).empty()) return std::nullopt;
  const Position* alloc = allocs.empty() ? nullptr : &allocs.front();
  const Position* free = frees.empty() ? nullptr : &frees.front();
  const Position* any = free ? free : alloc;
  if (!any) return Lifetime{0, 0, -1, INT32_MAX};  // a store open for the whole run
  if (alloc && free && (alloc->size() != free->size() || alloc->back().first != free->back().first)) return std::nullopt;
  if (!(alloc && free) && any->size() != 1) return std::nullopt;  // a lone alloc or free inside a loop
  return Lifetime{any->back().first, any->size() - 1, alloc ? alloc->back().second : -1,
                  free ? free->back().second : INT32_MAX};
}

bool within(const Position& p, const Lifetime& life) {
  return p.size() > life.depth && p[life.depth].first == life.list && p[life.depth].second > life.after &&
         p[life.depth].second < life.before;
}

/// `holder` and every node that holds its buffer in turn (BufferSharing's
/// identity, reshape and merge, reading a member at a point).
std::set<NodeId> buffersHolders(const Graph& g, NodeId holder) {
  std::set<NodeId> group{holder};
  std::vector<NodeId> todo{holder};
  while (!todo.empty()) {
    NodeId n = todo.back();
    todo.pop_back();
    for (const Edge* e : g.users(n)) {
      const bool point = std::none_of(e->index.begin(), e->index.end(), [](const IndexAtom& a) { return a.isSlice(); });
      if (point && sharesInputBuffer(g.node(e->consumer)) && group.insert(e->consumer).second)
        todo.push_back(e->consumer);
    }
  }
  return group;
}

bool isOutput(const Graph& g, NodeId n) {
  return std::any_of(g.outputs.begin(), g.outputs.end(), [&](const GraphOutput& o) { return o.node == n; });
}

bool keepsEveryPoint(const StoragePlan& stores, NodeId n) {
  auto it = stores.find(n);
  return it == stores.end() || it->second.kind == StoreKind::Whole;
}

}  // namespace

std::vector<WindowRead> windowReads(const Graph& g, const LoopProgram& placed, const StoragePlan& stores) {
  NodeStatements statements;
  Position at;
  int lists = 0;
  collect(placed.body, at, lists, statements);
  std::vector<WindowRead> out;
  for (const auto& [id, n] : g.nodes()) {
    const std::vector<const Edge*> inputs = g.inputs(id);
    if (n.op != OpKind::Slice || inputs.size() != 1) continue;
    const Edge& e = *inputs.front();
    const Node& producer = g.node(e.producer);
    const bool point = std::none_of(e.index.begin(), e.index.end(), [](const IndexAtom& a) { return a.isSlice(); });
    if (!point || sharesInputBuffer(producer) || !keepsEveryPoint(stores, producer.id)) continue;
    std::optional<Lifetime> life = lifetimeOf(statements, producer.id);
    if (!life) continue;
    bool nested = true;
    for (NodeId m : buffersHolders(g, id)) {
      if (isOutput(g, m) && life->before != INT32_MAX) nested = false;  // read after the run
      if (!positionsOf(statements.swaps, m).empty()) nested = false;
      for (const auto* kind : {&statements.execs, &statements.allocs, &statements.frees})
        for (const Position& p : positionsOf(*kind, m)) nested = nested && within(p, *life);
    }
    if (nested) out.push_back({id, producer.id});
  }
  return out;
}

std::string printWindowReads(const Graph& g, const std::vector<WindowRead>& reads) {
  std::string out;
  for (const WindowRead& r : reads)
    out += statementLabel(g, r.holder) + " keeps windows of " + statementLabel(g, r.producer) + " (no copy)\n";
  return out;
}

}  // namespace tempo
