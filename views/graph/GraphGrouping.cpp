#include "graph/GraphGrouping.h"

#include "graph/FusionGroups.h"

namespace tempo::views {

void GraphGrouping::flip(std::set<int>& set, int id) {
  if (!set.erase(id)) set.insert(id);
}

void GraphGrouping::setMode(GroupMode m) {
  mode = m;
  groupsOpen = m == GroupMode::Fusion && callerGroups.empty();
  toggledGroups.clear();
}

void GraphGrouping::setCallerGroups(NodeGroups groups) {
  callerGroups = std::move(groups);
  groupsOpen = false;
  toggledGroups.clear();
}

void GraphGrouping::collapseAll() {
  groupsOpen = false;
  fusedOpen = false;
  toggledGroups.clear();
  toggledFused.clear();
}

void GraphGrouping::expandAll() {
  groupsOpen = true;
  fusedOpen = true;
  toggledGroups.clear();
  toggledFused.clear();
}

void GraphGrouping::openGroup(int group) {
  if (!groupOpen(group)) toggleGroup(group);
}

void GraphGrouping::openFused(NodeId node) {
  if (!fusedNodeOpen(node)) toggleFused(node);
}

NodeGroups GraphGrouping::groupsOf(const Graph& g) const {
  if (mode == GroupMode::None) return {};
  if (mode == GroupMode::SourceLine) return groupBySourceLine(g);
  return callerGroups.empty() ? fusionGroups(g) : callerGroups;
}

LayoutOptions GraphGrouping::optionsFor(const Graph& g) const {
  LayoutOptions o;
  o.groups = groupsOf(g);
  for (const auto& [node, group] : o.groups.groupOf)
    if (groupOpen(group)) o.expandedGroups.insert(group);
  for (const auto& [id, n] : g.nodes())
    if (n.op == OpKind::Fused && fusedNodeOpen(id)) o.expandedFused.insert(id);
  return o;
}

}  // namespace tempo::views
