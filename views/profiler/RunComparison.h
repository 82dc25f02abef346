// RunComparison: two stored runs side by side — their timelines on one time scale, and the diff table.
//
// The timelines share their window: zooming or panning one moves the other
// (both start at the runs' starts, so the same instant of each run lines up);
// below them the text `tempo runs diff A B` prints (RunDiff), with the
// regressions past the threshold marked.
#pragma once

#include "profiler/TimelineView.h"
#include "runstore/RunDiff.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace tempo::views {

class RunComparison : public QWidget {
  Q_OBJECT
public:
  explicit RunComparison(QWidget* parent = nullptr);
  /// Loads runs `a` and `b` of the store at `dbPath`; false (with the reason shown) when one is missing.
  bool compare(const std::string& dbPath, int64_t a, int64_t b);
  TimelineView* timelineA() const { return a_; }
  TimelineView* timelineB() const { return b_; }
  QPlainTextEdit* diffText() const { return text_; }
  bool regressed() const { return regressed_; }

private:
  QLabel* labelA_ = nullptr;
  QLabel* labelB_ = nullptr;
  TimelineView* a_ = nullptr;
  TimelineView* b_ = nullptr;
  QPlainTextEdit* text_ = nullptr;
  bool regressed_ = false;
  bool syncing_ = false;
};

/// The timeline's description of a stored run's nodes.
std::map<int, TimelineNode> timelineNodes(const std::vector<StoredNode>& nodes, const std::string& programPath);

}  // namespace tempo::views
