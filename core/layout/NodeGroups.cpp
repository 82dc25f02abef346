#include "layout/NodeGroups.h"

namespace tempo {

std::vector<NodeId> NodeGroups::members(int group) const {
  std::vector<NodeId> out;
  for (const auto& [node, gid] : groupOf)
    if (gid == group) out.push_back(node);
  return out;
}

std::string NodeGroups::label(int group) const {
  auto it = labels.find(group);
  if (it != labels.end() && !it->second.empty()) return it->second;
  return "group " + std::to_string(group);
}

NodeGroups groupBySourceLine(const Graph& g) {
  std::map<int, std::vector<const Node*>> byLine;
  for (const auto& [id, n] : g.nodes())
    if (n.loc.valid()) byLine[n.loc.begin.line].push_back(&n);
  NodeGroups groups;
  for (const auto& [line, nodes] : byLine) {
    if (nodes.size() < 2) continue;
    std::string names;
    for (const Node* n : nodes) {
      groups.groupOf[n->id] = line;
      if (!n->name.empty()) names += (names.empty() ? "" : ", ") + n->name;
    }
    groups.labels[line] = "line " + std::to_string(line) + (names.empty() ? "" : ": " + names);
  }
  return groups;
}

}  // namespace tempo
