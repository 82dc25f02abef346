// ProfileSummary: a run's trace folded by node and by source line, like `nsys stats`.
//
// `summariseProfile` sums a TraceCollector's per-statement aggregates by SDG
// node (every exec statement of a node: its loop-nest copies) and by the source
// line the node came from, sorted by total time, with calls, mean, min, max,
// generated-kernel calls and bytes written; the time no statement accounts for
// (loop control, memory statements, the executor between statements) is
// reported as its own line, so the table always adds up to the run's wall time.
// `printProfileSummary` renders the two tables as text for `tempo profile`.
#pragma once

#include "graph/Graph.h"
#include "kernels/Kernel.h"
#include "trace/TraceCollector.h"

#include <string>
#include <vector>

namespace tempo {

struct NodeProfile {
  NodeId node = -1;
  std::string label;   ///< `%9 matmul`, `%4 'h' (merge)`
  std::string kernel;  ///< `k9_matmul library`, or "" without a kernel program
  SourceRange loc;
  int64_t calls = 0, totalNs = 0, minNs = 0, maxNs = 0, generatedCalls = 0, bytes = 0;
  int64_t kernelNs = 0;  ///< of totalNs, inside generated code (the kernels' hook, KernelTimer.h)
};

struct LineProfile {
  int line = 0;  ///< 0: nodes with no source range
  int64_t calls = 0, totalNs = 0, bytes = 0;
};

struct ProfileSummary {
  int64_t runNs = 0;        ///< the run's wall time
  int64_t statementNs = 0;  ///< the part the exec statements account for
  int64_t kernelNs = 0;     ///< the part of that inside generated code
  int64_t instances = 0;
  int64_t droppedSpans = 0;
  std::vector<NodeProfile> nodes;  ///< by total time, descending
  std::vector<LineProfile> lines;  ///< by total time, descending
};

/// `12.3 us`, `4.5 ms`, `812 ns` (the tables' time format).
std::string formatDuration(int64_t ns);
/// `1.5 MiB`, `12.0 KiB`, `96 B`.
std::string formatBytes(int64_t bytes);
/// Line `line` (1-based) of `source` without its leading blanks; "" when there is none.
std::string sourceLineText(const std::string& source, int line);
/// `%4 'h' (merge)`, `%9 matmul`.
std::string profileNodeLabel(const Graph& g, NodeId id);

/// The iterations of one top-level loop (from the trace's steps).
struct LoopStepSummary {
  int loop = -1;
  std::string var;  ///< the loop's variable, `c0` ("" when unknown)
  int64_t iterations = 0, totalNs = 0, instances = 0;
  int64_t minNs = 0, maxNs = 0;  ///< per iteration (a step covering k iterations counts its mean)
  int64_t slowestValue = 0;      ///< the loop variable at the slowest step's start
};

/// Folds `steps` by loop; `vars[loop]` names each loop's variable (may be shorter).
std::vector<LoopStepSummary> summariseSteps(const std::vector<StepProfile>& steps, const std::vector<std::string>& vars);
/// `by step:` — per loop, its iterations, time and share of the run, and the per-iteration mean, min and max.
std::string printStepSummary(const std::vector<LoopStepSummary>& loops, int64_t runNs);

/// `kernels` may be null (no kernel column).
ProfileSummary summariseProfile(const Graph& g, const TraceCollector& trace, const KernelProgram* kernels);

/// The node table (its first `top` rows) and the line table; `source` is the
/// program text (for the line column; may be empty), `file` its name.
std::string printProfileSummary(const ProfileSummary& p, const std::string& source, const std::string& file,
                                size_t top);

}  // namespace tempo
