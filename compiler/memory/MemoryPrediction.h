// MemoryPrediction: the peak bytes a placed schedule will hold, before running it.
//
// Independent of the executor's accounting: a walk of the LoopProgram at
// concrete bounds that evaluates only the memory statements — Alloc adds its
// StoreBytes, Free removes what that node's Alloc added, SwapOut moves it to
// the swap area and SwapIn back — and records the most live bytes at once.
// Loops whose bodies hold no memory statement are skipped, so the walk costs
// only as many iterations as there are memory statements inside loops. Per
// top-level statement it also records the live bytes before it and the peak
// while it runs (the swap placement's input). `CompiledRunResult::
// predictedBytes` is this peak; the executor's MemoryTracker measures the same
// quantity from what the stores really hold. Two stores holding one buffer
// (BufferSharing: a merge and the branch it takes, a reshape and its input)
// count it once: the walk subtracts the bytes both hold from their sum. With a timeline the
// walk appends one event per memory statement, as the executor does. A run whose until loop
// stopped (docs/language.md, 4.14) is walked as it ran: that top-level loop up to the step
// where it stopped, at the bounds given, and every later statement at the bounds it was
// rebound to (LoopStop).
#pragma once

#include "memory/BufferSharing.h"
#include "memory/MemoryTimeline.h"
#include "schedule/LoopAst.h"

#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace tempo {

struct MemoryPrediction {
  int64_t peakBytes = 0;         ///< most live bytes at once
  int64_t peakSwappedBytes = 0;  ///< most bytes in the swap area at once
  std::vector<int64_t> liveBefore;  ///< per top-level statement: live bytes before it runs
  std::vector<int64_t> peakDuring;  ///< per top-level statement: most live bytes while it runs
  std::map<int, int64_t> allocated;  ///< per node: the bytes of its last Alloc
  /// With a `focus` body: per element of it, the most live bytes while it runs, over every time it runs.
  std::vector<int64_t> focusPeakDuring;
};

/// A top-level loop a run left early: the walk runs it up to `lastValue` of its variable (it
/// runs forwards), then takes `boundsAfter` for every later statement. The stores of
/// `partlyWritten` (the nodes the loop computes) held only the steps run: allocated before
/// the stop, they are charged at `boundsAfter` (a whole-array source's array is not among them:
/// it is built at the bounds given).
struct LoopStop {
  size_t topStatement = 0;
  int64_t lastValue = 0;
  SymbolEnv boundsAfter;
  std::set<int> partlyWritten;
};

/// Walks `program` at `bounds` (bound values; loop variables are set by the
/// walk). Throws std::out_of_range when a size names a symbol without a value.
/// `shared`: the reads through which one store holds another's buffers (sharedBuffers(graph, bounds)).
/// `focus`: a loop body of `program` whose elements' peaks are recorded too (focusPeakDuring; empty
/// when the walk skips it, i.e. it holds no memory statement and its live bytes do not change).
/// `stops`: the top-level loops the run left early, in program order.
MemoryPrediction predictMemory(const LoopProgram& program, const SymbolEnv& bounds,
                               const std::vector<SharedBuffer>& shared = {}, MemoryTimeline* timeline = nullptr,
                               const LoopBody* focus = nullptr, const std::vector<LoopStop>& stops = {});

}  // namespace tempo
