// StaticShapeCheck: which values of a graph still change shape with the domain point.
//
// After static tiling every kernel should see the same shapes at every point
// of its domain (bounds may appear in a shape, dimensions may not). This check
// lists each node whose type, and each edge whose read type, depends on a
// domain dimension; an empty list means every kernel has static shapes.
#pragma once

#include "graph/Graph.h"

#include <string>
#include <vector>

namespace tempo {

/// `%9: f32[t + 1]` for each node, `%17 <- %6[b, 0:t + 1]: f32[t + 1, 8]` for each
/// read, whose shape depends on a dimension.
std::vector<std::string> dynamicShapes(const Graph& g);

}  // namespace tempo
