#include "run/ReferenceRun.h"

#include "interp/ReferenceInterpreter.h"
#include "npy/LoadCheck.h"

#include <chrono>

namespace tempo::views {

RunOutcome runReference(const FrontendResult& program, const std::map<std::string, int64_t>& overrides,
                        const std::atomic<bool>* cancel, std::atomic<size_t>* progress) {
  RunOutcome outcome;
  if (!program.ok()) {
    outcome.error = "the program has errors:\n" + program.renderedDiagnostics();
    return outcome;
  }
  std::optional<SymbolEnv> bounds = resolveBounds(program.graph, overrides, outcome.error);
  if (!bounds) return outcome;
  outcome.bounds = *bounds;
  DiagnosticBag loads;
  checkLoadedArrays(program.graph, *bounds, loads);
  if (loads.hasErrors()) {
    outcome.error = renderAll(loads, program.source);
    return outcome;
  }
  ReferenceInterpreter interpreter(program.graph, InterpreterOptions{*bounds});
  interpreter.setCancelFlag(cancel);
  if (progress) interpreter.setProgressCallback([progress](size_t done) { progress->store(done); }, 1024);
  auto start = std::chrono::steady_clock::now();
  try {
    outcome.outputs = interpreter.evaluateOutputs();
  } catch (const EvalError& e) {
    outcome.cancelled = cancel && cancel->load();
    outcome.error = outcome.cancelled ? "cancelled" : std::string("evaluation failed: ") + e.what();
  } catch (const std::exception& e) {
    outcome.error = std::string("evaluation failed: ") + e.what();
  }
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.pointsEvaluated = interpreter.pointsEvaluated();
  if (progress) progress->store(outcome.pointsEvaluated);
  return outcome;
}

}  // namespace tempo::views
