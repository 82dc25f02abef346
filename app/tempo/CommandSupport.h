// CommandSupport: the steps the `tempo` subcommands share.
//
// Compiling a program file and printing its diagnostics (errors and warnings,
// each with its source line and caret) to the error stream, the one-line
// summary of a graph's size, writing a command's result to a file or
// standard output, running the data-file check of runtime/npy/LoadCheck with
// rendered diagnostics, reading a byte size (`--memory-budget 64k`) and a
// device (`--device cuda:0`), reporting an illegal schedule transform.
#pragma once

#include "device/DeviceSpec.h"
#include "frontend/Frontend.h"
#include "pass/Pass.h"
#include "schedule/ScheduleTransform.h"
#include "types/ByteSize.h"  // parseByteSize, for the commands that take --memory-budget

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace tempo::cli {

/// Compiles `file` and prints its diagnostics to `err`.
FrontendResult compileReporting(const std::string& file, std::ostream& err);

/// Prints `diags` rendered against `source` to `err` (nothing if empty).
void printDiagnostics(const DiagnosticBag& diags, const std::string& source, std::ostream& err);

/// Checks every load() file of `program` under `bounds`, prints what is
/// wrong to `err`; true when all files are fine.
bool checkDataFiles(const FrontendResult& program, const SymbolEnv& bounds, std::ostream& err);

/// Writes `text` to `path` (binary) or, when `path` is empty, to `out`;
/// returns kExitOk, or kExitRuntime after printing why the file failed.
int writeResult(const std::string& text, const std::string& path, std::ostream& out, std::ostream& err);

/// `--device TEXT` of `command` (cpu, cuda, cuda:N); nullopt after printing the error.
std::optional<DeviceSpec> deviceOption(const std::string& text, const char* command, std::ostream& err);

/// The passes' context for the CLI's pass options (`--block-size N`, 0 = the cost model's choice).
PassContext passContextFor(int64_t blockSize);

/// `FILE: error: the transformed schedule is illegal: ...` and one line per violated
/// dependence; returns the exit code for it (kExitProgramErrors).
int reportIllegalSchedule(const std::string& file, const IllegalScheduleError& e, std::ostream& err);

/// `12 nodes, 15 edges, 2 outputs`.
std::string graphSize(const Graph& g);

}  // namespace tempo::cli
