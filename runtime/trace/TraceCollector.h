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
// whose aggregates are still exact. The executor also marks every iteration
// of a top-level loop (beginStep): the collector keeps each such step's
// interval and instance count, and per statement per step its calls and time
// — the aggregation that keeps a long run's trace bounded and exact. Past
// `maxSteps` steps, neighbouring steps of one loop merge pairwise and every
// later step covers twice as many iterations (as MemoryTimeline does), so a
// ten-minute training run is a few thousand steps. Times are nanoseconds
// since begin(). This is the interface the generated code and the CUDA
// backend will report to.
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
  /// Of durationNs, the time inside generated code on the executor's thread (the kernels' hook
  /// calls, KernelTimer.h: 0 when none ran or no one listened), and where that time began.
  int64_t kernelNs = 0;
  int64_t kernelStartNs = 0;
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
  int64_t kernelNs = 0;  ///< of totalNs, inside generated code (TraceSpan::kernelNs)
};

/// One or more consecutive iterations of a top-level loop.
struct StepProfile {
  int32_t loop = -1;          ///< the top-level loop's index among the program's top-level loops
  int64_t firstValue = 0;     ///< the loop variable's value in the first iteration covered
  int64_t iterations = 0;     ///< iterations covered
  int64_t startNs = 0, endNs = 0;
  int64_t instances = 0;      ///< statement instances in it
};

/// A statement's instances within one StepProfile.
struct StepStatement {
  int32_t step = -1;  ///< index into steps()
  int32_t statement = -1;
  NodeId node = -1;
  int64_t calls = 0, totalNs = 0;
};

class TraceCollector {
public:
  explicit TraceCollector(size_t maxSpans = size_t(1) << 20, size_t maxSteps = 4096)
      : maxSpans_(maxSpans), maxSteps_(maxSteps < 2 ? 2 : maxSteps) {}

  /// Starts a run: clears everything and sets the clock's origin.
  void begin();
  /// Ends the run (its wall time is runNs()).
  void end() { runNs_ = now(); }
  int64_t now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - origin_).count();
  }
  void record(int32_t statement, NodeId node, int64_t startNs, int64_t endNs, const std::vector<int64_t>& point,
              bool generated, int64_t bytes);
  /// Generated code started / stopped running on the executor's thread (KernelTimer): the time
  /// between goes to the next statement recorded (the one running it).
  void kernelEnter() { kernelEnteredNs_ = now(); }
  void kernelExit() {
    const int64_t t = now();
    if (pendingKernelNs_ == 0) pendingKernelStartNs_ = kernelEnteredNs_;
    pendingKernelNs_ += t - kernelEnteredNs_;
  }
  /// The time the run spent in generated code (on the executor's thread).
  int64_t kernelNs() const { return kernelNs_; }

  /// An iteration of top-level loop `loop` starts (its variable is `value`); ends the previous one.
  void beginStep(int32_t loop, int64_t value);
  /// The top-level loop ended: closes its last iteration.
  void endSteps();
  const std::vector<StepProfile>& steps() const { return steps_; }
  /// Per statement per step, by step then statement.
  const std::vector<StepStatement>& stepStatements() const { return stepStatements_; }
  /// Iterations each step covers from now on (1 until the step cap was reached).
  int64_t stepStride() const { return stride_; }

  /// Per exec statement that ran at least once, by statement number.
  std::vector<StatementProfile> statements() const;
  const std::vector<TraceSpan>& spans() const { return spans_; }
  int64_t droppedSpans() const { return dropped_; }
  int64_t runNs() const { return runNs_; }
  int64_t instances() const { return instances_; }

private:
  void closeStep(int64_t endNs);
  void halveSteps();

  size_t maxSpans_, maxSteps_;
  std::vector<StepProfile> steps_;
  std::vector<StepStatement> stepStatements_;
  std::vector<StepStatement> open_;  ///< the open step's statements (one loop body's)
  std::vector<int32_t> openSlot_;    ///< by statement number: its index in open_, -1 when not there
  bool stepOpen_ = false;
  int64_t stride_ = 1;
  std::chrono::steady_clock::time_point origin_ = std::chrono::steady_clock::now();
  std::vector<StatementProfile> byStatement_;  ///< indexed by statement number (calls 0: never ran)
  std::vector<TraceSpan> spans_;
  int64_t dropped_ = 0;
  int64_t runNs_ = 0;
  int64_t instances_ = 0;
  int64_t kernelEnteredNs_ = 0, pendingKernelNs_ = 0, pendingKernelStartNs_ = 0, kernelNs_ = 0;
};

}  // namespace tempo
