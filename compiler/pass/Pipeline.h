// Pipeline: an ordered, named list of passes, run with a snapshot after each.
//
// The CLI (`tempo compile`) and the studio step through the compiler with a
// Pipeline: it runs its passes in order on a graph and keeps, for every pass
// that ran, a PassSnapshot — the pass's name and description, the graph after
// it, what the pass reported (GraphChange), what really changed (a GraphDiff
// against the graph before it) and how long it took. Passes can be disabled
// and the run can stop after a named pass; an unknown name is an error that
// lists the valid ones. After every pass the graph is validated, and a
// violated invariant becomes a PassError naming the pass: a pass bug never
// passes silently.
#pragma once

#include "pass/GraphDiff.h"
#include "pass/Pass.h"

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tempo {

/// A pass left an invalid graph or threw; the message names the pass.
class PassError : public std::runtime_error {
public:
  PassError(const std::string& pass, const std::string& message)
      : std::runtime_error("pass '" + pass + "': " + message), pass(pass) {}
  std::string pass;
};

/// An unknown pass name given to disable/stopAfter; the message lists the valid names.
class UnknownPassError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

/// The state of the graph after one pass.
struct PassSnapshot {
  std::string passName;
  std::string description;
  Graph graph;                        ///< the graph after the pass
  GraphChange change;                 ///< what the pass reported
  GraphDiff diff;                     ///< what differs from the graph before the pass
  std::chrono::nanoseconds duration{0};
  bool changed = false;               ///< the graph text differs from before the pass
};

class Pipeline {
public:
  Pipeline() = default;
  Pipeline(Pipeline&&) = default;
  Pipeline& operator=(Pipeline&&) = default;

  /// Appends a pass; its name must be new (std::invalid_argument otherwise).
  Pipeline& add(std::unique_ptr<Pass> pass);

  std::vector<std::string> passNames() const;
  const std::vector<std::unique_ptr<Pass>>& passes() const { return passes_; }
  /// The pass called `name`; UnknownPassError listing the valid names otherwise.
  const Pass& pass(const std::string& name) const;

  void disable(const std::string& name);
  bool isDisabled(const std::string& name) const { return disabled_.count(name) != 0; }
  void stopAfter(const std::string& name);
  const std::optional<std::string>& stopAfterPass() const { return stopAfter_; }

  /// Runs the enabled passes in order on `graph` (rewritten in place) and
  /// returns one snapshot per pass that ran.
  std::vector<PassSnapshot> run(Graph& graph, PassContext& context) const;
  std::vector<PassSnapshot> run(Graph& graph) const;

private:
  void requireKnown(const std::string& name) const;
  std::vector<std::unique_ptr<Pass>> passes_;
  std::set<std::string> disabled_;
  std::optional<std::string> stopAfter_;
};

}  // namespace tempo
