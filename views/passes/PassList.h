// PassList: the left side of the pass stepper — the pipeline as a list.
//
// One row per step of a PipelineRun: first "input (after lowering)", then
// every pass of the default pipeline in order, with the number of nodes it
// changed (added + removed + rewritten, from the GraphDiff) and the time it
// took, then the lowering stages (schedule through machine-code)
// with their times. A row's tooltip is the pass's student description. Passes that
// changed nothing are greyed, and the "Hide passes that changed nothing"
// check box hides them (the input row always stays). Up/Down step through
// the visible rows; `currentStepChanged` reports the selected step (0 =
// input, k = the k-th pass, -1 = none).
#pragma once

#include "passes/PipelineRun.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QTreeWidget;
class QTreeWidgetItem;

namespace tempo::views {

class PassList : public QWidget {
  Q_OBJECT
public:
  explicit PassList(QWidget* parent = nullptr);

  /// Lists the steps of `run`, keeping the selected pass (by name) if it is still there.
  void setRun(std::shared_ptr<const PipelineRun> run);
  int currentStep() const;
  /// Selects a step (showing hidden rows if it is one); false if there is no such row.
  bool selectStep(int step);
  /// Selects the pass called `name` ("input" for step 0); false if not listed.
  bool selectPass(const QString& name);
  /// The name of the selected step ("input", a pass name, or "" when none).
  QString currentName() const;

  QTreeWidget* tree() const { return tree_; }
  QCheckBox* hideUnchangedBox() const { return hideUnchanged_; }
  /// The row of a step (null if none).
  QTreeWidgetItem* itemForStep(int step) const;

Q_SIGNALS:
  void currentStepChanged(int step);

protected:
  void changeEvent(QEvent* event) override;

private:
  void applyVisibility();
  void applyColours();
  QTreeWidgetItem* makeItem(int step) const;
  /// The step of the pass or stage called `name` ("input": 0); -1 if none.
  int stepNamed(const QString& name) const;
  /// The pass or lowering stage name of `step` (>= 1).
  std::string nameOf(int step) const;

  std::shared_ptr<const PipelineRun> run_;
  QCheckBox* hideUnchanged_;
  QTreeWidget* tree_;
};

}  // namespace tempo::views
