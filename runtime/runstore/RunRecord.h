// RunRecord: what one profiled run is in the run store.
//
// `RunHeader` is known before the run starts (the program, its bounds, the
// engine and options, the machine and build) and is written first, as a run
// with status `running`; `RunRecord` is everything the run produced (its
// wall and compile time, peaks, the per-node and per-line aggregates, the
// spans, the memory events with the predicted curve beside the measured one,
// the outputs' checksums) and is written with status `ok` in one transaction.
// `StoredRun` is a header as read back, with the store's id, status and times.
// Times are nanoseconds since the run's start; bytes are bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tempo {

struct RunHeader {
  std::string programPath;
  std::string programText;
  std::string programHash;  ///< FNV-1a 64 of the text, 16 hex digits
  std::string label;
  std::string engine = "compiled";
  std::string optionsJson = "{}";
  std::string boundsJson = "{}";
  std::string machine;
  std::string build;
};

struct StoredNode {
  int node = -1;
  std::string label;     ///< `%4 'h' (merge)`
  std::string op;
  std::string matchKey;  ///< what the node is across runs and edits: op, name and source text
  std::string kernel;
  std::string dims;      ///< the node's domain, `b, t`
  int line = 0, col = 0, endLine = 0, endCol = 0;
  int64_t calls = 0, totalNs = 0, minNs = 0, maxNs = 0, generatedCalls = 0, bytes = 0, peakBytes = 0;
  int64_t kernelNs = 0;  ///< of totalNs, inside generated code
};

struct StoredLine {
  int line = 0;  ///< 0: nodes without a source range
  std::string text;
  int64_t calls = 0, totalNs = 0, bytes = 0;
};

struct StoredSpan {
  int64_t startNs = 0, durationNs = 0;
  int32_t statement = -1, node = -1, thread = 0;
  int32_t c0 = 0, c1 = 0, c2 = 0;
  bool generated = false;
  int64_t kernelStartNs = 0, kernelNs = 0;  ///< the part inside generated code (TraceSpan's)
};

struct StoredMemoryEvent {
  int64_t seq = 0;
  std::string kind;
  int node = -1;
  int64_t statement = 0, count = 1;
  int64_t timeNs = -1;  ///< -1: the run was not timed
  int64_t live = 0, peak = 0;
  std::optional<int64_t> predictedLive;
};

/// One or more consecutive iterations of a top-level loop (TraceCollector's StepProfile).
struct StoredStep {
  int64_t seq = 0;
  int loop = -1;
  std::string loopVar;  ///< the loop's variable, `c0`
  int64_t firstValue = 0, iterations = 0, startNs = 0, endNs = 0, instances = 0;
};

/// A statement's instances within one stored step.
struct StoredStepStatement {
  int64_t step = 0;  ///< the step's seq
  int statement = -1, node = -1;
  int64_t calls = 0, totalNs = 0;
};

/// A value written by one span (the producer's) and read by another (see SpanFlows.h).
struct StoredFlow {
  int producerNode = -1;
  int64_t producerStartNs = 0;
  int consumerNode = -1;
  int64_t consumerStartNs = 0;
};

struct StoredOutput {
  std::string name, dtype, shape;
  std::string checksum;  ///< FNV-1a 64 of the value's bytes, 16 hex digits
  double valueSum = 0;
  std::string npy;       ///< the .npy bytes when stored (empty otherwise)
};

struct RunRecord {
  int64_t wallNs = 0, compileNs = 0, instances = 0, droppedSpans = 0;
  int64_t peakMeasured = 0, peakPredicted = 0;
  std::string compileSummaryJson = "{}";
  std::vector<StoredNode> nodes;
  std::vector<StoredLine> lines;
  std::vector<StoredSpan> spans;
  std::vector<StoredMemoryEvent> memory;
  std::vector<StoredOutput> outputs;
  std::vector<StoredStep> steps;
  std::vector<StoredStepStatement> stepStatements;
  std::vector<StoredFlow> flows;
  bool flowsTruncated = false;
};

struct StoredRun {
  int64_t id = 0;
  RunHeader header;
  std::string startedAt, endedAt;  ///< UTC, ISO 8601
  std::string status;              ///< running, ok, failed; `incomplete` when running and its process is gone
  std::string error;
  int64_t pid = 0;
  int64_t wallNs = 0, compileNs = 0, instances = 0, droppedSpans = 0;
  int64_t peakMeasured = 0, peakPredicted = 0;
  std::string compileSummaryJson;
};

/// `B=4 T=16` from a header's bounds JSON ("" when it is not an object).
std::string boundsSummary(const std::string& boundsJson);

/// FNV-1a 64 of `bytes` as 16 lowercase hex digits.
std::string fnv1aHex(const void* bytes, size_t size);

}  // namespace tempo
