#include "graph/FusionGroups.h"

#include "graph/GraphStyle.h"
#include "passes/Fusion.h"

#include <algorithm>

namespace tempo::views {

NodeGroups fusionGroups(const Graph& g) {
  Graph fused = g;
  PassContext context;
  Fusion().run(fused, context);
  NodeGroups groups;
  for (NodeId id : context.change.added) {
    const Node& n = fused.node(id);
    if (n.op != OpKind::Fused || n.attrs.fusedFrom.empty()) continue;
    const int group = *std::min_element(n.attrs.fusedFrom.begin(), n.attrs.fusedFrom.end());
    for (NodeId member : n.attrs.fusedFrom)
      if (g.hasNode(member)) groups.groupOf[member] = group;
    groups.labels[group] = nodeLabelLines(n).front();
  }
  return groups;
}

}  // namespace tempo::views
