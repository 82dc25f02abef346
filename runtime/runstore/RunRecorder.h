// RunRecorder: a compiled run and its trace as the run store's records.
//
// `runHeader` gathers what is known before the run (the program's path, made
// absolute so a program's runs are found wherever the command ran, its text
// and hash, the bounds, the options, this machine and this build);
// `recordRun` turns what the run produced into a RunRecord: the
// ProfileSummary's nodes (with their op, domain, source range and the text
// that identifies them across edits) and lines, the trace's spans, the
// measured memory timeline with the predicted live bytes beside each event
// (the two line up event for event until the first run-time page event), and
// each output's checksum and sum (its .npy bytes when `keepOutputs`), the
// steps, and the flows between spans (SpanFlows, at the run's `bounds`). The
// CLI's `tempo profile` and the studio record runs through these two only.
#pragma once

#include "executor/CompiledEngine.h"
#include "runstore/RunRecord.h"
#include "trace/TraceCollector.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tempo {

RunHeader runHeader(const std::string& programPath, const std::string& source, const SymbolEnv& bounds,
                    const std::string& label, const nlohmann::json& options);

RunRecord recordRun(const CompiledProgram& program, const SymbolEnv& bounds, const CompiledRunResult& result,
                    const TraceCollector& trace, const std::string& source, bool keepOutputs);

/// `host x86_64, 2 cores, <cpu model>`.
std::string machineDescription();

}  // namespace tempo
