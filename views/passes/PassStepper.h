// PassStepper: step through the compiler's default pipeline, pass by pass, then its lowering.
//
// Given a checked program, it runs defaultPipeline() and the lowering stages
// (lowerProgram: schedule through machine-code) on a copy of the
// program's graph off the UI thread (QtConcurrent) and shows the result: on
// the left the pipeline as a list (PassList: input, then each pass with its
// changed-node count and time, unchanged passes greyed and hideable, then the
// stages), on the right the selected step in detail (PassComparison: for a
// pass, the graph before and after it with removed/added/rewritten nodes
// marked, the unified SDG diff, the pass's notes; for a stage, the program
// after it). Up/Down step through the passes. Every run carries a
// generation number: when a program is set while an earlier run is still in
// flight, only the latest program's run is ever shown. Clicking a node in
// either graph re-emits nodeActivated with its source range, for the editor.
#pragma once

#include "frontend/Frontend.h"
#include "passes/PipelineRun.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace tempo::views {

class PassComparison;
class PassList;

class PassStepper : public QWidget {
  Q_OBJECT
public:
  explicit PassStepper(QWidget* parent = nullptr);
  ~PassStepper() override;

  /// Runs the default pipeline on a copy of `program->graph` (off the UI
  /// thread) and shows its snapshots. A program with errors keeps the last
  /// run on screen (with a note); null clears the view.
  void setProgram(std::shared_ptr<const tempo::FrontendResult> program);

  /// True while a pipeline run is in flight.
  bool isRunning() const { return running_ > 0; }
  /// True while a run or a graph layout is in flight (screenshots wait for false).
  bool isBusy() const;
  /// The run shown (null before the first one finishes or for a program with errors).
  const std::shared_ptr<const PipelineRun>& currentRun() const { return run_; }
  /// Selects the pass called `name` ("input" for the input); false if not listed.
  bool selectPass(const QString& name);

  PassList* passList() const { return list_; }
  PassComparison* comparison() const { return comparison_; }

Q_SIGNALS:
  void nodeActivated(int nodeId, int line, int col, int endLine, int endCol);
  /// The run of the latest program is on screen.
  void pipelineShown();

private:
  void display(std::shared_ptr<const PipelineRun> run);

  PassList* list_;
  PassComparison* comparison_;
  QLabel* status_;
  std::shared_ptr<const PipelineRun> run_;
  quint64 generation_ = 0;
  int running_ = 0;
};

}  // namespace tempo::views
