// GraphValidator: structural and typing invariants of the SDG.
//
// Checked after lowering and after every compiler pass: edges connect
// existing nodes; each node has its op's number of inputs in contiguous
// slots; each edge has one index atom per producer dimension; index atoms,
// conditions and shapes use only the consumer's own dimensions and bounds;
// every node's type is what TypeInference derives from its inputs; outputs
// name existing nodes. A violation is an engine bug, reported as text.
#pragma once

#include "graph/Graph.h"

#include <string>
#include <vector>

namespace tempo {

/// Every violated invariant, one message each; empty when the graph is valid.
std::vector<std::string> validateGraph(const Graph& g);

}  // namespace tempo
