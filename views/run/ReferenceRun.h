// ReferenceRun: one run of a checked program on the reference engine.
//
// What `tempo run` does, as a function the studio calls on a worker thread:
// resolve the bounds (the program's `set` defaults overridden by the bounds
// editor), check the load() files against the declarations under those
// bounds, then evaluate every output with the ReferenceInterpreter. The
// caller passes a cancel flag (set it to stop the run) and a counter the run
// updates with the number of points evaluated, for a progress display. The
// result says what ran, how long it took, or why it failed. Qt-free.
#pragma once

#include "frontend/Frontend.h"
#include "tensor/Tensor.h"

#include <atomic>
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tempo::views {

struct RunOutcome {
  std::vector<std::pair<std::string, Tensor>> outputs;  ///< in the graph's output order
  SymbolEnv bounds;            ///< the bound values the run used
  std::string error;           ///< empty on success
  bool cancelled = false;
  double seconds = 0;          ///< wall time of the evaluation
  size_t pointsEvaluated = 0;
  bool ok() const { return error.empty(); }
};

/// Runs every output of `program` (which must have no errors) on the reference engine.
RunOutcome runReference(const FrontendResult& program, const std::map<std::string, int64_t>& overrides,
                        const std::atomic<bool>* cancel, std::atomic<size_t>* progress);

}  // namespace tempo::views
