#include "passes/CommonSubexpressionElimination.h"

#include "passes/GraphRewrite.h"

#include <map>

namespace tempo {

std::string CommonSubexpressionElimination::description() const {
  return "Two nodes that apply the same op with the same attributes, over the same domain, to the same "
         "producers read at the same indices and under the same conditions, hold the same value everywhere. "
         "This pass keeps the one with the lowest id and redirects the other's readers to it, repeating until "
         "nothing more merges (merging two nodes can make their readers identical). Constants with equal "
         "values merge, and so do loads of one file and random initialisers with one seed: every source in "
         "Tempo is deterministic, so equal parameters mean equal arrays.";
}

namespace {

bool sameInputs(const Graph& g, NodeId a, NodeId b) {
  auto ia = g.inputs(a), ib = g.inputs(b);
  if (ia.size() != ib.size()) return false;
  for (size_t i = 0; i < ia.size(); ++i)
    if (ia[i]->inputIndex != ib[i]->inputIndex || ia[i]->producer != ib[i]->producer ||
        ia[i]->index != ib[i]->index || !(ia[i]->condition == ib[i]->condition))
      return false;
  return true;
}

bool sameValue(const Graph& g, const Node& a, const Node& b) {
  return a.op == b.op && a.attrs == b.attrs && a.domain == b.domain && a.type == b.type && sameInputs(g, a.id, b.id);
}

/// A bucket key: nodes that may be equal share it (exact equality is checked separately).
std::string bucketKey(const Graph& g, const Node& n) {
  std::string key = std::string(opName(n.op)) + "|" + attrsString(n.op, n.attrs) + "|" + n.type.str() + "|";
  for (const std::string& d : n.domain) key += d + ",";
  for (const Edge* e : g.inputs(n.id)) key += "|" + e->str();
  return key;
}

/// One sweep: merges each node into the first earlier node equal to it. Returns the merges made.
int mergeOnce(Graph& g, GraphChange& change) {
  std::map<std::string, std::vector<NodeId>> buckets;
  std::vector<NodeId> ids;
  for (const auto& [id, n] : g.nodes()) ids.push_back(id);
  int merges = 0;
  for (NodeId id : ids) {
    if (!g.hasNode(id)) continue;
    const Node& n = g.node(id);
    std::vector<NodeId>& bucket = buckets[bucketKey(g, n)];
    NodeId keep = -1;
    for (NodeId candidate : bucket)
      if (g.hasNode(candidate) && sameValue(g, g.node(candidate), n)) { keep = candidate; break; }
    if (keep < 0) {
      bucket.push_back(id);
      continue;
    }
    Node& kept = g.node(keep);
    if (kept.name.empty() && !n.name.empty()) {
      kept.name = n.name;
      change.rewritten.insert(keep);
    }
    for (const Edge* e : g.users(id)) change.rewritten.insert(e->consumer);
    redirectUsers(g, id, keep);
    g.removeNode(id);
    change.removed.insert(id);
    change.rewritten.erase(id);
    ++merges;
  }
  return merges;
}

}  // namespace

void CommonSubexpressionElimination::run(Graph& graph, PassContext& context) {
  int total = 0;
  while (int merges = mergeOnce(graph, context.change)) total += merges;
  if (total) context.change.notes.push_back("merged " + std::to_string(total) + " duplicate nodes");
}

}  // namespace tempo
