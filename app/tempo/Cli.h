// Cli: the `tempo` command line, as a function that tests can drive.
//
// `runCli` parses argv with CLI11 and dispatches to one of the subcommands —
// `check` (compile a program and its data files, report diagnostics),
// `run` (evaluate every output with the compiled engine — the default — or
// the reference one, print and optionally save them as .npy), `graph` (the SDG as text, DOT,
// JSON, SVG or PNG), `compile` (the pass pipeline, pass by pass) and
// `schedule` (the parametric isl schedule as loops with memory statements, or JSON),
// `profile` (a traced run, recorded in the run store) and `runs` (the stored runs:
// list, show, rm, diff, export). Normal output goes to `out`, diagnostics and errors to `err`; no
// input makes it throw. Exit codes (also listed in `tempo --help`):
//   0  success
//   1  the program has errors (diagnostics were printed)
//   2  usage error: bad arguments, unknown subcommand, bad --set or --engine
//   3  runtime failure: evaluation error or I/O failure
// (`tempo runs diff` exits 1 when run B regressed against run A.)
#pragma once

#include <iosfwd>

namespace tempo::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitProgramErrors = 1,
  kExitUsage = 2,
  kExitRuntime = 3,
};

/// Runs `tempo` with `argv[0..argc)` (argv[0] is the program name).
int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
