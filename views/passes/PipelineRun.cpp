#include "passes/PipelineRun.h"

#include "graph/GraphPrinter.h"
#include "lowering/Lowering.h"
#include "pass/PassRegistry.h"

#include <exception>

namespace tempo::views {

const Graph& PipelineRun::graphAt(int step) const {
  if (stageAt(step)) return snapshots.empty() ? input : snapshots.back().graph;
  const PassSnapshot* s = snapshotAt(step);
  return s ? s->graph : input;
}

const LoweringSnapshot* PipelineRun::stageAt(int step) const {
  const int first = static_cast<int>(snapshots.size()) + 1;
  if (step < first || step >= stepCount()) return nullptr;
  return &stages[static_cast<size_t>(step - first)];
}

const PassSnapshot* PipelineRun::snapshotAt(int step) const {
  if (step < 1 || step > static_cast<int>(snapshots.size())) return nullptr;
  return &snapshots[static_cast<size_t>(step - 1)];
}

PipelineRun runDefaultPipeline(Graph graph) {
  PipelineRun run;
  run.input = graph;
  Pipeline pipeline = defaultPipeline();
  run.passNames = pipeline.passNames();
  try {
    run.snapshots = pipeline.run(graph);
  } catch (const std::exception& e) {
    run.error = QString::fromStdString(e.what());
  }
  if (run.error.isEmpty()) {
    try {
      IslContext isl;
      run.stages = lowerProgram(graph, isl, LoweringOptions{{}, true}).snapshots;
    } catch (const std::exception& e) {
      run.error = QString::fromStdString(std::string("lowering: ") + e.what());
    }
  }
  run.diffTexts.assign(static_cast<size_t>(run.stepCount()), std::string());
  const int passSteps = static_cast<int>(run.snapshots.size()) + 1;
  // memory-placement against the loops isl scheduled: the alloc and free lines it adds.
  for (size_t i = 1; i < run.stages.size(); ++i)
    if (run.stages[i].stage == "memory-placement" && run.stages[0].stage == "schedule")
      run.diffTexts[static_cast<size_t>(passSteps) + i] =
          unifiedDiff(run.stages[0].text, run.stages[i].text, "schedule", "memory-placement");
  std::string before = printGraph(run.input);
  for (int step = 1; step < passSteps; ++step) {
    std::string after = printGraph(run.graphAt(step));
    const std::string& name = run.snapshotAt(step)->passName;
    run.diffTexts[static_cast<size_t>(step)] =
        unifiedDiff(before, after, step == 1 ? "input" : run.snapshotAt(step - 1)->passName, name);
    before = std::move(after);
  }
  return run;
}

}  // namespace tempo::views
