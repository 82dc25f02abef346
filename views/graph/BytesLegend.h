// BytesLegend: the colour key of the graph view's predicted-bytes overlay.
//
// A horizontal ramp from the smallest to the largest value (log scale, as
// BytesColorScale colours the boxes) labelled at both ends, and a "no data"
// swatch for boxes without an estimate.
#pragma once

#include "graph/BytesColorScale.h"

#include <QWidget>

namespace tempo::views {

class BytesLegend : public QWidget {
  Q_OBJECT

public:
  explicit BytesLegend(QWidget* parent = nullptr);
  void setScale(const BytesColorScale& scale);
  QSize sizeHint() const override;

protected:
  void paintEvent(QPaintEvent* event) override;

private:
  BytesColorScale scale_;
};

}  // namespace tempo::views
