// PassComparison: the right side of the pass stepper — one step in detail.
//
// For the selected step of a PipelineRun it shows a header (pass name, what
// changed, time, and the pass's student description), then side by side the
// graph before the pass (the previous step's snapshot, removed nodes marked)
// and the graph after it (added and rewritten nodes marked), both in
// GraphViews, and below them two tabs: the unified diff of the printed SDG
// (DiffView) and the notes the pass left (GraphChange::notes). The input step
// shows only the input graph. When a step's graphs are laid out, each view
// scrolls its first marked node into sight. Clicking a node in either graph re-emits
// nodeActivated with its source range. A lowering stage (schedule, storage-plan,
// memory-placement, ...) has no graphs to compare: it shows the program after it in a
// Program tab (the loops, the storage plan, the kernel table, the LLVM IR or the
// assembly) and, for memory-placement, the diff against the scheduled loops (the
// alloc and free lines it adds). For the codegen stages (llvm-ir, machine-code) a
// kernel picker above the text shows one generated kernel's function alone, the
// way Compiler Explorer shows one function, or the whole module.
#pragma once

#include "passes/PipelineRun.h"

#include <QWidget>

#include <map>
#include <memory>

class QLabel;
class QComboBox;
class QListWidget;
class QPlainTextEdit;
class QSplitter;
class QTabWidget;

namespace tempo::views {

class DiffView;
class GraphView;

class PassComparison : public QWidget {
  Q_OBJECT
public:
  explicit PassComparison(QWidget* parent = nullptr);

  /// Shows `step` of `run` (0: the input).
  void showStep(std::shared_ptr<const PipelineRun> run, int step);
  /// Shows nothing but `message` in the header (no program, a failed run).
  void clear(const QString& message);

  GraphView* beforeView() const { return before_; }
  GraphView* afterView() const { return after_; }
  DiffView* diffView() const { return diff_; }
  QListWidget* notesList() const { return notes_; }
  QPlainTextEdit* programView() const { return program_; }
  /// The codegen stages' kernel picker: "whole module", then one entry per generated kernel.
  QComboBox* kernelPicker() const { return kernelPicker_; }
  QTabWidget* tabs() const { return tabs_; }
  QString headerText() const;
  /// The marks given to the before/after graphs for the step shown.
  const std::map<int, QString>& beforeMarks() const { return beforeMarks_; }
  const std::map<int, QString>& afterMarks() const { return afterMarks_; }

Q_SIGNALS:
  void nodeActivated(int nodeId, int line, int col, int endLine, int endCol);

private:
  QWidget* pane(QLabel* caption, GraphView* view);
  void setTabCounts(int notes);
  void showStage(const PipelineRun& run, int step, const LoweringSnapshot& stage);
  /// Scrolls `view` so the first marked node is on screen (once per step shown).
  void reveal(GraphView* view, const std::map<int, QString>& marks);

  QLabel* title_;
  QLabel* description_;
  QLabel* beforeCaption_;
  QLabel* afterCaption_;
  GraphView* before_;
  GraphView* after_;
  QWidget* beforePane_ = nullptr;
  QWidget* graphs_ = nullptr;
  DiffView* diff_;
  QListWidget* notes_;
  QPlainTextEdit* program_;
  QComboBox* kernelPicker_;
  QTabWidget* tabs_;
  const LoweringSnapshot* stageShown_ = nullptr;  ///< the stage whose text the Program tab shows
  std::shared_ptr<const PipelineRun> runShown_;   ///< keeps stageShown_ alive
  std::map<int, QString> beforeMarks_, afterMarks_;
  bool revealBefore_ = false, revealAfter_ = false;  ///< a view's next layout reveals its marks
};

}  // namespace tempo::views
