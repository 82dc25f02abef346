#include "profiler/MemoryChart.h"

#include "trace/ProfileSummary.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QHeaderView>
#include <QScatterSeries>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace tempo::views {

MemoryChart::MemoryChart(QWidget* parent)
    : QWidget(parent), view_(new QChartView), measured_(new QLineSeries), predicted_(new QLineSeries),
      peak_(new QScatterSeries), summary_(new QLabel), liveTitle_(new QLabel), live_(new QTableWidget) {
  setObjectName(QStringLiteral("memoryChart"));
  measured_->setName(tr("measured live bytes"));
  predicted_->setName(tr("predicted (schedule)"));
  peak_->setName(tr("measured peak"));
  peak_->setMarkerSize(10);
  predicted_->setPen(QPen(QColor(0x80, 0x80, 0x80), 1.5, Qt::DashLine));
  auto* chart = new QChart;
  chart->addSeries(predicted_);
  chart->addSeries(measured_);
  chart->addSeries(peak_);
  chart->createDefaultAxes();
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(4, 4, 4, 4));
  view_->setChart(chart);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumHeight(150);
  view_->setRubberBand(QChartView::HorizontalRubberBand);  // drag a range to zoom into it
  live_->setColumnCount(3);
  live_->setHorizontalHeaderLabels({tr("store"), tr("bytes (measured peak)"), tr("live")});
  live_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  live_->verticalHeader()->hide();
  live_->horizontalHeader()->setStretchLastSection(true);
  auto* below = new QWidget;
  auto* bl = new QVBoxLayout(below);
  bl->setContentsMargins(0, 0, 0, 0);
  bl->addWidget(liveTitle_);
  bl->addWidget(live_, 1);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(view_);
  split->addWidget(below);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(summary_);
  layout->addWidget(split, 1);
  clear();
}

QChart* MemoryChart::chart() const { return view_->chart(); }
int MemoryChart::measuredPoints() const { return static_cast<int>(measured_->count() / 2); }
int MemoryChart::predictedPoints() const { return static_cast<int>(predicted_->count() / 2); }

void MemoryChart::setEvents(const std::vector<StoredMemoryEvent>& events, const std::vector<StoredNode>& nodes) {
  const bool timed = !events.empty() && std::all_of(events.begin(), events.end(), [](const StoredMemoryEvent& e) { return e.timeNs >= 0; });
  QList<QPointF> measured, predicted;  // steps: each event moves the curve at its time
  peakBytes_ = peakX_ = 0;
  double maxY = 1, maxX = 1;
  double lastMeasured = 0, lastPredicted = 0;
  for (const StoredMemoryEvent& e : events) {
    const double x = timed ? e.timeNs / 1e6 : static_cast<double>(e.statement);
    measured << QPointF(x, lastMeasured) << QPointF(x, static_cast<double>(e.live));
    lastMeasured = static_cast<double>(e.live);
    if (e.predictedLive) {
      predicted << QPointF(x, lastPredicted) << QPointF(x, static_cast<double>(*e.predictedLive));
      lastPredicted = static_cast<double>(*e.predictedLive);
    }
    if (e.peak > peakBytes_) peakBytes_ = static_cast<double>(e.peak), peakX_ = x;
    maxY = std::max({maxY, static_cast<double>(e.peak), e.predictedLive ? static_cast<double>(*e.predictedLive) : 0.0});
    maxX = std::max(maxX, x);
  }
  measured_->replace(measured);
  predicted_->replace(predicted);
  // Each store's live ranges, from its node's memory events.
  nodes_.clear();
  liveness_.clear();
  for (const StoredNode& n : nodes) nodes_[n.node] = n;
  std::map<int, double> openSince;
  for (const StoredMemoryEvent& e : events) {
    const double x = timed ? e.timeNs / 1e6 : static_cast<double>(e.statement);
    const bool opens = e.kind == "alloc" || e.kind == "recompute" || e.kind == "swap_in" || e.kind == "page_in";
    if (opens) {
      openSince.emplace(e.node, x);
    } else if (auto it = openSince.find(e.node); it != openSince.end()) {
      liveness_[e.node].push_back({it->second, x});
      openSince.erase(it);
    } else {
      liveness_[e.node].push_back({0, x});  // live before its first event (a store the schedule never allocates)
    }
  }
  endX_ = maxX;
  for (const auto& [node, since] : openSince) liveness_[node].push_back({since, maxX});
  for (const auto& [id, n] : nodes_)
    if (n.peakBytes > 0 && !liveness_.count(id)) liveness_[id].push_back({0, maxX});  // no memory statement: the whole run
  peak_->clear();
  if (!events.empty()) peak_->append(peakX_, peakBytes_);
  const auto axesX = chart()->axes(Qt::Horizontal), axesY = chart()->axes(Qt::Vertical);
  if (!axesX.isEmpty()) {
    auto* x = static_cast<QValueAxis*>(axesX.front());
    x->disconnect(this);
    x->setRange(0, maxX);
    x->setTitleText(timed ? tr("time (ms)") : tr("memory statement"));
    connect(x, &QValueAxis::rangeChanged, this, [this](qreal from, qreal to) { showLiveStores(from, to); });
  }
  if (!axesY.isEmpty()) {
    auto* y = static_cast<QValueAxis*>(axesY.front());
    y->setRange(0, maxY * 1.08);
    y->setTitleText(tr("bytes"));
    y->setLabelFormat(QStringLiteral("%.3g"));
  }
  showLiveStores(peakX_, peakX_);
  summary_->setText(events.empty() ? tr("No memory events in this run.")
                                   : tr("Measured peak %1 at %2; %L3 memory events%4")
                                         .arg(QString::fromStdString(formatBytes(static_cast<int64_t>(peakBytes_))))
                                         .arg(timed ? QString::fromStdString(formatDuration(static_cast<int64_t>(peakX_ * 1e6)))
                                                    : tr("statement %1").arg(peakX_))
                                         .arg(events.size())
                                         .arg(predicted.size() < measured.size() && !predicted.isEmpty()
                                                  ? tr(" (the prediction stops at the first run-time page event)")
                                                  : QString()));
}

