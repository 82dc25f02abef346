// BudgetFloor: the largest working set at the domain corners, or the outputs together.
#include "memory/BudgetFloor.h"

#include "memory/BufferSharing.h"
#include "graph/MergeBranches.h"
#include "schedule/LoopAst.h"

#include <algorithm>

namespace tempo {

namespace {

int64_t bytesOf(const TensorType& t, const SymbolEnv& env) {
  int64_t n = static_cast<int64_t>(dtypeSize(t.dtype));
  for (int64_t s : t.evaluateShape(env)) n *= std::max<int64_t>(s, 0);
  return n;
}

/// The corners of `n`'s domain where its dimension guards hold, as environments over `bounds`.
std::vector<SymbolEnv> corners(const Graph& g, const Node& n, const SymbolEnv& bounds) {
  std::vector<SymbolEnv> out{bounds};
  for (const std::string& d : n.domain) {
    std::vector<SymbolEnv> next;
    const int64_t last = bounds.at(g.boundOf(d)) - 1;
    for (const SymbolEnv& env : out)
      for (int64_t v : {int64_t{0}, last}) {
        SymbolEnv e = env;
        e[d] = v;
        next.push_back(std::move(e));
        if (last == 0) break;
      }
    out = std::move(next);
  }
  std::vector<SymbolEnv> guarded;
  for (const SymbolEnv& env : out) {
    bool holds = true;
    for (const std::string& d : n.domain)
      if (auto guard = g.dimGuards.find(d); guard != g.dimGuards.end()) {
        try {
          holds = holds && guard->second.holds(env);
        } catch (const std::out_of_range&) {  // the guard names a dimension this node lacks
        }
      }
    if (holds) guarded.push_back(env);
  }
  return guarded;
}

/// The bytes of the source array whose buffer `id`'s values are windows of (0 if none): a
/// whole-array source's, or that of the input a view or merge passes on (the larger).
int64_t arrayBehind(const Graph& g, NodeId id, const SymbolEnv& bounds, std::map<NodeId, int64_t>& memo) {
  if (auto it = memo.find(id); it != memo.end()) return it->second;
  memo[id] = 0;  // a cycle through a recurrence passes no array on
  const Node& n = g.node(id);
  int64_t bytes = 0;
  if (isWholeArraySource(n.op)) {
    bytes = bytesOf(n.type, bounds);
    for (const std::string& d : n.domain) bytes *= std::max<int64_t>(bounds.at(g.boundOf(d)), 0);
  } else if (sharesInputBuffer(n)) {
    for (const Edge* e : g.inputs(id)) bytes = std::max(bytes, arrayBehind(g, e->producer, bounds, memo));
  }
  return memo[id] = bytes;
}

std::string pointText(const Node& n, const SymbolEnv& env) {
  std::string out;
  for (const std::string& d : n.domain) out += (out.empty() ? "" : ", ") + d + "=" + std::to_string(env.at(d));
  return out.empty() ? "" : " at (" + out + ")";
}

}  // namespace

BudgetFloor budgetFloor(const Graph& g, const SymbolEnv& bounds, const std::map<NodeId, int64_t>& outputBytes,
                        const std::map<NodeId, int64_t>& storeBytes) {
  auto storeOf = [&](NodeId id) {
    auto it = storeBytes.find(id);
    return it == storeBytes.end() ? int64_t{0} : it->second;
  };
  BudgetFloor floor;
  int64_t outputs = 0;
  std::string outputList;
  for (const auto& [node, bytes] : outputBytes) {
    outputs += bytes;
    std::string name;
    for (const GraphOutput& o : g.outputs)
      if (o.node == node) name += (name.empty() ? "" : "/") + o.name;
    outputList += (outputList.empty() ? "" : ", ") + name + " (" + statementLabel(g, node) + ") " + std::to_string(bytes) + " B";
  }
  if (outputs > 0) floor = {outputs, "the outputs need " + std::to_string(outputs) + " B at the end: " + outputList};
  std::map<NodeId, int64_t> arrays;
  for (const auto& [id, n] : g.nodes()) {
    const std::vector<const Edge*> inputs = g.inputs(id);
    for (const SymbolEnv& env : corners(g, n, bounds)) {
      std::map<NodeId, int64_t> reads;
      for (const Edge* e : inputs) {
        if (!effectiveCondition(g, *e).holds(env)) continue;
        int64_t& r = reads[e->producer];
        r = std::max({r, bytesOf(g.readType(*e), env), arrayBehind(g, e->producer, bounds, arrays), storeOf(e->producer)});
      }
      const int64_t result = isWholeArraySource(n.op)                  ? arrayBehind(g, id, bounds, arrays)
                             : sharesInputBuffer(n) && !reads.empty() ? 0
                                                                         : std::max(bytesOf(n.type, env), storeOf(id));
      int64_t total = result;
      std::string list;
      for (const auto& [p, bytes] : reads) {
        total += bytes;
        list += (list.empty() ? "" : ", ") + statementLabel(g, p) + " " + std::to_string(bytes) + " B";
      }
      if (total <= floor.bytes) continue;
      floor.bytes = total;
      floor.why = statementLabel(g, id) + pointText(n, env) + " needs " + std::to_string(total) + " B at once: its result " +
                  std::to_string(result) + " B" + (list.empty() ? "" : ", and its reads " + list);
    }
  }
  return floor;
}

}  // namespace tempo
