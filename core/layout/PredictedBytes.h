// PredictedBytes: a stand-in memory estimate per SDG node.
//
// Until the storage planner predicts real buffer sizes, the graph view's
// bytes overlay uses this: the bytes a node's values take over its whole
// domain at the program's default bounds (every point materialised, no
// reuse). A shape that depends on the point (a growing window `t + 1`) is
// summed point by point; huge domains are extrapolated from a sample.
// Nodes whose size cannot be evaluated (a bound without a default) are
// left out, so the view shows them as "no data".
#pragma once

#include "graph/Graph.h"

#include <map>

namespace tempo {

std::map<int, double> predictedBytesAtDefaults(const Graph& g);

}  // namespace tempo