void MemoryChart::showLiveStores(double from, double to) {
  struct Row {
    int node;
    int64_t bytes;
    double first, last;
  };
  std::vector<Row> rows;
  int64_t total = 0;
  for (const auto& [node, ranges] : liveness_) {
    double first = -1, last = -1;
    for (const Interval& r : ranges)
      if (r.from <= to && r.to >= from) {
        if (first < 0) first = r.from;
        last = r.to;
      }
    if (first < 0) continue;
    auto it = nodes_.find(node);
    const int64_t bytes = it == nodes_.end() ? 0 : it->second.peakBytes;
    rows.push_back({node, bytes, first, last});
    total += bytes;
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.bytes > b.bytes; });
  live_->setRowCount(static_cast<int>(rows.size()));
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const Row& r = rows[static_cast<size_t>(i)];
    auto it = nodes_.find(r.node);
    live_->setItem(i, 0, new QTableWidgetItem(it == nodes_.end() ? QStringLiteral("%%1").arg(r.node) : QString::fromStdString(it->second.label)));
    auto* bytes = new QTableWidgetItem(QString::fromStdString(formatBytes(r.bytes)));
    bytes->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    live_->setItem(i, 1, bytes);
    live_->setItem(i, 2, new QTableWidgetItem(r.first <= 0 && r.last >= endX_ ? tr("the whole run")
                                                                             : tr("%1 .. %2").arg(r.first, 0, 'f', 3).arg(r.last, 0, 'f', 3)));
  }
  live_->resizeColumnsToContents();
  liveTotal_ = total;
  liveTitle_->setText(from == to ? tr("Stores live at the peak: %n, %1 at their measured peaks", nullptr, static_cast<int>(rows.size()))
                                        .arg(QString::fromStdString(formatBytes(total)))
                                 : tr("Stores live in %1 .. %2: %n, %3 at their measured peaks", nullptr, static_cast<int>(rows.size()))
                                        .arg(from, 0, 'f', 3)
                                        .arg(to, 0, 'f', 3)
                                        .arg(QString::fromStdString(formatBytes(total))));
}

}  // namespace tempo::views
