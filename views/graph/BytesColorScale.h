// BytesColorScale: the colours of the graph view's predicted-bytes overlay.
//
// A logarithmic scale from the smallest to the largest positive value (bytes
// differ by orders of magnitude between a scalar and a KV cache) onto a
// light-yellow -> orange -> dark-red ramp; zero and missing values get the
// neutral "no data" grey. Also formats byte counts for labels and the
// legend (`64 B`, `4.5 KiB`, `12 MiB`).
#pragma once

#include <QColor>
#include <QString>

#include <map>

namespace tempo::views {

class BytesColorScale {
public:
  BytesColorScale() = default;
  explicit BytesColorScale(const std::map<int, double>& values);

  bool isEmpty() const { return max_ <= 0; }
  double min() const { return min_; }
  double max() const { return max_; }
  /// The colour of `bytes` (noDataColor() for <= 0).
  QColor colorOf(double bytes) const;
  /// The ramp at `t` in [0, 1].
  static QColor ramp(double t);
  static QColor noDataColor() { return QColor(0xe5, 0xe7, 0xeb); }

private:
  double min_ = 0, max_ = 0;
};

QString formatBytes(double bytes);

}  // namespace tempo::views
