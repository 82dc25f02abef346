// ChromeTraceRules: the rules a Chrome trace JSON must keep for Perfetto to import it cleanly.
//
// `chromeTraceViolations` parses the text and lists every broken rule (empty:
// the trace is clean): a top-level object with a `traceEvents` array; every
// event an object with a phase, a non-empty category, a name and a numeric
// pid; `X` slices with numeric ts, a non-negative dur and a tid, strictly
// nested per (pid, tid) track (compared in integer nanoseconds); `C` counters
// with a ts and an args object holding exactly one numeric value; `M`
// metadata naming a process or thread; flow events (`s`, `t`, `f`) with a
// numeric id. Used by the run store's export tests on every example.
#pragma once

#include <string>
#include <vector>

namespace tempo::testing {

std::vector<std::string> chromeTraceViolations(const std::string& json);

}  // namespace tempo::testing
