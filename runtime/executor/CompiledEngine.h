// CompiledEngine: the compiled path from a checked graph to outputs.
//
// `compileProgram` runs the pass pipeline and the parametric isl schedule
// once; `runCompiled` executes the result at any bound values (no
// recompilation: the schedule's bounds are symbolic), with the storage
// planner's stores, and reports the outputs, the executor's statistics and
// the planner's predicted bytes next to the measured peak. This is what
// `tempo run --engine compiled`, the studio and the differential tests call.
#pragma once

#include "executor/Executor.h"
#include "pass/Pipeline.h"
#include "schedule/LoopAst.h"

#include <string>
#include <utility>
#include <vector>

namespace tempo {

struct CompiledProgram {
  Graph graph;                        ///< after the pass pipeline
  LoopProgram loops;                  ///< the parametric schedule of `graph`
  std::vector<PassSnapshot> passes;   ///< one per pass that ran
};

struct CompiledRunResult {
  std::vector<std::pair<std::string, Tensor>> outputs;  ///< in graph output order
  ExecStats stats;
  int64_t predictedBytes = 0;  ///< the storage plan's prediction at these bounds
};

/// Optimises `source` with `pipeline` and schedules it. Throws PassError or
/// std::runtime_error (scheduling failure) with a message.
CompiledProgram compileProgram(const Graph& source, const Pipeline& pipeline);
/// The same with the passes' options and bound hints (e.g. "block-size").
CompiledProgram compileProgram(const Graph& source, const Pipeline& pipeline, PassContext& context);

/// Runs `program` at `bounds`. With `planStorage` false every node keeps all
/// its points (the baseline). Throws ExecError.
CompiledRunResult runCompiled(const CompiledProgram& program, const SymbolEnv& bounds, bool planStorage = true);

}  // namespace tempo
