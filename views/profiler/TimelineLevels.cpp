#include "profiler/TimelineLevels.h"

#include <algorithm>
#include <utility>

namespace tempo::views {

namespace {

/// Busy time per node inside one bucket while it fills (spans arrive in time order, so a
/// bucket's contributions arrive together; few nodes share one bucket).
class BucketFill {
public:
  void add(int node, int64_t ns) {
    for (auto& [n, t] : parts_)
      if (n == node) {
        t += ns;
        return;
      }
    parts_.emplace_back(node, ns);
  }
  void flushInto(TimelineBucket& b) {
    for (const auto& [n, t] : parts_)
      if (t > b.dominantNs) b.dominant = n, b.dominantNs = t;
    parts_.clear();
  }

private:
  std::vector<std::pair<int, int64_t>> parts_;
};

size_t ceilPow2(size_t n) {
  size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace

void TimelineLevels::build(const SpanSource& source, size_t maxBaseBuckets) {
  endNs_ = std::max<int64_t>(source.endNs(), 1);
  spans_ = source.spanCount();
  const size_t buckets = std::clamp<size_t>(ceilPow2(static_cast<size_t>(std::max<int64_t>(spans_, 1))), 1024,
                                            std::max<size_t>(maxBaseBuckets, 1));
  baseWidth_ = std::max<int64_t>(1, (endNs_ + static_cast<int64_t>(buckets) - 1) / static_cast<int64_t>(buckets));
  levels_.assign(1, std::vector<TimelineBucket>(static_cast<size_t>((endNs_ + baseWidth_ - 1) / baseWidth_) + 1));
  std::vector<TimelineBucket>& base = levels_[0];
  BucketFill fill;
  size_t filling = 0;
  source.forEach([&](const StoredSpan& s) {
    const size_t first = static_cast<size_t>(std::max<int64_t>(s.startNs, 0) / baseWidth_);
    if (first >= base.size()) return;
    if (first != filling) fill.flushInto(base[filling]), filling = first;
    ++base[first].count;
    int64_t from = std::max<int64_t>(s.startNs, 0);
    const int64_t to = std::min(s.startNs + s.durationNs, endNs_);
    for (size_t b = first; from < to && b < base.size(); ++b) {
      const int64_t edge = static_cast<int64_t>(b + 1) * baseWidth_;
      const int64_t part = std::min(to, edge) - from;
      if (b != filling) fill.flushInto(base[filling]), filling = b;
      base[b].busyNs += part;
      fill.add(s.node, part);
      from = edge;
    }
  });
  fill.flushInto(base[filling]);
  while (levels_.back().size() > 1) {
    const std::vector<TimelineBucket>& below = levels_.back();
    std::vector<TimelineBucket> up((below.size() + 1) / 2);
    for (size_t i = 0; i < up.size(); ++i) {
      TimelineBucket m = below[2 * i];
      if (2 * i + 1 < below.size()) {
        const TimelineBucket& r = below[2 * i + 1];
        m.busyNs += r.busyNs;
        m.count += r.count;
        if (r.dominantNs > m.dominantNs) m.dominant = r.dominant, m.dominantNs = r.dominantNs;
      }
      up[i] = m;
    }
    levels_.push_back(std::move(up));
  }
}

int TimelineLevels::levelFor(double nsPerPixel) const {
  int k = 0;
  while (k + 1 < levelCount() && static_cast<double>(widthNs(k + 1)) <= nsPerPixel) ++k;
  return k;
}

int64_t TimelineLevels::countIn(int64_t from, int64_t to) const {
  if (levels_.empty() || to <= from) return 0;
  int k = 0;  // a level where the window covers at most a few thousand buckets
  while (k + 1 < levelCount() && (to - from) / widthNs(k) > 4096) ++k;
  const std::vector<TimelineBucket>& lv = levels_[static_cast<size_t>(k)];
  const int64_t w = widthNs(k);
  int64_t n = 0;
  for (int64_t b = std::max<int64_t>(from, 0) / w; b < static_cast<int64_t>(lv.size()) && b * w < to; ++b) n += lv[b].count;
  return n;
}

}  // namespace tempo::views
