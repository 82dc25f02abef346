#include "runstore/SpanFlows.h"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <tuple>

namespace tempo {

namespace {

using PointKey = std::tuple<NodeId, int32_t, int32_t, int32_t>;

PointKey keyOf(NodeId node, const std::array<int32_t, 3>& c) { return {node, c[0], c[1], c[2]}; }

/// The producer points a read gives at the consumer's point `env`: per producer dim a range [lo, hi).
bool readRanges(const Edge& e, const SymbolEnv& env, std::vector<std::pair<int64_t, int64_t>>& out) {
  out.clear();
  for (const IndexAtom& a : e.index) {
    const int64_t lo = a.start.evaluate(env);
    const int64_t hi = a.isSlice() ? a.stop->evaluate(env) : lo + 1;
    if (hi <= lo) return false;  // an empty window reads nothing
    out.emplace_back(lo, hi);
  }
  return true;
}

}  // namespace

SpanFlowList spanFlows(const Graph& g, const SymbolEnv& bounds, const std::vector<TraceSpan>& spans,
                       const SpanFlowOptions& options) {
  SpanFlowList out;
  if (spans.size() > options.maxSpans) {
    out.truncated = true;
    return out;
  }
  std::map<PointKey, std::vector<size_t>> written;  // every instance of a node at a point, in start order
  for (size_t i = 0; i < spans.size(); ++i)
    if (g.hasNode(spans[i].node) && g.node(spans[i].node).domain.size() <= 3)
      written[keyOf(spans[i].node, spans[i].coords)].push_back(i);
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (size_t j = 0; j < spans.size(); ++j) {
    const TraceSpan& q = spans[j];
    if (!g.hasNode(q.node)) continue;
    const Node& consumer = g.node(q.node);
    if (consumer.domain.size() > 3) continue;
    SymbolEnv env = bounds;
    for (size_t d = 0; d < consumer.domain.size(); ++d) env[consumer.domain[d]] = q.coords[d];
    for (const Edge* e : g.inputs(q.node)) {
      const Node& producer = g.node(e->producer);
      if (producer.domain.size() > 3 || e->index.size() != producer.domain.size()) continue;
      try {
        if (!e->condition.holds(env) || !readRanges(*e, env, ranges)) continue;
      } catch (const std::exception&) {
        continue;  // an index the bounds do not evaluate: no flow rather than a guess
      }
      // Enumerate the producer points, the newest last; keep the last maxPointsPerRead of them.
      int64_t count = 1;
      for (const auto& [lo, hi] : ranges) count *= hi - lo;
      const int64_t skip = std::max<int64_t>(0, count - static_cast<int64_t>(options.maxPointsPerRead));
      if (skip > 0) out.truncated = true;
      for (int64_t n = skip; n < count; ++n) {
        std::array<int32_t, 3> p{};
        int64_t rest = n;
        for (size_t d = ranges.size(); d-- > 0;) {
          const int64_t extent = ranges[d].second - ranges[d].first;
          p[d] = static_cast<int32_t>(ranges[d].first + rest % extent);
          rest /= extent;
        }
        auto it = written.find(keyOf(e->producer, p));
        if (it == written.end()) continue;  // not recorded (a source read whole, or beyond the span cap)
        const std::vector<size_t>& instances = it->second;
        auto before = std::lower_bound(instances.begin(), instances.end(), j);  // instances before q in the trace
        if (before == instances.begin()) continue;
        const TraceSpan& s = spans[*std::prev(before)];
        out.flows.push_back({s.node, s.startNs, q.node, q.startNs});
        if (out.flows.size() >= options.maxFlows) {
          out.truncated = true;
          return out;
        }
      }
    }
  }
  return out;
}

}  // namespace tempo
