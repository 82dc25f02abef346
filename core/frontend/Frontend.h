// Frontend: a `.tpo` program from text to a checked symbolic dependence graph.
//
// The one entry point the CLI, the studio and the tests use: lex and parse,
// lower to the SDG while checking names, shapes, dtypes, reads against
// domains, branch coverage and recurrences, then validate the graph's own
// invariants. Diagnostics are values (file:line:col, message); a program with
// errors still yields the part of the graph that could be built. Also here:
// resolving the values of bounds from the program's defaults and `--set`
// overrides.
#pragma once

#include "diag/Diagnostics.h"
#include "graph/Graph.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace tempo {

struct FrontendResult {
  Graph graph;
  DiagnosticBag diags;
  std::string source;  ///< the program text (for rendering diagnostics)
  bool ok() const { return !diags.hasErrors(); }
  std::string renderedDiagnostics() const { return renderAll(diags, source); }
};

/// Checks and lowers `source`. `fileName` is used in diagnostics; load()
/// paths are resolved against `baseDir`.
FrontendResult compileSource(std::string source, const std::string& fileName, const std::string& baseDir);

/// Reads `path` and compiles it (load() paths relative to its directory). A
/// file that cannot be read is reported as a diagnostic.
FrontendResult compileFile(const std::string& path);

/// Values of every bound: the program's `set` defaults overridden by
/// `overrides`. Returns nullopt and sets `error` when a bound has no value,
/// an override names no bound, or a value is below 1.
std::optional<SymbolEnv> resolveBounds(const Graph& g, const std::map<std::string, int64_t>& overrides,
                                       std::string& error);

}  // namespace tempo
