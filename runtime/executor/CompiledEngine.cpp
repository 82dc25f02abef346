#include "executor/CompiledEngine.h"

#include "kernels/cpu/Matmul.h"
#include "lowering/Lowering.h"

#include "memory/BufferSharing.h"
#include "memory/MemoryPlacement.h"
#include "memory/MemoryPrediction.h"
#include "memory/StoragePlanner.h"
#include "schedule/Scheduler.h"
#include "symbolic/PointSet.h"

#include <algorithm>
#include <set>

namespace tempo {

CompiledProgram compileProgram(const Graph& source, const Pipeline& pipeline) {
  PassContext context;
  return compileProgram(source, pipeline, context);
}

namespace {

/// `given`, the graph's defaults for the other bounds, and the bounds the passes derive (static tiling).
SymbolEnv withDefaultBounds(const Graph& g, SymbolEnv given) {
  for (const auto& [name, value] : g.boundDefaults) given.emplace(name, value);
  return g.withDerivedBounds(std::move(given));
}

/// Whether matmul `n` is a small f32 product (libxsmm's) at `bounds`: its result's last two dims
/// M x N against its left operand's last dim K. False when a size is not known there (a shape
/// that depends on a dimension).
bool isSmallProduct(const Graph& g, const Node& n, const SymbolEnv& bounds) {
  if (n.type.dtype != DType::F32 || n.type.shape.size() < 2) return false;
  std::vector<const Edge*> in = g.inputs(n.id);
  if (in.empty()) return false;
  try {
    const std::vector<int64_t> out = n.type.evaluateShape(bounds);
    const std::vector<int64_t> left = g.node(in.front()->producer).type.evaluateShape(bounds);
    return !left.empty() && cpu::isSmallGemm(out[out.size() - 2], out.back(), left.back());
  } catch (const std::exception&) {
    return false;
  }
}

/// Whether any matmul of `g` is a small product at `hints` and the graph's default bounds.
bool hasSmallProducts(const Graph& g, const SymbolEnv& hints) {
  SymbolEnv bounds;
  try {
    bounds = withDefaultBounds(g, hints);
  } catch (const std::exception&) {
    return false;  // a derived bound without its inputs: sizes unknown
  }
  for (const auto& [id, node] : g.nodes())
    if (node.op == OpKind::MatMul && isSmallProduct(g, node, bounds)) return true;
  return false;
}

}  // namespace

CompiledProgram compileProgram(const Graph& source, const Pipeline& pipeline, PassContext& context) {
  CompiledProgram p;
  PhaseClock clock;
  p.graph = source;
  p.passes = pipeline.run(p.graph, context);
  clock.lap("passes");
  IslContext isl;
  LoweringOptions lowering;
  if (auto named = context.options.find("scheduler"); named != context.options.end()) {
    std::optional<ScheduleOptions::Algorithm> algorithm = parseAlgorithm(named->second);
    if (!algorithm) throw std::invalid_argument("unknown scheduler '" + named->second + "' (fusion, isl or fallback)");
    lowering.schedule.algorithm = *algorithm;
  }
  if (auto transform = context.options.find("schedule-transform"); transform != context.options.end())
    lowering.schedule.transforms = parseScheduleTransforms(transform->second);
  LoweredProgram lowered = lowerProgram(p.graph, isl, lowering);
  clock.add(lowered.phases);
  p.scheduler = lowered.schedule.used;
  p.fusionFailure = lowered.schedule.fusionFailure;
  p.clusters = lowered.schedule.clusters;
  p.stores = std::move(lowered.stores);
  p.loops = std::move(lowered.loops);
  p.windowReads = std::move(lowered.windowReads);
  p.kernels = std::move(lowered.kernels);
  p.loopKernels = std::move(lowered.loopKernels);
  p.native = std::move(lowered.native);
  // The GEMM libraries' one-off set-up belongs to compiling, not to the run's first product.
  bool products = false;
  for (const auto& [id, node] : p.graph.nodes()) products = products || node.op == OpKind::MatMul;
  if (products) {
    cpu::prepareGemm();
    if (hasSmallProducts(p.graph, context.boundHints)) cpu::prepareSmallGemm();
    clock.lap("gemm set-up");
  }
  p.compilePhases = clock.phases();
  return p;
}

namespace {

/// The bound values a run of `program` sees.
SymbolEnv runBounds(const CompiledProgram& program, const SymbolEnv& given) {
  return withDefaultBounds(program.graph, given);
}

/// Adds to `nodes` every node `s` executes, but whole-array sources (their arrays are whole).
void addComputedNodes(const Graph& g, const LoopStmt& s, std::set<int>& nodes) {
  if (const auto* f = s.as<ForStmt>()) {
    for (const LoopStmt& inner : f->body) addComputedNodes(g, inner, nodes);
  } else if (const auto* i = s.as<IfStmt>()) {
    for (const LoopStmt& inner : i->thenBody) addComputedNodes(g, inner, nodes);
    for (const LoopStmt& inner : i->elseBody) addComputedNodes(g, inner, nodes);
  } else if (const auto* e = s.as<ExecStmt>()) {
    if (!isWholeArraySource(g.node(e->node).op)) nodes.insert(e->node);
  }
}

/// The top-level loops of `loops` (planned as `plans`) that a run at `values` left early
/// (`reached`: the executor's report), in program order, each with the bounds every later statement ran at.
std::vector<LoopStop> loopStops(const CompiledProgram& program, const LoopProgram& loops, const SymbolEnv& values,
                                const std::vector<UntilLoop>& plans, const std::vector<ReachedExtent>& reached) {
  std::vector<std::pair<const UntilLoop*, const ReachedExtent*>> stopped;
  for (const UntilLoop& u : plans)
    for (const ReachedExtent& e : reached)
      if (u.topStatement >= 0 && e.dim == u.dim && e.stopped && e.reached < values.at(e.bound))
        stopped.emplace_back(&u, &e);
  std::sort(stopped.begin(), stopped.end(),
            [](const auto& a, const auto& b) { return a.first->topStatement < b.first->topStatement; });
  std::vector<LoopStop> stops;
  std::vector<ReachedExtent> before;
  for (const auto& [u, e] : stopped) {
    before.push_back(*e);
    LoopStop stop{static_cast<size_t>(u->topStatement), e->reached - 1 - u->offset,
                  boundsAsRun(program.graph, values, before), {}};
    addComputedNodes(program.graph, loops.body.at(stop.topStatement), stop.partlyWritten);
    stops.push_back(std::move(stop));
  }
  return stops;
}

/// The memory a run of `loops` at `values` holds, predicted; for the run as it went where an
/// until loop of `untils` stopped (`reached`), so that the prediction meets it event for event.
MemoryPrediction predictRun(const CompiledProgram& program, const LoopProgram& loops, const SymbolEnv& values,
                            const std::vector<WindowRead>& windows, MemoryTimeline* timeline,
                            const std::vector<UntilLoop>& untils = {}, const std::vector<ReachedExtent>& reached = {}) {
  return predictMemory(loops, values, sharedBuffers(program.graph, values, windows, &program.stores), timeline,
                       nullptr, loopStops(program, loops, values, untils, reached));
}

}  // namespace

int64_t predictRunPeak(const CompiledProgram& program, const SymbolEnv& bounds) {
  return predictRun(program, program.loops, runBounds(program, bounds), program.windowReads, nullptr).peakBytes;
}

namespace {

/// One run of `program` at `values` (every bound given); its until loops stop where they can (UntilLoops).
CompiledRunResult runOnce(const CompiledProgram& program, const SymbolEnv& values, const CompiledRunOptions& options) {
  CompiledRunResult r;
  StoragePlan plan;
  LoopProgram changed;  // the schedule when this run changes it (swaps, no memory statements)
  const LoopProgram* loops = &program.loops;
  std::vector<WindowRead> windows;
  if (options.planStorage) {
    plan = program.stores;
    for (auto& [id, spec] : plan)
      spec.predictedBytes = predictStoreBytes(program.graph, program.graph.node(id), spec, values);
    if (options.memoryBudget) {
      r.swapPlan = placeSwaps(program.graph, program.loops, values, *options.memoryBudget);
      if (!r.swapPlan->feasible()) throw MemoryBudgetError(r.swapPlan->infeasibility());
      loops = &r.swapPlan->program;
    }
    if (!options.memoryBudget) windows = program.windowReads;  // a budget's pager moves whole stores: slices copy
  } else {
    plan = wholeStoragePlan(program.graph, values);
    changed = withoutMemoryStatements(program.loops);
    loops = &changed;
    r.predictedBytes = predictedTotalBytes(plan);
  }
  const std::vector<UntilLoop> untils = planUntilLoops(program.graph, *loops);
  Executor executor(program.graph, *loops,
                    ExecutorOptions{values, std::move(plan), options.cancel, options.progress, {options.matmul},
                                    options.planStorage ? options.memoryBudget : std::nullopt,
                                    options.generatedKernels ? program.native.get() : nullptr, options.trace,
                                    windows, options.sourceArrays, untils});
  executor.run();
  r.paging = executor.paging();
  r.outputs = executor.outputs();
  r.stats = executor.stats();
  r.measuredTimeline = executor.memoryTimeline();
  r.nodePeakBytes = executor.memory().nodePeaks();
  r.execStatements = executor.execStatements();
  r.reached = executor.reachedExtents();
  if (options.planStorage && options.predictMemory)
    r.predictedBytes = predictRun(program, *loops, values, windows, &r.predictedTimeline, untils, r.reached).peakBytes;
  return r;
}

/// The steps until dimension `u` ran in `r` (of `most`): the executor's report where its loop stopped
/// (`*stoppedLoop` set), else the first step where its condition's output holds everywhere.
ReachedExtent reachedIn(const CompiledProgram& program, const CompiledRunResult& r, const UntilLoop& u,
                        const SymbolEnv& values, const SymbolEnv& most, bool* stoppedLoop) {
  *stoppedLoop = false;
  for (ReachedExtent e : r.reached)
    if (e.dim == u.dim) {
      *stoppedLoop = true;
      e.maximum = most.at(u.bound);
      return e;
    }
  ReachedExtent e{u.dim, u.bound, most.at(u.bound), values.at(u.bound), false};
  for (size_t i = 0; i < program.graph.outputs.size(); ++i)
    if (program.graph.outputs[i].untilDim == u.dim) {
      const int64_t step = firstStepHolding(r.outputs.at(i).second, u.axis);
      if (step >= 0) e.reached = step + 1, e.stopped = true;
    }
  return e;
}

}  // namespace

CompiledRunResult runCompiled(const CompiledProgram& program, const SymbolEnv& given,
                              const CompiledRunOptions& options) {
  SymbolEnv values = runBounds(program, given);
  const std::vector<UntilLoop> untils = planUntilLoops(program.graph, program.loops);
  CompiledRunResult r = runOnce(program, values, options);
  // An until dimension whose loop could not stop runs to its bound; run again where its condition held.
  for (int runs = 1; !untils.empty(); ++runs) {
    const SymbolEnv most = runBounds(program, given);
    std::vector<ReachedExtent> reached;
    std::optional<ReachedExtent> again;
    for (const UntilLoop& u : untils) {
      bool stoppedLoop = false;
      reached.push_back(reachedIn(program, r, u, values, most, &stoppedLoop));
      if (!again && !stoppedLoop && reached.back().reached < values.at(u.bound)) again = reached.back();
    }
    if (!again) {
      r.reached = std::move(reached);
      r.runs = runs;
      break;
    }
    values = boundsAsRun(program.graph, values, {*again});
    r = runOnce(program, values, options);
  }
  return r;
}



CompiledRunResult runCompiled(const CompiledProgram& program, const SymbolEnv& bounds, bool planStorage) {
  return runCompiled(program, bounds, CompiledRunOptions{planStorage, std::nullopt});
}

}  // namespace tempo
