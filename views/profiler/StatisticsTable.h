// StatisticsTable: `tempo profile`'s summary as a sortable table, grouped by node, op kind or source line.
//
// One row per group: calls, total, mean, min, max (per call), generated-kernel
// calls, bytes written, the measured peak bytes charged to it, the kernel and
// the source position; time columns sort by their numbers, not their text.
// Activating a row (double-click, Enter) names its source range
// (sourceActivated) so the studio can select it in the editor.
#pragma once

#include "runstore/RunRecord.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QTableWidget;

namespace tempo::views {

class StatisticsTable : public QWidget {
  Q_OBJECT
public:
  enum class GroupBy { Node, Op, Line };

  explicit StatisticsTable(QWidget* parent = nullptr);
  void setNodes(std::vector<StoredNode> nodes, int64_t runNs);
  void setGroupBy(GroupBy by);
  QTableWidget* table() const { return table_; }

Q_SIGNALS:
  void sourceActivated(int line, int col, int endLine, int endCol);

private:
  void rebuild();

  QComboBox* groupBy_ = nullptr;
  QTableWidget* table_ = nullptr;
  std::vector<StoredNode> nodes_;
  int64_t runNs_ = 0;
};

}  // namespace tempo::views
