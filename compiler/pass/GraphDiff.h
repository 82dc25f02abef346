// GraphDiff: what differs between two versions of a graph.
//
// Node ids are stable across passes, so two snapshots can be compared id by
// id: a node present only after is added, only before is removed, and present
// in both with a different printed line (op, attrs, inputs with their index
// atoms and conditions, type, domain) is rewritten. The pipeline uses this to
// mark passes that changed nothing and to check what passes report; the CLI
// and the studio show `unifiedDiff` of the two printed graphs, the same
// `---`/`+++`/`@@` form a person reads in code review.
#pragma once

#include "graph/Graph.h"

#include <set>
#include <string>

namespace tempo {

struct GraphDiff {
  std::set<NodeId> added;
  std::set<NodeId> removed;
  std::set<NodeId> rewritten;
  bool outputsChanged = false;  ///< an output now names another node, or outputs were added/removed
  bool empty() const { return added.empty() && removed.empty() && rewritten.empty() && !outputsChanged; }
  /// `2 added, 1 removed, 3 rewritten` (or `no change`).
  std::string summary() const;
};

GraphDiff diffGraphs(const Graph& before, const Graph& after);

/// A unified diff (3 lines of context) of two texts, line by line; "" when equal.
std::string unifiedDiff(const std::string& before, const std::string& after, const std::string& beforeLabel,
                        const std::string& afterLabel, int context = 3);

}  // namespace tempo
