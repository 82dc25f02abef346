// RunsCommand: `tempo runs list|show|rm|diff|export` over the run store that `tempo profile` records into.
//
//   tempo runs list [--program FILE]              the runs, newest first (id, start, status, label, bounds, wall, peak)
//   tempo runs show ID [--top N]                  a run's header, compile summary, profile tables and outputs
//   tempo runs rm ID                              deletes a run and everything recorded with it
//   tempo runs diff A B [--threshold 5%] [--min-time 1ms]
//                                                 per-node and per-line time and memory deltas (RunDiff.h);
//                                                 exit 1 when something regressed past the threshold, 0 when not
//   tempo runs export ID --format chrome [-o trace.json]   Chrome trace JSON for Perfetto (ChromeTrace.h)
// Every subcommand takes `--db PATH`; the default is `.tempo/runs.db` next to
// `--program FILE` when given, else in the current directory. A missing run
// or an unreadable store exits 3 with the reason; bad arguments exit 2.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>

namespace tempo::cli {

struct RunsOptions {
  std::string db;
  std::string program;
  int64_t id = 0, other = 0;
  size_t top = 15;
  std::string threshold = "5%";
  std::string minTime = "1ms";
  std::string format = "chrome";
  std::string output;  ///< "" or "-": standard output
  CLI::App *list = nullptr, *show = nullptr, *rm = nullptr, *diff = nullptr, *exportTrace = nullptr;
};

CLI::App* addRunsCommand(CLI::App& app, RunsOptions& options);
int runRuns(const RunsOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
