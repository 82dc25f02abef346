// MemoryChart: a run's live bytes over time, measured and predicted, with the peak marked.
//
// Fed from the run store's memory events (one per memory statement, or a
// merged stretch of them in a long run): the measured live bytes after each
// event and, where the prediction lines up with the run (see RunRecorder),
// the schedule's predicted live bytes, both against the run's clock (or the
// memory statement's index when the run was not timed), drawn as steps (two
// points per event: the level before it and after it). The measured peak
// is a marked point labelled with its bytes and time. Below the chart, the
// stores live at the peak — or, once a range is dragged on the chart (a
// rubber band zooms to it), anywhere in that range — with the bytes measured
// for each: a store is live from an alloc, recompute, swap_in or page_in event
// of its node to the next free, swap_out or page_out; a node with no memory
// statement holds its store from its first value to the end of the run.
#pragma once

#include "runstore/RunRecord.h"

#include <QWidget>

#include <map>
#include <vector>

class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
class QLabel;
class QTableWidget;

namespace tempo::views {

class MemoryChart : public QWidget {
  Q_OBJECT
public:
  explicit MemoryChart(QWidget* parent = nullptr);
  /// `nodes`: the run's nodes (labels and measured peak bytes) for the live-stores table.
  void setEvents(const std::vector<StoredMemoryEvent>& events, const std::vector<StoredNode>& nodes = {});
  void clear() { setEvents({}); }
  /// Lists the stores live anywhere in [from, to] (the chart's x unit).
  void showLiveStores(double from, double to);
  QTableWidget* liveStores() const { return live_; }
  /// The listed stores' bytes added up (each at its measured peak).
  int64_t liveStoresBytes() const { return liveTotal_; }

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
  QLabel* liveTitle_ = nullptr;
  QTableWidget* live_ = nullptr;
  double peakBytes_ = 0, peakX_ = 0, endX_ = 0;
  int64_t liveTotal_ = 0;
  struct Interval {
    double from, to;
  };
  std::map<int, std::vector<Interval>> liveness_;  ///< per node, the x ranges its store is live
  std::map<int, StoredNode> nodes_;
};

}  // namespace tempo::views
