#include "run/OutputChart.h"

#include "common/Palette.h"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include <cmath>

namespace tempo::views {

namespace {
constexpr int64_t kMaxSeries = 8;

/// The axis drawn as one line per index, or -1 for a single line.
int seriesAxisFor(const Tensor& tensor, int axis) {
  for (int a = tensor.rank() - 1; a >= 0; --a)
    if (a != axis && tensor.shape()[static_cast<size_t>(a)] > 1)
      return tensor.shape()[static_cast<size_t>(a)] <= kMaxSeries ? a : -1;
  return -1;
}

int64_t flatOf(const Tensor& tensor, const std::vector<int64_t>& index) {
  int64_t flat = 0;
  for (size_t a = 0; a < index.size(); ++a) flat = flat * tensor.shape()[a] + index[a];
  return flat;
}
}  // namespace

OutputChart::OutputChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  chart()->legend()->setAlignment(Qt::AlignRight);
  chart()->setMargins(QMargins(4, 4, 4, 4));
  applyPalette();
}

void OutputChart::applyPalette() {
  chart()->setTheme(isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart()->setBackgroundBrush(palette().color(QPalette::Base));
  chart()->setTitleBrush(palette().color(QPalette::Text));
  chart()->legend()->setLabelColor(palette().color(QPalette::Text));
}

void OutputChart::changeEvent(QEvent* event) {
  QChartView::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) applyPalette();
}

void OutputChart::clearPlot(const QString& message) {
  chart()->removeAllSeries();
  for (QAbstractAxis* a : chart()->axes()) chart()->removeAxis(a), delete a;
  chart()->setTitle(message);
}

int OutputChart::seriesCount() const { return static_cast<int>(chart()->series().size()); }

void OutputChart::plot(const Tensor& tensor, int axis, const std::vector<int64_t>& fixed, const QStringList& axisNames) {
  clearPlot();
  if (tensor.rank() == 0 || axis < 0 || axis >= tensor.rank()) {
    chart()->setTitle(tr("A scalar has no axis to plot along"));
    return;
  }
  auto nameOf = [&](int a) { return a < axisNames.size() ? axisNames[a] : QStringLiteral("axis %1").arg(a); };
  int seriesAxis = seriesAxisFor(tensor, axis);
  int64_t lines = seriesAxis < 0 ? 1 : tensor.shape()[static_cast<size_t>(seriesAxis)];
  double lo = 0, hi = 0;
  bool first = true;
  for (int64_t s = 0; s < lines; ++s) {
    auto* series = new QLineSeries;
    std::vector<int64_t> index = fixed;
    index.resize(static_cast<size_t>(tensor.rank()), 0);
    if (seriesAxis >= 0) index[static_cast<size_t>(seriesAxis)] = s;
    for (int64_t i = 0; i < tensor.shape()[static_cast<size_t>(axis)]; ++i) {
      index[static_cast<size_t>(axis)] = i;
      double v = tensor.at(flatOf(tensor, index));
      series->append(static_cast<double>(i), v);
      lo = first ? v : std::min(lo, v);
      hi = first ? v : std::max(hi, v);
      first = false;
    }
    series->setName(seriesAxis < 0 ? tr("value") : QStringLiteral("%1 = %2").arg(nameOf(seriesAxis)).arg(s));
    series->setPointsVisible(tensor.shape()[static_cast<size_t>(axis)] <= 64);
    chart()->addSeries(series);
  }
  auto* x = new QValueAxis;
  x->setTitleText(nameOf(axis));
  x->setLabelFormat(QStringLiteral("%d"));
  double last = std::max<double>(1, static_cast<double>(tensor.shape()[static_cast<size_t>(axis)] - 1));
  x->setRange(0, last);
  x->setTickType(QValueAxis::TicksDynamic);  // ticks on whole indices
  x->setTickAnchor(0);
  x->setTickInterval(std::max(1.0, std::ceil(last / 8)));
  auto* y = new QValueAxis;
  double pad = hi > lo ? 0.05 * (hi - lo) : 0.5;
  y->setRange(lo - pad, hi + pad);
  chart()->addAxis(x, Qt::AlignBottom);
  chart()->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* series : chart()->series()) series->attachAxis(x), series->attachAxis(y);
  chart()->legend()->setVisible(lines > 1);
}

}  // namespace tempo::views
