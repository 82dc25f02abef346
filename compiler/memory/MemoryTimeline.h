// MemoryTimeline: live bytes after every memory statement of a run, bounded.
//
// The executor appends one event after each memory statement it runs (alloc,
// free, swap_out, swap_in, recompute: the alloc of a rematerialised value;
// page_out, page_in: the MemoryPager's moves under a budget):
// the statement's kind and node, the live bytes
// after it and the most live bytes since the previous event (values come and
// go at execs between memory statements, so the peak of a stretch can lie
// between two events). MemoryPrediction appends the same events from its walk
// of the same statements, so the predicted and the measured curves line up
// event by event. A long run stays bounded: when `capacity` events are held,
// neighbouring pairs merge (the later event's kind, node, time and live bytes, the
// larger peak, both counts added) and every later event covers twice as many
// statements, so the curve keeps its shape and every peak.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tempo {

struct MemoryEvent {
  enum class Kind { Alloc, Free, SwapOut, SwapIn, Recompute, PageOut, PageIn };
  Kind kind = Kind::Alloc;
  int node = -1;
  int64_t statement = 0;  ///< 0-based index of the (last) memory statement it covers
  int64_t count = 1;      ///< memory statements it covers
  int64_t liveBytes = 0;  ///< after the statement
  int64_t peakBytes = 0;  ///< the most live bytes since the previous event, this statement included
  int64_t timeNs = -1;    ///< when the (last) statement ran, ns since the run's start (-1: the run was not timed)
};

const char* memoryEventKindName(MemoryEvent::Kind k);

class MemoryTimeline {
public:
  explicit MemoryTimeline(size_t capacity = 1 << 12);

  /// `timeNs`: when the statement ran (a traced run's clock), -1 when not timed.
  void add(MemoryEvent::Kind kind, int node, int64_t liveBytes, int64_t peakBytes, int64_t timeNs = -1);

  const std::vector<MemoryEvent>& events() const { return events_; }
  int64_t statements() const { return statements_; }  ///< memory statements recorded in all
  int64_t peakBytes() const { return peak_; }
  /// The index of the first page_out or page_in (-1 if none): the predicted curve, which has
  /// no such events, lines up with the measured one only before it.
  int64_t firstPageStatement() const { return firstPage_; }

private:
  void halve();

  size_t capacity_;
  int64_t stride_ = 1;      ///< statements per event from now on
  int64_t statements_ = 0;
  int64_t peak_ = 0;
  int64_t firstPage_ = -1;
  std::vector<MemoryEvent> events_;
};

}  // namespace tempo
