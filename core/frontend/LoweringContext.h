// LoweringContext: the state shared by the parts of the checker/lowering.
//
// Lowering turns the AST into the SDG while checking it. Its parts (index
// expressions, value expressions, built-in functions, statements, domain
// checks) share one LoweringContext: the graph being built, the scope, the
// diagnostics, the isl context and where each node is evaluated. A Site says
// where the expression being lowered lives: its domain (the dimensions it
// varies over) and its region (the part of that domain where it is evaluated,
// e.g. `t >= 1` inside the second branch of a recurrence), which the read
// checks use to decide whether an index can leave the producer's domain.
#pragma once

#include "autodiff/Autodiff.h"
#include "diag/Diagnostics.h"
#include "frontend/Scope.h"
#include "graph/Graph.h"
#include "symbolic/PointSet.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tempo {

struct Site {
  std::vector<std::string> domain;
  Condition region = Condition::always();
};

struct LoweringContext {
  Graph& graph;
  Scope& scope;
  DiagnosticBag& diags;
  IslContext& isl;
  std::string file;     ///< as reported in diagnostics
  std::string baseDir;  ///< directory that load() paths are relative to

  /// Nodes created inside a branch are evaluated only in that branch's region.
  std::map<NodeId, Condition> nodeRegion;
  /// The nodes made by detach(x): grad() passes no gradient through them.
  std::set<NodeId> detached;
  /// One backward graph per loss (and set of detached nodes), shared by every
  /// grad() of that loss.
  std::vector<std::unique_ptr<BackwardGraph>> backwardGraphs;

  void error(SourceRange range, std::string message) { diags.error(file, range, std::move(message)); }
  void warning(SourceRange range, std::string message) { diags.warning(file, range, std::move(message)); }
  void note(SourceRange range, std::string message) { diags.note(file, range, std::move(message)); }

  /// Bound names of all declared dimensions (the isl parameters).
  std::vector<std::string> params() const { return graph.boundNames(); }
  /// 0 <= d < bound(d) for each dimension of `domain`.
  PointSet box(const std::vector<std::string>& domain);
  /// The points of `site` where it is evaluated: box ∩ region.
  PointSet sitePoints(const Site& site);
};

/// Joins names as `(b, t)`.
std::string tupleString(const std::vector<std::string>& names);

}  // namespace tempo
