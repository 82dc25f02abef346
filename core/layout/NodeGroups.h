// NodeGroups: a partition of some SDG nodes into named groups.
//
// The graph layout draws each group as one box (or, when expanded, as a
// frame around its members) so large graphs stay readable. Groups come from
// the caller (later: the fusion pass's fused groups) or from
// groupBySourceLine, which puts the nodes one source line made together —
// `n1 = xc1 / sqrt(var1 + 1e-5) * g1[l]` is five ops but one idea.
#pragma once

#include "graph/Graph.h"

#include <map>
#include <string>
#include <vector>

namespace tempo {

struct NodeGroups {
  std::map<NodeId, int> groupOf;       ///< node -> group id (ungrouped nodes are absent)
  std::map<int, std::string> labels;   ///< group id -> title ("" or absent: "group N")

  bool empty() const { return groupOf.empty(); }
  std::vector<NodeId> members(int group) const;
  std::string label(int group) const;
};

/// One group per source line that made two or more nodes; the group id is
/// the line number and the title names the line and the names it defines
/// (`line 27: n1`).
NodeGroups groupBySourceLine(const Graph& g);

}  // namespace tempo
