#include "executor/CompiledEngine.h"

#include "executor/StoragePlanner.h"
#include "schedule/Scheduler.h"
#include "symbolic/PointSet.h"

namespace tempo {

CompiledProgram compileProgram(const Graph& source, const Pipeline& pipeline) {
  PassContext context;
  return compileProgram(source, pipeline, context);
}

CompiledProgram compileProgram(const Graph& source, const Pipeline& pipeline, PassContext& context) {
  CompiledProgram p;
  p.graph = source;
  p.passes = pipeline.run(p.graph, context);
  IslContext isl;
  p.loops = scheduleGraph(p.graph, isl);
  return p;
}

CompiledRunResult runCompiled(const CompiledProgram& program, const SymbolEnv& given, bool planStorage) {
  const SymbolEnv bounds = program.graph.withDerivedBounds(given);  // the passes may derive bounds (static tiling)
  StoragePlan plan = planStorage ? tempo::planStorage(program.graph, program.loops, bounds)
                                 : wholeStoragePlan(program.graph, bounds);
  CompiledRunResult r;
  r.predictedBytes = predictedTotalBytes(plan);
  Executor executor(program.graph, program.loops, ExecutorOptions{bounds, std::move(plan)});
  executor.run();
  r.outputs = executor.outputs();
  r.stats = executor.stats();
  return r;
}

}  // namespace tempo
