#include "run/EngineRun.h"

#include "executor/CompiledEngine.h"
#include "interp/ReferenceInterpreter.h"
#include "npy/LoadCheck.h"
#include "pass/PassRegistry.h"

#include <chrono>

namespace tempo::views {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void runReference(const Graph& graph, const std::atomic<bool>* cancel, std::atomic<size_t>* progress,
                  RunOutcome& outcome) {
  ReferenceInterpreter interpreter(graph, InterpreterOptions{outcome.bounds});
  interpreter.setCancelFlag(cancel);
  if (progress) interpreter.setProgressCallback([progress](size_t done) { progress->store(done); }, 1024);
  auto start = std::chrono::steady_clock::now();
  try {
    outcome.outputs = interpreter.evaluateOutputs();
  } catch (const EvalError& e) {
    outcome.cancelled = cancel && cancel->load();
    outcome.error = outcome.cancelled ? "cancelled" : std::string("evaluation failed: ") + e.what();
  }
  outcome.seconds = secondsSince(start);
  outcome.pointsEvaluated = interpreter.pointsEvaluated();
}

void runCompiledEngine(const Graph& graph, const std::atomic<bool>* cancel, std::atomic<size_t>* progress,
                       RunOutcome& outcome) {
  auto start = std::chrono::steady_clock::now();
  CompiledProgram program = compileProgram(graph, defaultPipeline());
  outcome.compileSeconds = secondsSince(start);
  CompiledRunOptions options;
  options.cancel = cancel;
  options.progress = progress;
  CompiledRunResult result;
  try {
    result = runCompiled(program, outcome.bounds, options);
  } catch (const ExecCancelled&) {
    outcome.cancelled = true;
    outcome.error = "cancelled";
    outcome.seconds = secondsSince(start) - outcome.compileSeconds;
    if (progress) outcome.pointsEvaluated = progress->load();
    return;
  }
  outcome.outputs = std::move(result.outputs);
  outcome.seconds = result.stats.seconds;
  outcome.pointsEvaluated = static_cast<size_t>(result.stats.execs);
  outcome.peakBytes = result.stats.peakBytes;
  outcome.predictedBytes = result.predictedBytes;
}

}  // namespace

RunOutcome runProgram(const FrontendResult& program, const std::map<std::string, int64_t>& overrides, Engine engine,
                      const std::atomic<bool>* cancel, std::atomic<size_t>* progress) {
  RunOutcome outcome;
  outcome.engine = engine;
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
  try {
    if (engine == Engine::Reference) runReference(program.graph, cancel, progress, outcome);
    else runCompiledEngine(program.graph, cancel, progress, outcome);
  } catch (const std::exception& e) {  // ExecError, PassError, scheduling failures, kernel errors
    outcome.error = std::string(engine == Engine::Compiled ? "compiled run failed: " : "evaluation failed: ") + e.what();
  }
  if (progress) progress->store(outcome.pointsEvaluated);
  return outcome;
}

}  // namespace tempo::views
