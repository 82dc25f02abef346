// MemoryProfile: a compiled run's memory as a JSON document.
//
// What `tempo run --memory-profile FILE.json` writes and what the profiler
// will store and draw: the program and bounds; the measured and predicted
// peaks (the predicted one is the walk of the memory statements, see
// MemoryPrediction); per node, its store kind, predicted store bytes and
// measured peak bytes (a buffer held by several stores is charged to one of
// them, see MemoryTracker); and the two timelines event for event — after
// every memory statement, its kind, node and the live bytes, measured beside
// predicted (bounded: see MemoryTimeline). Under a memory budget, "budget"
// says what the run-time pager did; its page_out / page_in events are measured
// only, so the predicted live bytes come with the events before the first one.
// Schema version 1:
//   { "version": 1, "program": FILE, "bounds": {NAME: INT},
//     "peak": {"measured": B, "predicted": B, "measuredNonOutput": B},
//     "nodes": [{"node": ID, "name": S, "op": S, "store": S, "predictedBytes": B, "measuredPeakBytes": B}],
//     "budget": {"bytes": B, "pageOuts": N, "bytesPagedOut": B, "statementsOverBudget": N, "planMeetsIt": BOOL},
//     "statements": N, "events": [{"statement": I, "count": N, "kind": S, "node": ID,
//                                  "measured": {"live": B, "peak": B}, "predicted": {"live": B}}] }
#pragma once

#include "executor/CompiledEngine.h"

#include <nlohmann/json.hpp>

namespace tempo {

nlohmann::json memoryProfileJson(const CompiledProgram& program, const SymbolEnv& bounds, const CompiledRunResult& run);

}  // namespace tempo
