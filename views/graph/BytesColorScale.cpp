#include "graph/BytesColorScale.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace tempo::views {

BytesColorScale::BytesColorScale(const std::map<int, double>& values) {
  for (const auto& [id, v] : values) {
    if (v <= 0) continue;
    min_ = min_ > 0 ? std::min(min_, v) : v;
    max_ = std::max(max_, v);
  }
}

QColor BytesColorScale::ramp(double t) {
  // YlOrRd-like stops.
  static const std::array<QColor, 5> stops{QColor(0xff, 0xff, 0xcc), QColor(0xfe, 0xd9, 0x76),
                                           QColor(0xfd, 0x8d, 0x3c), QColor(0xe3, 0x1a, 0x1c),
                                           QColor(0x80, 0x00, 0x26)};
  t = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
  size_t i = std::min(static_cast<size_t>(t), stops.size() - 2);
  double f = t - static_cast<double>(i);
  const QColor &a = stops[i], &b = stops[i + 1];
  return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * f, a.greenF() + (b.greenF() - a.greenF()) * f,
                          a.blueF() + (b.blueF() - a.blueF()) * f);
}

QColor BytesColorScale::colorOf(double bytes) const {
  if (bytes <= 0 || isEmpty()) return noDataColor();
  if (max_ <= min_) return ramp(1.0);
  double t = (std::log(bytes) - std::log(min_)) / (std::log(max_) - std::log(min_));
  return ramp(t);
}

QString formatBytes(double bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  if (u == 0) return QString::number(static_cast<long long>(std::llround(bytes))) + " B";
  return QString::number(bytes, 'f', bytes < 10 ? 1 : 0) + " " + units[u];
}

}  // namespace tempo::views
