// Pass: one step of the compiler pipeline over the symbolic dependence graph.
//
// A pass has a stable name (used by --disable, --stop-after, --print-after),
// a one-paragraph description written for a student ("what this pass does and
// why"), and `run`, which rewrites the graph in place and reports what it
// changed through the PassContext. Passes are small classes registered in one
// place (PassRegistry); the Pipeline runs them in order and keeps a snapshot
// of the graph after each, so the CLI and the studio can step through them.
#pragma once

#include "graph/Graph.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tempo {

/// What a pass did to the graph, filled in by the pass as it works.
struct GraphChange {
  std::set<NodeId> added;
  std::set<NodeId> removed;
  std::set<NodeId> rewritten;  ///< op, attrs, type, domain or inputs changed
  std::vector<std::string> notes;  ///< human-readable remarks ("folded 3 constants")
  bool empty() const { return added.empty() && removed.empty() && rewritten.empty(); }
};

/// Options and outputs shared by every pass of one pipeline run.
struct PassContext {
  SymbolEnv boundHints;          ///< default bound values (cost models only; never baked into the graph)
  std::map<std::string, std::string> options;  ///< e.g. "block-size" -> "64"
  GraphChange change;            ///< reset by the pipeline before each pass

  /// The bounds a cost model sizes `graph` for: the program's `set` defaults, overridden by the hints.
  SymbolEnv hintedBounds(const Graph& graph) const {
    SymbolEnv bounds(graph.boundDefaults.begin(), graph.boundDefaults.end());
    for (const auto& [name, value] : boundHints) bounds[name] = value;
    return bounds;
  }
};

class Pass {
public:
  virtual ~Pass() = default;
  virtual std::string name() const = 0;          ///< e.g. "dead-code-elimination"
  virtual std::string description() const = 0;   ///< a paragraph for a student
  virtual void run(Graph& graph, PassContext& context) = 0;
};

}  // namespace tempo
