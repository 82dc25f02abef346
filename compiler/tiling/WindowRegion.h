// WindowRegion: what static tiling rewrites — a dynamically sized window read
// and everything between it and where its dynamic dimension is eliminated.
//
// A window is an edge with one slice atom whose size depends on a domain
// dimension (`k[b, 0:t+1]`: size t+1); the consumer sees a leading spatial
// axis of that size. `findWindowRegion` follows that axis forward through the
// consumers (elementwise ops, permutes, reshapes that keep the axis whole,
// reductions and matmuls over other axes) until every path ends in an
// *elimination*: a reduce_sum / reduce_max over the axis or a matmul that
// contracts it. Windows of the same range met on the way (`v[b, 0:t+1]` in
// `att @ V`) join the region. The result says, per node, at which axis the
// dynamic size sits, or why the region cannot be tiled (a node that needs the
// whole window, an output of dynamic shape, an op with no tiling rule).
#pragma once

#include "graph/Graph.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tempo {

/// One dynamically sized window read.
struct WindowRead {
  EdgeId edge = -1;
  NodeId consumer = -1;
  NodeId producer = -1;
  int atom = 0;          ///< index of the slice atom (the producer dimension read as a window)
  IndexExpr lo, hi;      ///< the window [lo, hi), over the consumer's dimensions
  /// True when the window grows or slides with time (`hi` moves: `0:t+1`),
  /// false for a suffix (`t:T`, only `lo` moves).
  bool newestAtEnd = true;
  IndexExpr size() const { return hi - lo; }
};

/// The window read through `e`, or nullopt when `e` reads no dynamically sized window.
/// `why` says why a read with a dynamic slice cannot be tiled ("two slice atoms").
std::optional<WindowRead> windowReadOf(const Graph& g, const Edge& e, std::string& why);

struct WindowRegion {
  std::vector<std::string> domain;    ///< the domain every region node shares
  std::vector<WindowRead> windows;    ///< the window reads feeding the region
  std::vector<NodeId> carriers;       ///< nodes whose value has the dynamic axis, producers first
  std::vector<NodeId> eliminations;   ///< nodes that reduce or contract it, producers first
  std::map<NodeId, int> axisOf;       ///< carrier -> the axis of its value that is the window
  /// For each carrier and elimination: the dynamic axis of each input slot (absent: none).
  std::map<NodeId, std::map<int, int>> inputAxes;
};

/// The region of the window read `seed`; nullopt with `why` set when it cannot be tiled.
std::optional<WindowRegion> findWindowRegion(const Graph& g, const WindowRead& seed, std::string& why);

}  // namespace tempo
