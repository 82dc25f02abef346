// MemoryChart: a run's live bytes over time, measured and predicted, with the peak marked.
//
// Fed from the run store's memory events (one per memory statement, or a
// merged stretch of them in a long run): the measured live bytes after each
// event and, where the prediction lines up with the run (see RunRecorder),
// the schedule's predicted live bytes, both against the run's clock (or the
// memory statement's index when the run was not timed), drawn as steps (two
// points per event: the level before it and after it). The measured peak
// is a marked point labelled with its bytes and time.
#pragma once

#include "runstore/RunRecord.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
class QLabel;

namespace tempo::views {

class MemoryChart : public QWidget {
  Q_OBJECT
public:
  explicit MemoryChart(QWidget* parent = nullptr);
  void setEvents(const std::vector<StoredMemoryEvent>& events);
  void clear() { setEvents({}); }

  /// Events on each curve.
  int measuredPoints() const;
  int predictedPoints() const;
  /// The measured peak: its bytes and x (ms, or statement index when untimed).
  double peakBytes() const { return peakBytes_; }
  double peakX() const { return peakX_; }
  QChart* chart() const;

private:
  QChartView* view_ = nullptr;
  QLineSeries* measured_ = nullptr;
  QLineSeries* predicted_ = nullptr;
  QScatterSeries* peak_ = nullptr;
  QLabel* summary_ = nullptr;
  double peakBytes_ = 0, peakX_ = 0;
};

}  // namespace tempo::views
