// SpanFlows: which recorded statement instances read the value another one wrote.
//
// For every span of a consumer node C at point q and every read of C (an edge
// of the graph that ran) whose branch condition holds at q, the read's index
// atoms evaluated at q give the producer points it reads (one for a point read,
// a range for a window); the value at each was written by the producer's
// latest span at that point that started before q's span. That pair is a flow,
// what the timeline draws as an arrow and the Chrome export as a flow event.
// Exact for domains of up to three dimensions (a span keeps its first three
// coordinates; nodes with more are skipped), bounded: at most `maxPointsPerRead`
// producer points per read (a longer window keeps its last ones, the newest
// values) and `maxFlows` flows in all, computed only for traces of at most
// `maxSpans` spans (`truncated` says when a bound cut the list).
#pragma once

#include "graph/Graph.h"
#include "runstore/RunRecord.h"
#include "trace/TraceCollector.h"

#include <cstddef>
#include <vector>

namespace tempo {

struct SpanFlowOptions {
  size_t maxSpans = 200'000;
  size_t maxPointsPerRead = 64;
  size_t maxFlows = size_t(1) << 20;
};

struct SpanFlowList {
  std::vector<StoredFlow> flows;  ///< by consumer span, in the spans' order
  bool truncated = false;
};

/// `g` is the graph that ran (the spans' node ids), `bounds` the run's bound values (derived ones included).
SpanFlowList spanFlows(const Graph& g, const SymbolEnv& bounds, const std::vector<TraceSpan>& spans,
                       const SpanFlowOptions& options = {});

}  // namespace tempo
