// GraphAlgorithms: generic graph algorithms over the SDG's node graph.
//
// Strongly connected components (the recurrences: a component with more than
// one node, or a node reading itself, is a cycle of the program) and the
// order in which they can run. Edges are taken as producer -> consumer; the
// checker, the passes and the scheduler all share this one implementation.
#pragma once

#include "graph/Graph.h"

#include <vector>

namespace tempo {

/// Strongly connected components in dependence order: every producer's
/// component comes before its consumers' (Tarjan's algorithm, iterative, so
/// deep graphs cannot overflow the stack). Nodes within a component are
/// sorted by id.
std::vector<std::vector<NodeId>> stronglyConnectedComponents(const Graph& g);
/// The same for the subgraph of `nodes` (ascending ids) and `edges` (between them).
std::vector<std::vector<NodeId>> stronglyConnectedComponents(const Graph& g, const std::vector<NodeId>& nodes,
                                                             const std::vector<EdgeId>& edges);

/// True when the component is a cycle: several nodes, or one node reading itself.
bool isCyclic(const Graph& g, const std::vector<NodeId>& component);

}  // namespace tempo
