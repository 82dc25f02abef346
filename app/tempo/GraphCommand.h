// GraphCommand: `tempo graph FILE [--format text|dot|json|svg|png] [--output FILE]`.
//
// Compiles the program and prints its symbolic dependence graph to stdout:
// the stable text form (default), Graphviz DOT (`| dot -Tsvg`), JSON for
// tools, or a picture laid out and drawn by libgvc (core/layout) as SVG or
// PNG. `--output FILE` writes to FILE instead; PNG is binary and so needs
// `--output` (usage error otherwise). Diagnostics go to stderr; a program
// with errors exits 1, a failed render or write exits 3.
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>

namespace tempo::cli {

struct GraphOptions {
  std::string file;
  std::string format = "text";
  std::string output;  ///< "" for stdout
};

/// Registers the `graph` subcommand on `app`, filling `options` when parsed.
CLI::App* addGraphCommand(CLI::App& app, GraphOptions& options);

/// Runs the command; returns the exit code (see Cli.h).
int runGraph(const GraphOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
