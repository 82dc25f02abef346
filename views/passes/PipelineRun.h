// PipelineRun: one run of the default pipeline, as the pass stepper shows it.
//
// The stepper numbers its entries as steps: step 0 is the input graph (the SDG
// as the front end lowered it), step k is the graph after the k-th pass of
// defaultPipeline(). A PipelineRun holds the input, the engine's snapshots and,
// per step, the unified diff text of the printed graphs (GraphDiff's
// unifiedDiff), all computed off the UI thread by `runDefaultPipeline`. A pass
// that throws (PassError) ends the run early; its message is kept in `error`.
#pragma once

#include "pass/Pipeline.h"

#include <QString>

#include <string>
#include <vector>

namespace tempo::views {

struct PipelineRun {
  tempo::Graph input;
  std::vector<tempo::PassSnapshot> snapshots;
  std::vector<std::string> diffTexts;  ///< per step; "" for step 0 and for unchanged passes
  std::vector<std::string> passNames;  ///< every pass of the pipeline, whether it ran or not
  QString error;                       ///< a pass failed: the rest did not run

  int stepCount() const { return static_cast<int>(snapshots.size()) + 1; }
  /// The graph after `step` (step 0: the input).
  const tempo::Graph& graphAt(int step) const;
  /// The snapshot of `step` (null for step 0 and out-of-range steps).
  const tempo::PassSnapshot* snapshotAt(int step) const;
};

/// Runs defaultPipeline() on `graph` (blocking; call it from a worker thread).
PipelineRun runDefaultPipeline(tempo::Graph graph);

}  // namespace tempo::views
