// SpanSource: where the timeline's statement-instance spans come from.
//
// The timeline never holds a whole trace: it streams the spans once, in start
// order, to build its levels of detail (TimelineLevels), and then asks for the
// few spans a zoomed-in window shows. Spans of one track never overlap (the
// executor runs one statement at a time), so the only span starting before a
// window that can reach into it is the last one before it. `StoredRunSpans`
// reads a run from the run store (indexed by start time and by node);
// `SyntheticSpans` computes a regular trace of any size from the span's index
// (the 10-million-span frame-time test, and a demo without a database).
// Qt-free.
#pragma once

#include "runstore/RunStore.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tempo::views {

class SpanSource {
public:
  virtual ~SpanSource() = default;
  /// The end of the last span (the run's length).
  virtual int64_t endNs() const = 0;
  virtual int64_t spanCount() const = 0;
  /// Every span, in start order.
  virtual void forEach(const std::function<void(const StoredSpan&)>& f) const = 0;
  /// Spans starting in [from, to), in start order, at most `limit`; with `node` >= 0 only that node's.
  virtual std::vector<StoredSpan> range(int64_t from, int64_t to, size_t limit, int node = -1) const = 0;
  /// The last span starting before `ns` (it may reach past `ns`).
  virtual std::optional<StoredSpan> lastBefore(int64_t ns) const = 0;
  /// The flows out of and into `span` (the values it wrote that others read, and those it read).
  virtual std::vector<StoredFlow> flowsOf(const StoredSpan& span) const { return {}; }
};

class StoredRunSpans : public SpanSource {
public:
  /// Opens its own connection to the store at `dbPath` (the studio reads while another process may write).
  StoredRunSpans(const std::string& dbPath, int64_t runId);
  int64_t endNs() const override { return endNs_; }
  int64_t spanCount() const override { return count_; }
  void forEach(const std::function<void(const StoredSpan&)>& f) const override;
  std::vector<StoredSpan> range(int64_t from, int64_t to, size_t limit, int node = -1) const override;
  std::optional<StoredSpan> lastBefore(int64_t ns) const override;
  std::vector<StoredFlow> flowsOf(const StoredSpan& span) const override;

private:
  mutable RunStore store_;
  int64_t runId_;
  int64_t endNs_ = 0, count_ = 0;
};

/// Span i starts at i * period + jitter(i) and lasts a duration from a fixed cycle (never past the
/// next start); its node cycles through `nodes` node ids, its coordinates are (i / nodes, i % nodes).
class SyntheticSpans : public SpanSource {
public:
  SyntheticSpans(int64_t count, int64_t periodNs, int nodes);
  int64_t endNs() const override;
  int64_t spanCount() const override { return count_; }
  void forEach(const std::function<void(const StoredSpan&)>& f) const override;
  std::vector<StoredSpan> range(int64_t from, int64_t to, size_t limit, int node = -1) const override;
  std::optional<StoredSpan> lastBefore(int64_t ns) const override;
  StoredSpan span(int64_t i) const;

private:
  int64_t count_, period_;
  int nodes_;
};

}  // namespace tempo::views
