// ExecError: a failure while running a LoopProgram.
//
// Every error of the executor is an ExecError whose message names what went
// wrong in terms a person can act on: the node (`%4 'h' (merge)`), the domain
// point, and — for storage mistakes — which store kind refused the read and
// why (evicted by a circular window, never written, freed). Tests rely on
// these errors to catch a wrong storage plan or schedule instead of silently
// reading stale values. `node`/`point` are set when the failure is tied to one.
// ExecCancelled is the one "error" that is not: a caller asked the run to stop.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tempo {

class ExecError : public std::runtime_error {
public:
  explicit ExecError(const std::string& message, int node = -1, std::vector<int64_t> point = {})
      : std::runtime_error(message), node(node), point(std::move(point)) {}

  int node = -1;
  std::vector<int64_t> point;
};

/// The run was stopped through ExecutorOptions::cancel (not a failure of the program).
class ExecCancelled : public ExecError {
public:
  ExecCancelled() : ExecError("cancelled") {}
};

}  // namespace tempo
