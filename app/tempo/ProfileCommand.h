// ProfileCommand: `tempo profile FILE [--set NAME=INT]... [--top N] [--block-size N] [--kernels generated|library]
//                  [--db PATH] [--label TEXT] [--no-store] [--store-outputs]`.
//
// Compiles the program with the compiled engine, runs it once with a
// TraceCollector and prints where the time went, the way `nsys stats` does:
// the run's wall time, then a table of nodes by total time (calls, mean, min,
// max, calls a generated kernel computed, bytes written, the node's kernel and
// source position) whose last line is the time no statement accounts for, then
// the same folded by source line with the line's text. `--top N` limits the
// node table (default 15). The run is recorded in the run store
// (runtime/runstore, docs/profiler.md): `.tempo/runs.db` next to the program
// unless `--db` names another file or `--no-store` keeps nothing; the run's
// id is printed last, for `tempo runs show|diff|export`. A run that fails is
// recorded as failed with its error. Exit codes as in Cli.h.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace tempo::cli {

struct ProfileOptions {
  std::string file;
  std::vector<std::string> sets;
  size_t top = 15;
  int64_t blockSize = 0;
  std::string kernels = "generated";
  std::string db;             ///< "" = .tempo/runs.db next to the program
  std::string label;
  bool noStore = false;
  bool storeOutputs = false;  ///< keep the outputs' .npy bytes in the store
};

CLI::App* addProfileCommand(CLI::App& app, ProfileOptions& options);
int runProfile(const ProfileOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
