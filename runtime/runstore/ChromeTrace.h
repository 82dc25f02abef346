// ChromeTrace: a stored run as Chrome trace JSON, the format Perfetto and chrome://tracing import.
//
// The JSON object format: {"traceEvents": [...], "displayTimeUnit": "ns",
// "metadata": {...}}. A run is one process (pid 1) with one thread track for
// the executor (tid 1), named by `M` metadata events; one `X` slice `run`
// spans the whole run and every stored statement-instance span is an `X`
// slice inside it (the executor runs one statement at a time, so slices on
// the track never overlap: strictly nested); each memory event with a time
// is a `C` counter with a single value, measured and predicted live bytes
// as two counters; each flow (SpanFlows: a value one span wrote and another
// read) is an `s`/`f` pair with a numeric id, from the producer's slice to the
// consumer's. Every event has a category. Timestamps are microseconds
// written with exactly three decimals, so nanosecond times survive the
// round trip exactly and nesting is exact. Events are streamed: a run of a
// million spans is never held as one JSON value.
#pragma once

#include "runstore/RunStore.h"

#include <cstdint>
#include <ostream>

namespace tempo {

/// Throws RunStoreError when there is no such run.
void writeChromeTrace(RunStore& store, int64_t runId, std::ostream& out);

}  // namespace tempo
