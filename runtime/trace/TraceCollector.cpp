#include "trace/TraceCollector.h"

#include <algorithm>

namespace tempo {

void TraceCollector::begin() {
  byStatement_.clear();
  spans_.clear();
  dropped_ = runNs_ = instances_ = 0;
  origin_ = std::chrono::steady_clock::now();
}

void TraceCollector::record(int32_t statement, NodeId node, int64_t startNs, int64_t endNs,
                            const std::vector<int64_t>& point, bool generated, int64_t bytes) {
  if (statement < 0) return;
  ++instances_;
  if (static_cast<size_t>(statement) >= byStatement_.size()) byStatement_.resize(statement + 1);
  StatementProfile& s = byStatement_[statement];
  const int64_t d = endNs - startNs;
  if (s.calls == 0) s.statement = statement, s.node = node, s.minNs = s.maxNs = d;
  ++s.calls;
  s.totalNs += d;
  s.minNs = std::min(s.minNs, d);
  s.maxNs = std::max(s.maxNs, d);
  s.generatedCalls += generated;
  s.bytes += bytes;
  if (spans_.size() >= maxSpans_) {
    ++dropped_;
    return;
  }
  TraceSpan span{startNs, d, statement, node, {}, generated};
  for (size_t i = 0; i < span.coords.size() && i < point.size(); ++i) span.coords[i] = static_cast<int32_t>(point[i]);
  spans_.push_back(span);
}

std::vector<StatementProfile> TraceCollector::statements() const {
  std::vector<StatementProfile> out;
  for (const StatementProfile& s : byStatement_)
    if (s.calls > 0) out.push_back(s);
  return out;
}

}  // namespace tempo
