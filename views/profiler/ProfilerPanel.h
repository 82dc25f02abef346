// ProfilerPanel: the studio's profiler, fed only from the run store.
//
// Tabs: Runs (the open program's stored runs: date, label, bounds, status,
// wall time, peak; open one, compare two, delete), Timeline (TimelineView of
// the opened run), Memory (MemoryChart: measured and predicted live bytes),
// Statistics (StatisticsTable, grouped by node, op or line) and Compare
// (RunComparison of two runs). The store is a file (`.tempo/runs.db` next to
// the program); the panel opens it for each action, so runs recorded by
// `tempo profile` in another process show up on Refresh. Clicking a span or
// activating a statistics row names its source range (sourceActivated);
// highlightLine marks the spans of a source line's nodes.
#pragma once

#include "diag/Diagnostics.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <map>

class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace tempo::views {

class MemoryChart;
class RunComparison;
class StatisticsTable;
class TimelineView;

class ProfilerPanel : public QWidget {
  Q_OBJECT
public:
  explicit ProfilerPanel(QWidget* parent = nullptr);

  /// The store to read and the program whose runs are listed ("" lists every run).
  void setStore(const QString& dbPath, const QString& programPath);
  const QString& storePath() const { return dbPath_; }
  /// Reloads the runs list from the store.
  void refresh();
  /// Shows run `id` in the timeline, memory and statistics tabs; false when it cannot be read.
  bool openRun(int64_t id);
  /// Shows two runs side by side in the Compare tab.
  bool compareRuns(int64_t a, int64_t b);
  int64_t openedRun() const { return opened_; }
  /// The opened run's time per source line (ns) and its wall time, for the editor's heat margin.
  const std::map<int, int64_t>& lineTimes() const { return lineTimes_; }
  int64_t openedWallNs() const { return openedWall_; }
  /// Raises a tab by name: runs, timeline, memory, statistics or compare; false if unknown.
  bool showTab(const QString& name);

  QTabWidget* tabs() const { return tabs_; }
  QTableWidget* runsTable() const { return runs_; }
  TimelineView* timeline() const { return timeline_; }
  MemoryChart* memory() const { return memory_; }
  StatisticsTable* statistics() const { return statistics_; }
  RunComparison* comparison() const { return comparison_; }

public Q_SLOTS:
  /// Marks the spans of the nodes a source line made (0: none).
  void highlightLine(int line);

Q_SIGNALS:
  void sourceActivated(int line, int col, int endLine, int endCol);
  /// A run was opened (its line times are in lineTimes) or closed (opened run 0).
  void runOpened(qint64 id);

private:
  void openSelected();
  void compareSelected();
  void deleteSelected();
  std::vector<int64_t> selectedRuns() const;

  QString dbPath_, programPath_;
  int64_t opened_ = 0, openedWall_ = 0;
  std::map<int, int64_t> lineTimes_;
  std::map<int, SourceRange> ranges_;  ///< the opened run's nodes' source ranges (a span click selects one)
  QLabel* status_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QTableWidget* runs_ = nullptr;
  QPushButton* open_ = nullptr;
  QPushButton* compare_ = nullptr;
  QPushButton* delete_ = nullptr;
  TimelineView* timeline_ = nullptr;
  QLabel* timelineInfo_ = nullptr;
  MemoryChart* memory_ = nullptr;
  StatisticsTable* statistics_ = nullptr;
  RunComparison* comparison_ = nullptr;
};

}  // namespace tempo::views
