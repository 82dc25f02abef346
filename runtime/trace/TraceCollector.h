// TraceCollector: what every executed statement instance cost, as the engine ran it.
//
// The executor, given a collector (ExecutorOptions::trace; off, and free, when
// none is given), reports each exec statement instance: its statement number
// (exec statements in program order), node, start and end on the steady clock,
// the first coordinates of its point, whether a generated kernel computed it,
// and the bytes of the value it wrote. The collector aggregates per statement
// on the fly (calls, total, min, max, generated calls, bytes), which stays
// bounded however long the run, and keeps the raw spans up to a cap (then
// counts the ones it dropped), so a ten-minute training run is a bounded trace
// whose aggregates are still exact. Times are nanoseconds since begin(). This
// is the interface the generated code and the CUDA backend will report to.
#pragma once

#include "graph/Graph.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <vector>

namespace tempo {

/// One statement instance.
struct TraceSpan {
  int64_t startNs = 0;
  int64_t durationNs = 0;
  int32_t statement = -1;
  NodeId node = -1;
  std::array<int32_t, 3> coords{};  ///< the point's first coordinates (0 beyond its rank)
  bool generated = false;           ///< computed by a generated kernel
};

/// All instances of one exec statement.
struct StatementProfile {
  int32_t statement = -1;
  NodeId node = -1;
  int64_t calls = 0;
  int64_t totalNs = 0;
  int64_t minNs = 0;
  int64_t maxNs = 0;
  int64_t generatedCalls = 0;
  int64_t bytes = 0;  ///< of the values written
};

class TraceCollector {
public:
  explicit TraceCollector(size_t maxSpans = size_t(1) << 20) : maxSpans_(maxSpans) {}

  /// Starts a run: clears everything and sets the clock's origin.
  void begin();
  /// Ends the run (its wall time is runNs()).
  void end() { runNs_ = now(); }
  int64_t now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - origin_).count();
  }
  void record(int32_t statement, NodeId node, int64_t startNs, int64_t endNs, const std::vector<int64_t>& point,
              bool generated, int64_t bytes);

  /// Per exec statement that ran at least once, by statement number.
  std::vector<StatementProfile> statements() const;
  const std::vector<TraceSpan>& spans() const { return spans_; }
  int64_t droppedSpans() const { return dropped_; }
  int64_t runNs() const { return runNs_; }
  int64_t instances() const { return instances_; }

private:
  size_t maxSpans_;
  std::chrono::steady_clock::time_point origin_ = std::chrono::steady_clock::now();
  std::vector<StatementProfile> byStatement_;  ///< indexed by statement number (calls 0: never ran)
  std::vector<TraceSpan> spans_;
  int64_t dropped_ = 0;
  int64_t runNs_ = 0;
  int64_t instances_ = 0;
};

}  // namespace tempo
