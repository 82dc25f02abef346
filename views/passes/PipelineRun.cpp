#include "passes/PipelineRun.h"

#include "graph/GraphPrinter.h"
#include "pass/PassRegistry.h"

#include <exception>

namespace tempo::views {

const Graph& PipelineRun::graphAt(int step) const {
  const PassSnapshot* s = snapshotAt(step);
  return s ? s->graph : input;
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
  run.diffTexts.assign(static_cast<size_t>(run.stepCount()), std::string());
  std::string before = printGraph(run.input);
  for (int step = 1; step < run.stepCount(); ++step) {
    std::string after = printGraph(run.graphAt(step));
    const std::string& name = run.snapshotAt(step)->passName;
    run.diffTexts[static_cast<size_t>(step)] =
        unifiedDiff(before, after, step == 1 ? "input" : run.snapshotAt(step - 1)->passName, name);
    before = std::move(after);
  }
  return run;
}

}  // namespace tempo::views
