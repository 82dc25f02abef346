// PipelineRun: one run of the default pipeline and the lowering, as the pass stepper shows it.
//
// The stepper numbers its entries as steps: step 0 is the input graph (the SDG
// as the front end lowered it), step k is the graph after the k-th pass of
// defaultPipeline(), and the steps after the passes are the lowering stages
// (schedule ... machine-code: lowerProgram's snapshots, the
// loop program or the storage plan after each). A PipelineRun holds the input,
// the engine's snapshots and, per step, the unified diff text (of the printed
// graphs for a pass; for memory-placement, of the loops before and after it),
// all computed off the UI thread by `runDefaultPipeline`. A pass that throws
// (PassError) ends the run early, before lowering; a lowering that throws ends
// it there; either message is kept in `error`.
#pragma once

#include "lowering/LoweringStages.h"
#include "pass/Pipeline.h"

#include <QString>

#include <string>
#include <vector>

namespace tempo::views {

struct PipelineRun {
  tempo::Graph input;
  std::vector<tempo::PassSnapshot> snapshots;
  std::vector<tempo::LoweringSnapshot> stages;  ///< the lowering stages that ran, after the passes
  std::vector<std::string> diffTexts;  ///< per step; "" for step 0, unchanged passes and whole-text stages
  std::vector<std::string> passNames;  ///< every pass of the pipeline, whether it ran or not
  QString error;                       ///< a pass or the lowering failed: the rest did not run

  int stepCount() const { return static_cast<int>(snapshots.size() + stages.size()) + 1; }
  /// The graph after `step` (step 0: the input; a lowering stage: the optimised graph).
  const tempo::Graph& graphAt(int step) const;
  /// The snapshot of `step` (null for step 0, the lowering stages and out-of-range steps).
  const tempo::PassSnapshot* snapshotAt(int step) const;
  /// The lowering stage of `step` (null for the input and the passes).
  const tempo::LoweringSnapshot* stageAt(int step) const;
};

/// Runs defaultPipeline() on `graph` (blocking; call it from a worker thread).
PipelineRun runDefaultPipeline(tempo::Graph graph);

}  // namespace tempo::views
