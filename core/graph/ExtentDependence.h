// ExtentDependence: which values depend on the extent of a dimension, and whether a
// dimension's `until` condition can be decided one step at a time.
//
// `dim t < T until done` ends t at the first step where `done` holds everywhere, so
// the engines decide the extent while they run: they compute `done` with T as the
// most steps and bind T to the reached extent once it holds (docs/language.md, 4.13).
// That is exact only when `done` at t reads no later step and nothing whose value
// changes with T — a read through `T` (`x[t:T]`, a condition `t < T - 1`), a shape or
// attribute written with T, or a random or hashed source whose array puts t after
// another dimension (its values are drawn by flat index over the whole domain).
// `boundDependentNodes` finds every node whose value changes with a bound (directly
// or through what it reads); `firstUndecidableRead` walks back from a condition and
// names the first read that breaks the rule, for the front end's diagnostic and the
// engines' choice between stopping early and running twice.
#pragma once

#include "graph/Graph.h"

#include <optional>
#include <set>
#include <string>

namespace tempo {

/// `bound` and every derived bound written with it (transitively: static tiling's block count).
std::set<std::string> boundAndDerived(const Graph& g, const std::string& bound);

/// Nodes whose value at a point changes with the value of bound `bound` (a derived bound
/// written with it counts as it), directly or through the nodes they read.
std::set<NodeId> boundDependentNodes(const Graph& g, const std::string& bound);

/// Why a node's value at t depends on a later t or on the extent of t.
struct UndecidableRead {
  NodeId consumer = -1;   ///< the node that reads or is computed so
  SourceRange loc;        ///< the read's location (else the node's)
  std::string why;        ///< `reads 'r' at t + 1`, `reads 'x' through the bound T`
};

/// The first read, walking back from `node`, that makes its value at t depend on a later
/// t or on the bound of `dim`; nullopt when `node` at every t is decided by t.
std::optional<UndecidableRead> firstUndecidableRead(const Graph& g, NodeId node, const std::string& dim);

}  // namespace tempo
