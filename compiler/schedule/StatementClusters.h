// StatementClusters: chains of same-domain statements scheduled as one.
//
// isl's scheduler works per statement: its linear problems grow with the
// statements and dependences it is given, and on a tiled training step most
// of them are chains such as `a = x * w; b = a + c; y = relu(b)` whose every
// edge is an identity read at the same point. Such a chain has one sensible
// schedule: its members run together, in dependence order, at each point.
// A cluster is a set of statements over the same domain with one root; every
// other member is read only by members of the cluster, and only by identity
// reads, so every path out of the cluster leaves through its root and
// contracting it into one statement (the root's) adds no cycle. isl then
// schedules the contracted statements (the zero-distance pairs inside a
// cluster dropped), and `isl_schedule_expand` puts the members back, ordered
// by their position in the cluster (a topological order of its edges), so the
// AST, the schedule map and the verification see every original statement.
// Statements over no dimension are never clustered (they are hoisted). The
// clusters are an optimisation of the scheduler's input only: the expanded
// schedule is verified against every original dependence like any other.
#pragma once

#include "graph/Graph.h"
#include "schedule/DependenceRelations.h"

#include <map>
#include <string>
#include <vector>

namespace tempo {

struct StatementCluster {
  NodeId root = -1;
  std::vector<NodeId> members;  ///< in execution order; the root is last
};

struct StatementClusters {
  std::vector<StatementCluster> clusters;  ///< only clusters of two or more statements
  std::map<NodeId, NodeId> rootOf;         ///< member -> its cluster's root (clustered members only)
  std::map<NodeId, int> position;          ///< member -> its index in its cluster's members

  size_t clusteredStatements() const { return rootOf.size(); }
  /// `[params] -> { S_3[c0, c1] -> S_7[c0, c1]; ... }`: every statement of `g`
  /// to its cluster's root (itself when not clustered).
  std::string contractionText(const Graph& g, const std::vector<std::string>& params) const;
  /// `[params] -> { S_3[c0, c1] -> [0]; S_7[c0, c1] -> [1]; ... }`: every
  /// statement's position in its cluster (0 when not clustered).
  std::string positionText(const Graph& g, const std::vector<std::string>& params) const;
  /// One line per cluster: `%7 <- %3 %5` (stable; for logs and tests).
  std::string str() const;
};

/// Clusters of `g` (see the header comment); deterministic. A cluster in
/// which some dependence of `rel` runs at one point from a member to one
/// that comes earlier or to itself is left out: a member whose reader takes
/// another branch of a merge at some points may read the root there
/// (`g[min(l + 2, L - 1)]` beside `g[l] = merge(... if l == L - 1, m[l] if l < L - 1)`).
StatementClusters clusterStatements(const Graph& g, const DependenceRelations& rel, IslContext& ctx);

}  // namespace tempo
