#include "profiler/MemoryChart.h"

#include "trace/ProfileSummary.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace tempo::views {

MemoryChart::MemoryChart(QWidget* parent)
    : QWidget(parent), view_(new QChartView), measured_(new QLineSeries), predicted_(new QLineSeries),
      peak_(new QScatterSeries), summary_(new QLabel) {
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
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(summary_);
  layout->addWidget(view_, 1);
  clear();
}

QChart* MemoryChart::chart() const { return view_->chart(); }
int MemoryChart::measuredPoints() const { return static_cast<int>(measured_->count() / 2); }
int MemoryChart::predictedPoints() const { return static_cast<int>(predicted_->count() / 2); }

void MemoryChart::setEvents(const std::vector<StoredMemoryEvent>& events) {
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
  peak_->clear();
  if (!events.empty()) peak_->append(peakX_, peakBytes_);
  const auto axesX = chart()->axes(Qt::Horizontal), axesY = chart()->axes(Qt::Vertical);
  if (!axesX.isEmpty()) {
    auto* x = static_cast<QValueAxis*>(axesX.front());
    x->setRange(0, maxX);
    x->setTitleText(timed ? tr("time (ms)") : tr("memory statement"));
  }
  if (!axesY.isEmpty()) {
    auto* y = static_cast<QValueAxis*>(axesY.front());
    y->setRange(0, maxY * 1.08);
    y->setTitleText(tr("bytes"));
    y->setLabelFormat(QStringLiteral("%.3g"));
  }
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

}  // namespace tempo::views
