#include "profiler/SpanSource.h"

#include <algorithm>

namespace tempo::views {


StoredRunSpans::StoredRunSpans(const std::string& dbPath, int64_t runId) : store_(dbPath), runId_(runId) {
  SqliteStatement s = store_.db().prepare("SELECT COUNT(*), COALESCE(MAX(start_ns + duration_ns), 0) FROM spans WHERE run_id = ?");
  s.bind(1, runId);
  if (s.step()) count_ = s.columnInt(0), endNs_ = s.columnInt(1);
  SqliteStatement wall = store_.db().prepare("SELECT COALESCE(wall_ns, 0) FROM runs WHERE id = ?");
  wall.bind(1, runId);
  if (wall.step()) endNs_ = std::max(endNs_, wall.columnInt(0));
}

void StoredRunSpans::forEach(const std::function<void(const StoredSpan&)>& f) const {
  SqliteStatement s = store_.db().prepare(std::string("SELECT ") + RunStore::spanColumns() + " FROM spans WHERE run_id = ? ORDER BY start_ns");
  s.bind(1, runId_);
  while (s.step()) f(RunStore::readSpanRow(s));
}

std::vector<StoredSpan> StoredRunSpans::range(int64_t from, int64_t to, size_t limit, int node) const {
  const std::string where = node >= 0 ? " AND node = ?" : "";
  SqliteStatement s = store_.db().prepare(std::string("SELECT ") + RunStore::spanColumns() +
                                  " FROM spans WHERE run_id = ? AND start_ns >= ? AND start_ns < ?" + where +
                                  " ORDER BY start_ns LIMIT ?");
  s.bind(1, runId_).bind(2, from).bind(3, to);
  if (node >= 0) s.bind(4, int64_t{node}).bind(5, static_cast<int64_t>(limit));
  else s.bind(4, static_cast<int64_t>(limit));
  std::vector<StoredSpan> out;
  while (s.step()) out.push_back(RunStore::readSpanRow(s));
  return out;
}

std::optional<StoredSpan> StoredRunSpans::lastBefore(int64_t ns) const {
  SqliteStatement s = store_.db().prepare(std::string("SELECT ") + RunStore::spanColumns() +
                                  " FROM spans WHERE run_id = ? AND start_ns < ? ORDER BY start_ns DESC LIMIT 1");
  s.bind(1, runId_).bind(2, ns);
  if (!s.step()) return std::nullopt;
  return RunStore::readSpanRow(s);
}

std::vector<StoredFlow> StoredRunSpans::flowsOf(const StoredSpan& span) const {
  return store_.flows(runId_, span.node, span.startNs);
}

SyntheticSpans::SyntheticSpans(int64_t count, int64_t periodNs, int nodes)
    : count_(std::max<int64_t>(count, 0)), period_(std::max<int64_t>(periodNs, 4)), nodes_(std::max(nodes, 1)) {}

StoredSpan SyntheticSpans::span(int64_t i) const {
  static const int64_t cycle[] = {90, 40, 70, 25, 100, 55, 10, 80};  // percent of the period
  StoredSpan s;
  s.startNs = i * period_;
  s.durationNs = period_ * cycle[i % 8] / 100;
  s.node = static_cast<int32_t>(i % nodes_);
  s.statement = s.node;
  s.c0 = static_cast<int32_t>(i / nodes_);
  s.c1 = static_cast<int32_t>(i % nodes_);
  s.generated = i % 3 == 0;
  return s;
}

int64_t SyntheticSpans::endNs() const { return count_ == 0 ? 0 : span(count_ - 1).startNs + span(count_ - 1).durationNs; }

void SyntheticSpans::forEach(const std::function<void(const StoredSpan&)>& f) const {
  for (int64_t i = 0; i < count_; ++i) f(span(i));
}

std::vector<StoredSpan> SyntheticSpans::range(int64_t from, int64_t to, size_t limit, int node) const {
  std::vector<StoredSpan> out;
  int64_t i = std::max<int64_t>(0, (from + period_ - 1) / period_);
  if (node >= 0) i += ((node - i % nodes_) % nodes_ + nodes_) % nodes_;
  const int64_t step = node >= 0 ? nodes_ : 1;
  for (; i < count_ && i * period_ < to && out.size() < limit; i += step) out.push_back(span(i));
  return out;
}

std::optional<StoredSpan> SyntheticSpans::lastBefore(int64_t ns) const {
  if (ns <= 0 || count_ == 0) return std::nullopt;
  const int64_t i = std::min(count_ - 1, (ns - 1) / period_);
  return span(i);
}

}  // namespace tempo::views
