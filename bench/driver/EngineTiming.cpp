#include "driver/EngineTiming.h"

#include "driver/ProcessMemory.h"

#include <cstdlib>

#include "executor/CompiledEngine.h"
#include "init/SourceArray.h"
#include "interp/ReferenceInterpreter.h"
#include "pass/PassRegistry.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>

namespace tempo::bench {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Runs `once(timed)` warmup + reps times and records the wall time of the timed runs.
template <class Once>
void repeat(const TimingPlan& plan, EngineTimings& t, Once once) {
  for (int i = 0; i < plan.warmup + plan.reps; ++i) {
    Clock::time_point start = Clock::now();
    once(i >= plan.warmup);
    if (i >= plan.warmup) t.runSeconds.push_back(secondsSince(start));
  }
}

}  // namespace

Summary summarise(std::vector<double> values) {
  Summary s;
  s.n = static_cast<int>(values.size());
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  s.median = values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
  s.min = values.front();
  s.max = values.back();
  return s;
}

EngineTimings timeCompiled(const Graph& g, const SymbolEnv& bounds, const TimingPlan& plan, const CompiledKnobs& knobs) {
  EngineTimings t;
  t.engine = "compiled";
  Clock::time_point start = Clock::now();
  Pipeline pipeline = defaultPipeline();
  for (const std::string& pass : knobs.disabledPasses) pipeline.disable(pass);
  PassContext context;
  context.boundHints = bounds;  // the cost models size for the bounds of this run, as `tempo run` does
  if (!knobs.scheduler.empty()) context.options["scheduler"] = knobs.scheduler;
  CompiledProgram program = compileProgram(g, std::move(pipeline), context);
  t.compileSeconds = secondsSince(start);
  t.compilePhases = program.compilePhases;
  // The memory prediction walks every statement instance at these bounds: made once here, untimed
  // and before the peak RSS is reset, where `tempo run` makes it with each run.
  start = Clock::now();
  t.predictedBytes = predictRunPeak(program, bounds);
  t.predictSeconds = secondsSince(start);
  const bool reset = resetPeakRss();
  t.runBaseRssMiB = currentRssMiB();
  CompiledRunOptions options;
  options.matmul = knobs.matmul;
  options.generatedKernels = knobs.generatedKernels;
  options.predictMemory = false;
  TraceCollector collector(std::getenv("TEMPO_TRACE_SPANS") ? std::strtoull(std::getenv("TEMPO_TRACE_SPANS"), nullptr, 10) : size_t(1) << 20);
  if (knobs.trace) options.trace = &collector;
  std::map<NodeId, Tensor> inputs;
  if (knobs.inputsReady) {
    SymbolEnv defaulted = bounds;
    for (const auto& [name, value] : program.graph.boundDefaults) defaulted.emplace(name, value);
    inputs = buildSourceArrays(program.graph, program.graph.withDerivedBounds(defaulted));
    options.sourceArrays = &inputs;
  }
  repeat(plan, t, [&](bool timed) {
    CompiledRunResult r = runCompiled(program, bounds, options);
    if (!timed) return;
    t.execSeconds.push_back(r.stats.seconds);
    t.peakBytes = r.stats.peakBytes;
    t.work = r.stats.execs;
    t.nativeCalls = r.stats.nativeCalls;
    t.boxedExecs = r.stats.boxedExecs;
    t.outputs = std::move(r.outputs);
  });
  t.runPeakRssMiB = reset ? peakRssSinceResetMiB() : std::numeric_limits<double>::quiet_NaN();
  return t;
}

EngineTimings timeReference(const Graph& g, const SymbolEnv& bounds, const TimingPlan& plan) {
  EngineTimings t;
  t.engine = "reference";
  repeat(plan, t, [&](bool timed) {
    ReferenceInterpreter interp(g, InterpreterOptions{bounds});
    std::vector<std::pair<std::string, Tensor>> outputs = interp.evaluateOutputs();
    if (!timed) return;
    t.work = static_cast<int64_t>(interp.pointsEvaluated());
    t.outputs = std::move(outputs);
  });
  return t;
}

double sourceInitSeconds(const Graph& g, const SymbolEnv& bounds) {
  Clock::time_point start = Clock::now();
  buildSourceArrays(g, bounds);
  return secondsSince(start);
}

}  // namespace tempo::bench
