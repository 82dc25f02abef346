#include "run/EngineRun.h"

#include "executor/CompiledEngine.h"
#include "interp/ReferenceInterpreter.h"
#include "npy/LoadCheck.h"
#include "pass/PassRegistry.h"
#include "runstore/RunRecorder.h"
#include "runstore/RunStore.h"
#include "tensor/MappedBufferCache.h"

#include <chrono>
#include <memory>

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
    outcome.extents = reachedLines(graph, interpreter.reachedExtents());
  } catch (const EvalError& e) {
    outcome.cancelled = cancel && cancel->load();
    outcome.error = outcome.cancelled ? "cancelled" : std::string("evaluation failed: ") + e.what();
  }
  outcome.seconds = secondsSince(start);
  outcome.pointsEvaluated = interpreter.pointsEvaluated();
}

/// A traced run's place in the run store while it runs.
struct Recorder {
  std::unique_ptr<RunStore> store;
  int64_t id = 0;
  TraceCollector trace;
};

void runCompiledEngine(const FrontendResult& source, const std::atomic<bool>* cancel, std::atomic<size_t>* progress,
                       Recorder* recorder, const RunSettings& settings, RunOutcome& outcome) {
  auto start = std::chrono::steady_clock::now();
  PassContext context;
  if (!settings.transform.empty()) context.options["schedule-transform"] = settings.transform;
  if (settings.blockSize > 0) context.options["block-size"] = std::to_string(settings.blockSize);
  context.boundHints = outcome.bounds;  // the cost models size for the bounds of this run
  CompiledProgram program = compileProgram(source.graph, defaultPipeline(), context);
  outcome.compileSeconds = secondsSince(start);
  CompiledRunOptions options;
  options.memoryBudget = settings.memoryBudget;
  options.cancel = cancel;
  options.progress = progress;
  if (recorder) options.trace = &recorder->trace;
  CompiledRunResult result;
  try {
    result = runCompiled(program, outcome.bounds, options);
    releaseCachedBuffers();  // the studio runs one program after another: no run's mappings kept for the next
  } catch (const ExecCancelled&) {
    releaseCachedBuffers();
    outcome.cancelled = true;
    outcome.error = "cancelled";
    outcome.seconds = secondsSince(start) - outcome.compileSeconds;
    if (progress) outcome.pointsEvaluated = progress->load();
    return;
  }
  if (recorder) {
    try {
      recorder->store->finishRun(recorder->id, recordRun(program, outcome.bounds, result, recorder->trace, source.source, false));
      outcome.storedRun = recorder->id;
    } catch (const RunStoreError& e) {
      outcome.storeError = e.what();
    }
  }
  outcome.outputs = std::move(result.outputs);
  outcome.extents = reachedLines(program.graph, result.reached);
  outcome.seconds = result.stats.seconds;
  outcome.pointsEvaluated = static_cast<size_t>(result.stats.execs);
  outcome.peakBytes = result.stats.peakBytes;
  outcome.predictedBytes = result.predictedBytes;
}

}  // namespace

RunOutcome runProgram(const FrontendResult& program, const std::map<std::string, int64_t>& overrides, Engine engine,
                      const std::atomic<bool>* cancel, std::atomic<size_t>* progress, const RunRecording* record,
                      const RunSettings& settings) {
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
  std::unique_ptr<Recorder> recorder;
  if (record && engine == Engine::Compiled) {
    try {
      recorder = std::make_unique<Recorder>();
      recorder->store = std::make_unique<RunStore>(record->dbPath);
      const std::string path = record->programPath.empty() ? "untitled.tpo" : record->programPath;
      recorder->id = recorder->store->beginRun(
          runHeader(path, program.source, *bounds, record->label, {{"kernels", "generated"}, {"from", "studio"}}));
    } catch (const std::exception& e) {
      outcome.storeError = e.what();
      recorder.reset();
    }
  }
  try {
    if (engine == Engine::Reference) runReference(program.graph, cancel, progress, outcome);
    else runCompiledEngine(program, cancel, progress, recorder.get(), settings, outcome);
  } catch (const std::exception& e) {  // ExecError, PassError, scheduling failures, kernel errors
    outcome.error = std::string(engine == Engine::Compiled ? "compiled run failed: " : "evaluation failed: ") + e.what();
  }
  if (recorder && outcome.storedRun == 0 && outcome.storeError.empty()) {
    try {
      recorder->store->failRun(recorder->id, outcome.error.empty() ? "the run ended without a result" : outcome.error);
    } catch (const std::exception& e) {
      outcome.storeError = e.what();
    }
  }
  if (progress) progress->store(outcome.pointsEvaluated);
  return outcome;
}

}  // namespace tempo::views
