// EngineRun: one run of a checked program, on the reference or the compiled engine.
//
// What `tempo run --engine reference|compiled` does, as a function the studio
// calls on a worker thread: resolve the bounds (the program's `set`
// defaults overridden by the bounds editor), check the load() files against
// the declarations under those bounds, then evaluate every output — point
// by point with the ReferenceInterpreter, or by compiling the graph (pass
// pipeline + isl schedule, compileProgram) and executing it (runCompiled).
// The caller passes a cancel flag and a counter of points evaluated for a
// progress display; only the reference engine honours them. The outcome says
// what ran, how long it took, the memory the compiled engine measured and
// predicted, or why it failed. With a RunRecording the compiled run is traced
// and recorded in the run store (as `tempo profile` records it: begun before
// compiling, finished in one transaction, marked failed on an error) and the
// outcome names the stored run. RunSettings carry the schedule's transforms, the block
// size and a memory budget to the compiled engine. Qt-free.
#pragma once

#include "frontend/Frontend.h"
#include "tensor/Tensor.h"

#include <atomic>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tempo::views {

enum class Engine { Reference, Compiled };

struct RunOutcome {
  Engine engine = Engine::Reference;
  std::vector<std::pair<std::string, Tensor>> outputs;  ///< in the graph's output order
  SymbolEnv bounds;              ///< the bound values the run used
  std::string error;             ///< empty on success
  bool cancelled = false;
  double seconds = 0;            ///< wall time of the evaluation (execution only for the compiled engine)
  double compileSeconds = 0;     ///< compiled engine: passes + schedule
  size_t pointsEvaluated = 0;    ///< reference: (node, point) values; compiled: Exec statements
  std::optional<int64_t> peakBytes;       ///< compiled engine: measured
  std::optional<int64_t> predictedBytes;  ///< compiled engine: the storage plan's prediction
  std::vector<std::string> extents;  ///< per `until` dimension: where it stopped (ReachedExtent::str)
  int64_t storedRun = 0;         ///< recorded: the run's id in the store (0: not recorded)
  std::string storeError;        ///< recorded: why the store could not take the run (the run itself may be fine)
  bool ok() const { return error.empty(); }
};

/// Where and how a profiled run is recorded.
struct RunRecording {
  std::string dbPath;       ///< the run store file
  std::string programPath;  ///< the program's file ("" for an unsaved one)
  std::string label;
};

/// How the compiled engine compiles and runs (the reference engine ignores it): what the
/// studio's schedule view and run panel set, as `tempo run` takes them from its options.
struct RunSettings {
  std::string transform;                ///< the schedule's transforms by hand (`interchange b, t`), "" for none
  int64_t blockSize = 0;                ///< the tiling's block size, 0 for the cost model's
  std::optional<int64_t> memoryBudget;  ///< plan swaps and recomputes to stay under this many bytes
};

/// Runs every output of `program` (which must have no errors) on `engine`.
/// `record` (compiled engine only) traces the run and records it in the run store.
RunOutcome runProgram(const FrontendResult& program, const std::map<std::string, int64_t>& overrides, Engine engine,
                      const std::atomic<bool>* cancel, std::atomic<size_t>* progress,
                      const RunRecording* record = nullptr, const RunSettings& settings = {});

}  // namespace tempo::views
