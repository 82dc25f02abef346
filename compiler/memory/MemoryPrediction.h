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
// walk appends one event per memory statement, as the executor does.
#pragma once

#include "memory/BufferSharing.h"
#include "memory/MemoryTimeline.h"
#include "schedule/LoopAst.h"

#include <cstdint>
#include <map>
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

/// Walks `program` at `bounds` (bound values; loop variables are set by the
/// walk). Throws std::out_of_range when a size names a symbol without a value.
/// `shared`: the reads through which one store holds another's buffers (sharedBuffers(graph, bounds)).
/// `focus`: a loop body of `program` whose elements' peaks are recorded too (focusPeakDuring; empty
/// when the walk skips it, i.e. it holds no memory statement and its live bytes do not change).
MemoryPrediction predictMemory(const LoopProgram& program, const SymbolEnv& bounds,
                               const std::vector<SharedBuffer>& shared = {}, MemoryTimeline* timeline = nullptr,
                               const LoopBody* focus = nullptr);

}  // namespace tempo
