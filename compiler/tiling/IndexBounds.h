// IndexBounds: symbolic upper and lower bounds of an index expression.
//
// Static tiling needs the largest size a window can have, as an expression of
// the bounds only (`T` for `0:t+1` with t < T, `4` for `min(t + 1, 4)`), to
// define the number of blocks. These helpers bound an expression over every
// point of the dimensions it names, each dimension d ranging over
// [0, bound(d) - 1]: affine parts termwise by the sign of the coefficient,
// min/max/floor-division/modulo by their monotonicity; a constant operand of
// a min is preferred, so that a window of static maximum size gets a static
// bound. The bounds are safe (never too tight) but not always the tightest.
#pragma once

#include "graph/Graph.h"

#include <optional>

namespace tempo {

/// An expression of bounds only that is >= `e` at every point of the graph's dimensions.
std::optional<IndexExpr> upperBoundOverDims(const IndexExpr& e, const Graph& g);
/// An expression of bounds only that is <= `e` at every point of the graph's dimensions.
std::optional<IndexExpr> lowerBoundOverDims(const IndexExpr& e, const Graph& g);

}  // namespace tempo
