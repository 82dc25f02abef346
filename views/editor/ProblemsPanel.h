// ProblemsPanel: the list of diagnostics of the current program.
//
// One row per diagnostic in source order — severity (with the standard
// icon), `line:col` and the message — with notes nested under the problem
// they explain. Activating a row (click or Enter) emits its range so the
// editor can select it. An empty list shows a single "No problems" row
// that cannot be activated, so an empty panel is never ambiguous.
#pragma once

#include "diag/Diagnostics.h"

#include <QTreeWidget>

#include <vector>

namespace tempo::views {

class ProblemsPanel : public QTreeWidget {
  Q_OBJECT
public:
  explicit ProblemsPanel(QWidget* parent = nullptr);

  /// Replaces the list (diagnostics are sorted by position here).
  void setDiagnostics(const DiagnosticBag& diagnostics);
  /// Number of listed problems (errors and warnings; notes are not counted).
  int problemCount() const { return problemCount_; }
  /// Clicks the problem in row `row` (0-based, top-level rows), as a user would.
  void activateProblem(int row);

Q_SIGNALS:
  /// A problem was activated: its range (1-based, byte columns, end exclusive).
  void problemActivated(int line, int col, int endLine, int endCol);

private:
  void onActivated(QTreeWidgetItem* item);

  int problemCount_ = 0;
};

}  // namespace tempo::views
