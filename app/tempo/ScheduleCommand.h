// ScheduleCommand: `tempo schedule FILE [--format text|json]`, and
// `tempo schedule FILE --iteration-space X[,Y] [--set N=V] [--block-size BS] --format svg|png [-o OUT]`.
//
// Compiles the program, schedules its SDG with isl (compiler/schedule) and
// prints the result: the loop program as readable pseudo-code (default), or
// JSON for tools and the studio with the statements and their domains, every
// dependence as isl text, the isl schedule tree and map, whether the fallback
// schedule was used and why, and the loop AST. The schedule is parametric:
// bounds stay symbols. With --iteration-space it draws the schedule's
// instances at concrete bounds instead (IterationSpaceOutput). Diagnostics, and a graph that cannot be scheduled,
// exit 1.
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace tempo::cli {

struct ScheduleOptionsCli {
  std::string file;
  std::string format = "text";
  bool fallback = false;          ///< the fallback schedule (same as --scheduler fallback)
  std::string scheduler = "fusion";  ///< fusion (then isl if it fails), isl, or fallback
  std::string iterationSpace;     ///< "t" or "t,b": draw instances instead of printing loops
  std::vector<std::string> sets;  ///< NAME=INT bounds for the drawing
  int64_t blockSize = 0;          ///< static tiling's block size for the drawing (0: the cost model's)
  std::string output;             ///< "" = stdout
  std::string memoryBudget;  ///< "" = none; else bytes with an optional k/M/G suffix (at the default bounds)
  bool optimized = false;    ///< schedule the graph after the default pass pipeline (what `tempo run` executes)
  std::string transform;     ///< "" = none; else ScheduleTransform text (`shift h by 1 along t; interchange t, b`)
};

/// Registers the `schedule` subcommand on `app`, filling `options` when parsed.
CLI::App* addScheduleCommand(CLI::App& app, ScheduleOptionsCli& options);

/// Runs the command; returns the exit code (see Cli.h).
int runSchedule(const ScheduleOptionsCli& options, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
