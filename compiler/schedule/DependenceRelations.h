// DependenceRelations: the SDG as isl statements and dependence relations.
//
// Every node becomes one statement `S_<id>` over its domain
// { S_<id>[d0, d1, ...] : 0 <= d_i < Bound_i }, with the bounds as isl
// parameters that are only known to be >= 1, so everything derived from these
// relations holds for every size. Every edge producer P -> consumer C becomes
// the exact relation { S_P[q] -> S_C[c] : c in C's domain, the edge is live at
// c, q in P's domain, q_i = atom_i(c) for a point atom and
// lo_i(c) <= q_i < hi_i(c) for a slice }: "P at q must run before C at c".
// An edge into a merge is live where its own guard holds and no earlier
// branch's does (branches are ordered). For proximity ("a reader runs soon
// after the newest value it reads") each slice is reduced to one element,
// its newest — the last one (hi - 1) when time runs forwards, the first one
// (lo) when it runs backwards; which is right is only known once scheduled,
// so both are kept. A block read of static tiling (IndexAtom::blockOf) is
// written as one conjunction of its range (no piece per min / max), which
// keeps isl's problem small; its proximity is that range at the window's own
// newest position (a whole range of distances keeps isl from fusing the
// reader with its producer, and then a sliding window needs a whole store).
// All texts are isl's normalised printed forms, which isl can read back.
#pragma once

#include "graph/Graph.h"
#include "graph/MergeBranches.h"
#include "symbolic/PointSet.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tempo {

enum class TimeDirection { Forward, Backward };

/// One statement: a node at every point of its domain.
struct ScheduleStatement {
  NodeId node = -1;
  std::string name;               ///< `S_4`
  std::vector<std::string> dims;  ///< the node's domain dimensions
  std::string domain;             ///< isl set text
};

/// The dependence of one edge.
struct EdgeDependence {
  EdgeId edge = -1;
  NodeId producer = -1;
  NodeId consumer = -1;
  std::string validity;        ///< isl map text (empty set when the edge is never live)
  std::string newestForward;   ///< the same with each slice read at its last element
  std::string newestBackward;  ///< the same with each slice read at its first element
};

struct DependenceRelations {
  std::vector<std::string> params;                 ///< isl names of the bounds
  std::map<std::string, std::string> boundOfParam; ///< isl parameter name -> bound name
  /// `DS = floor((7 + T)/8)` for each derived bound (Graph::derivedBounds), in isl syntax.
  std::vector<std::string> paramEqualities;
  std::vector<ScheduleStatement> statements;       ///< by node id
  std::vector<EdgeDependence> dependences;         ///< by edge id

  /// `[B, T] -> { : B >= 1 and T >= 1 }`: what scheduling may assume. The
  /// derived bounds are left free here (every relation holds for any value
  /// of them, and their floor divisions would slow isl's scheduler down).
  std::string paramContext() const;
  /// The same with the derived bounds' equalities, for generating loops.
  std::string paramContextWithDerived() const;
  /// Union of every statement's domain.
  std::string domainUnion() const;
  /// Union of every edge's validity relation.
  std::string validityUnion() const;
  /// Union of every edge's relation with slices read at their newest element
  /// for time running in direction `newest`.
  std::string proximityUnion(TimeDirection newest) const;
  /// The statement of `node` (nullptr if none).
  const ScheduleStatement* statementOf(NodeId node) const;
};

/// Tuple names no statement has (parameters named `S_...` are renamed), for
/// the shape of a statement or relation up to its names (RelationReader).
inline constexpr const char* kShapeProducer = "S_P";
inline constexpr const char* kShapeConsumer = "S_C";

/// `text` with every tuple `from[` renamed `to[` (a shape's placeholders and its statements' names).
std::string renamedTuples(std::string text, const std::string& from, const std::string& to);

/// `S_4` for node 4.
std::string statementName(NodeId node);
/// The node of a statement name (`S_4` -> 4); nullopt for other names.
std::optional<NodeId> nodeOfStatement(const std::string& name);

/// Builds statements and dependences for `g`. Throws std::invalid_argument
/// for a graph the relations cannot express (a dimension without a bound, an
/// edge whose atom count differs from the producer's domain, an index that
/// names a symbol the consumer does not have).
DependenceRelations buildDependenceRelations(const Graph& g, IslContext& ctx);

}  // namespace tempo
