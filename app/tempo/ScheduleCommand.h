// ScheduleCommand: `tempo schedule FILE [--format text|json]`.
//
// Compiles the program, schedules its SDG with isl (compiler/schedule) and
// prints the result: the loop program as readable pseudo-code (default), or
// JSON for tools and the studio with the statements and their domains, every
// dependence as isl text, the isl schedule tree and map, whether the fallback
// schedule was used and why, and the loop AST. The schedule is parametric:
// bounds stay symbols. Diagnostics, and a graph that cannot be scheduled,
// exit 1.
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>

namespace tempo::cli {

struct ScheduleOptionsCli {
  std::string file;
  std::string format = "text";
  bool fallback = false;
  std::string memoryBudget;  ///< "" = none; else bytes with an optional k/M/G suffix (at the default bounds)
};

/// Registers the `schedule` subcommand on `app`, filling `options` when parsed.
CLI::App* addScheduleCommand(CLI::App& app, ScheduleOptionsCli& options);

/// Runs the command; returns the exit code (see Cli.h).
int runSchedule(const ScheduleOptionsCli& options, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
