// TimelineView: a run's statement instances on a zoomable, pannable time axis.
//
// The renderer half of the timeline (TimelineLevels is the model): a time
// ruler, the executor's track and, when a node is selected, a track of that
// node's instances, and above it a track of the top-level loops' iterations
// (the trace's steps: a click on one zooms to it). Zoomed out it draws the coarsest level of detail whose
// buckets fit a pixel (height = how busy, colour = the dominant node);
// zoomed in to at most kMaxSpansDrawn spans it asks the SpanSource for them
// and draws each one, labelled when wide enough. The spans fetched for a
// window are cached until the window changes. Mouse: the wheel zooms around
// the cursor, a drag pans, a click on a span selects its node (spanClicked);
// keys: W/S or +/- zoom, A/D or the arrows pan, Home shows the whole run. A
// span's tooltip names its node, statement, source line, coordinates, start
// and duration; a clicked span's flows are drawn as arrows (to the spans that
// read its value, from the spans whose values it read). `lastFrameMs` is the time the last paint took (the frame-time
// test and the status line read it).
#pragma once

#include "profiler/SpanSource.h"
#include "profiler/TimelineLevels.h"

#include <QMetaType>
#include <QString>
#include <QWidget>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace tempo::views {

/// What the timeline shows about a node.
struct TimelineNode {
  QString label;   ///< `%4 'h' (merge)`
  QString source;  ///< `rnn.tpo:17:3`
  QString dims;    ///< `b, t`
  int line = 0;
};

class TimelineView : public QWidget {
  Q_OBJECT
public:
  static constexpr int64_t kMaxSpansDrawn = 6000;

  explicit TimelineView(QWidget* parent = nullptr);

  /// Shows `source` (levels built here, once) with its nodes' descriptions.
  void setTrace(std::shared_ptr<const SpanSource> source, std::map<int, TimelineNode> nodes);
  void clear();
  /// The iterations of the top-level loops, drawn as their own track (at most a few thousand).
  void setSteps(std::vector<StoredStep> steps);
  const std::vector<StoredStep>& steps() const { return steps_; }
  /// The step drawn at `pos`, if any.
  std::optional<StoredStep> stepAt(const QPoint& pos) const;
  bool hasTrace() const { return source_ != nullptr; }
  const TimelineLevels& levels() const { return levels_; }

  /// The visible window, in ns since the run's start.
  void setWindow(double fromNs, double toNs);
  double windowStart() const { return from_; }
  double windowEnd() const { return to_; }
  void showAll();
  /// The time range the window may cover (default: the run's length); two runs on one scale share the longer one.
  void setExtent(double ns);
  double extent() const { return extent_; }
  /// Zooms by `factor` (> 1 zooms in) keeping the time under pixel `anchorX` in place.
  void zoom(double factor, double anchorX);
  void panPixels(double dx);

  /// Highlights a node's instances on their own track (-1: none).
  void selectNode(int node);
  /// Selects one span (its node too) and shows its flows: arrows to the spans that read the value it
  /// wrote and from the spans whose values it read (what a click on a span does).
  void selectSpan(const StoredSpan& span);
  const std::vector<StoredFlow>& flows() const { return flows_; }
  /// Highlights the nodes of a source line (0: none).
  void selectLine(int line);
  int selectedNode() const { return selectedNode_; }
  int selectedLine() const { return selectedLine_; }

  /// The span drawn at `pos` (only when spans, not buckets, are drawn).
  std::optional<StoredSpan> spanAt(const QPoint& pos) const;
  /// True when the last paint drew single spans (false: levels of detail).
  bool drewSpans() const { return drewSpans_; }
  double lastFrameMs() const { return lastFrameMs_; }
  QSize sizeHint() const override { return {900, 160}; }

Q_SIGNALS:
  void spanClicked(const tempo::StoredSpan& span);
  void windowChanged(double fromNs, double toNs);

protected:
  void paintEvent(QPaintEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;

private:
  QRectF stepsRect() const;
  QRectF trackRect() const;
  QRectF selectedTrackRect() const;
  double xOf(double ns) const;
  double nsAt(double x) const;
  const std::vector<StoredSpan>& visibleSpans() const;
  const std::vector<StoredSpan>& visibleSelected() const;
  QColor colorOf(int node) const;
  QString describe(const StoredSpan& s) const;
  void paintRuler(class QPainter& p) const;
  void paintSteps(QPainter& p) const;
  void paintFlows(QPainter& p, const QRectF& track) const;
  QString flowSummary() const;
  void paintBuckets(QPainter& p, const QRectF& track) const;
  void paintSpans(QPainter& p, const QRectF& track, const std::vector<StoredSpan>& spans, bool labels) const;

  std::shared_ptr<const SpanSource> source_;
  std::map<int, TimelineNode> nodes_;
  std::vector<StoredStep> steps_;
  std::optional<StoredSpan> selectedSpan_;
  std::vector<StoredFlow> flows_;
  TimelineLevels levels_;
  double from_ = 0, to_ = 1, extent_ = 1;
  int selectedNode_ = -1;
  int selectedLine_ = 0;
  mutable std::vector<StoredSpan> spans_, selected_;
  mutable double spansFrom_ = -1, spansTo_ = -1, selectedFrom_ = -1, selectedTo_ = -1;
  mutable int selectedFor_ = -2;
  mutable bool spansTruncated_ = false;
  bool drewSpans_ = false;
  double lastFrameMs_ = 0;
  QPoint pressPos_;
  double pressFrom_ = 0;
  bool dragging_ = false;
};

}  // namespace tempo::views

Q_DECLARE_METATYPE(tempo::StoredSpan)
