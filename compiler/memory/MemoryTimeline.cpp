#include "memory/MemoryTimeline.h"

#include <algorithm>

namespace tempo {

const char* memoryEventKindName(MemoryEvent::Kind k) {
  switch (k) {
    case MemoryEvent::Kind::Alloc: return "alloc";
    case MemoryEvent::Kind::Free: return "free";
    case MemoryEvent::Kind::SwapOut: return "swap_out";
    case MemoryEvent::Kind::SwapIn: return "swap_in";
    case MemoryEvent::Kind::Recompute: return "recompute";
    case MemoryEvent::Kind::PageOut: return "page_out";
    case MemoryEvent::Kind::PageIn: return "page_in";
  }
  return "?";
}

MemoryTimeline::MemoryTimeline(size_t capacity) : capacity_(std::max<size_t>(capacity, 2)) {}

void MemoryTimeline::add(MemoryEvent::Kind kind, int node, int64_t liveBytes, int64_t peakBytes, int64_t timeNs) {
  peakBytes = std::max(peakBytes, liveBytes);
  peak_ = std::max(peak_, peakBytes);
  const int64_t index = statements_++;
  if (firstPage_ < 0 && (kind == MemoryEvent::Kind::PageOut || kind == MemoryEvent::Kind::PageIn)) firstPage_ = index;
  if (!events_.empty() && events_.back().count < stride_) {  // the last event still covers fewer than a stride
    MemoryEvent& last = events_.back();
    last.kind = kind, last.node = node, last.statement = index, last.liveBytes = liveBytes, last.timeNs = timeNs;
    last.peakBytes = std::max(last.peakBytes, peakBytes);
    ++last.count;
    return;
  }
  if (events_.size() == capacity_) halve();
  events_.push_back({kind, node, index, 1, liveBytes, peakBytes, timeNs});
}

void MemoryTimeline::halve() {  // in place: the vector keeps its buffer (no new one per halving)
  size_t out = 0;
  for (size_t i = 0; i < events_.size(); i += 2, ++out) {
    MemoryEvent e = events_[i];
    if (i + 1 < events_.size()) {
      const MemoryEvent& next = events_[i + 1];
      e.kind = next.kind, e.node = next.node, e.statement = next.statement, e.liveBytes = next.liveBytes;
      e.timeNs = next.timeNs;
      e.peakBytes = std::max(e.peakBytes, next.peakBytes);
      e.count += next.count;
    }
    events_[out] = e;
  }
  events_.resize(out);
  stride_ *= 2;
}

}  // namespace tempo
