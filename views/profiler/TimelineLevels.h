// TimelineLevels: a trace's levels of detail, so that a timeline of millions of spans draws in a few ms.
//
// Built once per run by streaming the spans in start order (SpanSource): level
// 0 cuts the run into at most 2^20 buckets of equal width (fewer for a short
// trace), each holding how many spans start in it, how many nanoseconds of it
// are busy (a span longer than a bucket is split over the buckets it covers),
// and its dominant node (the node with the most busy time in it); level k+1
// merges pairs of level k, up to one bucket. A view showing `p` nanoseconds
// per pixel draws the coarsest level whose buckets are at most a pixel wide —
// about as many rectangles as pixels, whatever the trace's size — and only
// when a window holds few enough spans asks the source for them one by one.
// This is Qt Creator's tracing design (a model and a renderer, per-zoom
// caches) reduced to what this trace needs. Qt-free.
#pragma once

#include "profiler/SpanSource.h"

#include <cstdint>
#include <vector>

namespace tempo::views {

struct TimelineBucket {
  int64_t busyNs = 0;
  int64_t dominantNs = 0;  ///< the dominant node's busy time in the bucket
  int32_t count = 0;       ///< spans starting in the bucket
  int32_t dominant = -1;   ///< node id, -1 when idle
};

class TimelineLevels {
public:
  static constexpr size_t kMaxBaseBuckets = size_t(1) << 20;

  void build(const SpanSource& source, size_t maxBaseBuckets = kMaxBaseBuckets);

  int64_t endNs() const { return endNs_; }
  int64_t spanCount() const { return spans_; }
  int levelCount() const { return static_cast<int>(levels_.size()); }
  int64_t widthNs(int level) const { return baseWidth_ << level; }
  const std::vector<TimelineBucket>& level(int k) const { return levels_[static_cast<size_t>(k)]; }
  /// The coarsest level whose buckets are at most `nsPerPixel` wide (0 if none is that narrow).
  int levelFor(double nsPerPixel) const;
  /// An upper bound on the spans starting in [from, to) (exact at bucket edges).
  int64_t countIn(int64_t from, int64_t to) const;

private:
  int64_t endNs_ = 0, spans_ = 0, baseWidth_ = 1;
  std::vector<std::vector<TimelineBucket>> levels_;
};

}  // namespace tempo::views
