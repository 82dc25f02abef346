// GraphCommand: `tempo graph FILE [--format text|dot|json]`.
//
// Compiles the program and prints its symbolic dependence graph to stdout:
// the stable text form (default), Graphviz DOT (`| dot -Tsvg`) or JSON for
// tools. Diagnostics go to stderr; a program with errors exits 1.
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>

namespace tempo::cli {

struct GraphOptions {
  std::string file;
  std::string format = "text";
};

/// Registers the `graph` subcommand on `app`, filling `options` when parsed.
CLI::App* addGraphCommand(CLI::App& app, GraphOptions& options);

/// Runs the command; returns the exit code (see Cli.h).
int runGraph(const GraphOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
