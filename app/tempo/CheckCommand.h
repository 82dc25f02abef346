// CheckCommand: `tempo check FILE`.
//
// Compiles the program and prints its diagnostics; when it has no errors and
// every bound has a default, also checks that each load() file exists and has
// the declared dtype and shape. On success prints
// `FILE: ok (N nodes, M edges, K outputs)`.
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>

namespace tempo::cli {

struct CheckOptions {
  std::string file;
};

/// Registers the `check` subcommand on `app`, filling `options` when parsed.
CLI::App* addCheckCommand(CLI::App& app, CheckOptions& options);

/// Runs the command; returns the exit code (see Cli.h).
int runCheck(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
