#include "graph/GraphAlgorithms.h"

#include <algorithm>
#include <map>
#include <set>

namespace tempo {

namespace {

std::vector<std::vector<NodeId>> tarjan(const std::vector<NodeId>& nodes, std::map<NodeId, std::vector<NodeId>>& succ) {
  std::map<NodeId, int> index, low;
  std::set<NodeId> onStack;
  std::vector<NodeId> stack;
  std::vector<std::vector<NodeId>> out;
  int counter = 0;
  for (NodeId root : nodes) {
    if (index.count(root)) continue;
    std::vector<std::pair<NodeId, size_t>> frames{{root, 0}};  // (node, next successor)
    index[root] = low[root] = counter++;
    stack.push_back(root);
    onStack.insert(root);
    while (!frames.empty()) {
      auto& [v, next] = frames.back();
      const auto& vs = succ[v];
      if (next < vs.size()) {
        NodeId w = vs[next++];
        if (!index.count(w)) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          onStack.insert(w);
          frames.push_back({w, 0});
        } else if (onStack.count(w)) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] == index[v]) {
        std::vector<NodeId> comp;
        NodeId w;
        do {
          w = stack.back();
          stack.pop_back();
          onStack.erase(w);
          comp.push_back(w);
        } while (w != v);
        std::sort(comp.begin(), comp.end());
        out.push_back(comp);
      }
      NodeId done = v;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().first] = std::min(low[frames.back().first], low[done]);
    }
  }
  // Tarjan emits consumers before producers; dependence order is the reverse.
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<std::vector<NodeId>> stronglyConnectedComponents(const Graph& g) {
  std::map<NodeId, std::vector<NodeId>> succ;
  for (const auto& [id, e] : g.edges()) succ[e.producer].push_back(e.consumer);
  std::vector<NodeId> nodes;
  for (const auto& [id, n] : g.nodes()) nodes.push_back(id);
  return tarjan(nodes, succ);
}

std::vector<std::vector<NodeId>> stronglyConnectedComponents(const Graph& g, const std::vector<NodeId>& nodes,
                                                             const std::vector<EdgeId>& edges) {
  std::map<NodeId, std::vector<NodeId>> succ;
  for (EdgeId id : edges) succ[g.edge(id).producer].push_back(g.edge(id).consumer);
  return tarjan(nodes, succ);
}

bool isCyclic(const Graph& g, const std::vector<NodeId>& component) {
  if (component.size() > 1) return true;
  for (const Edge* e : g.inputs(component.front()))
    if (e->producer == component.front()) return true;
  return false;
}

}  // namespace tempo
