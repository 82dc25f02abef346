// OutputChart: a line plot of an output along one axis (Qt Charts).
//
// `plot` draws the tensor's values as the index along `axis` varies, with
// every other axis fixed at `fixed`. When another axis is small (at most
// eight entries) it becomes the series axis: one line per index, so a hidden
// state (B, T, H) plotted along t shows all H units of the chosen b. The
// chart theme follows the palette (light or dark).
#pragma once

#include "tensor/Tensor.h"

#include <QChartView>
#include <QStringList>

#include <vector>

namespace tempo::views {

class OutputChart : public QChartView {
  Q_OBJECT
public:
  explicit OutputChart(QWidget* parent = nullptr);

  /// Plots `tensor` along `axis`, the other axes at `fixed` (one index per axis).
  void plot(const Tensor& tensor, int axis, const std::vector<int64_t>& fixed, const QStringList& axisNames);
  /// Removes every series.
  void clearPlot(const QString& message = {});
  /// Number of series drawn (for tests).
  int seriesCount() const;

protected:
  void changeEvent(QEvent* event) override;

private:
  void applyPalette();
};

}  // namespace tempo::views
