// RunCommand: `tempo run FILE [--set NAME=INT]... [--out DIR] [--device cpu|cuda[:N]]
// [--engine compiled|reference] [--matmul f32|f64]`.
//
// Compiles the program, resolves the bounds (the program's `set` defaults
// overridden by --set), checks its data files, evaluates every output with
// the chosen engine — `compiled` (pass pipeline, parametric isl schedule and
// the executor, with a line of statistics: statements, measured and
// predicted peak bytes, time) or `reference` (the point-by-point oracle) —
// and prints one line per output
// (`y : f32[4, 8] = [...]`). With --out DIR it also writes DIR/NAME.npy for
// each output. With --save-params DIR (a program with `optimize`) it also
// writes the trained params after their last update as DIR/NAME.npy.
// `--matmul f64` makes the compiled engine's f32 matmuls accumulate in
// double (the reference's numerics) instead of sgemm's float.
// `--memory-profile FILE.json` writes the compiled run's memory: per node and
// after every memory statement, measured beside predicted (MemoryProfile.h).
// `--device cuda[:N]` says why the program cannot run there (no toolkit, no
// driver, no such GPU, or the GPU engine not built yet: docs/cuda.md), exit 3.
// Exit codes as in Cli.h: 1 for program or data-file errors,
// 2 for a bad --set, --engine or --matmul, 3 when evaluation or writing fails.
#pragma once

#include "graph/Graph.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tempo::cli {

struct RunOptions {
  std::string file;
  std::vector<std::string> sets;  ///< `NAME=INT`, as given
  std::string outDir;             ///< "" = do not write files
  std::string saveParamsDir;      ///< "" = do not write the trained params
  std::string device = "cpu";     ///< cpu, cuda or cuda:N
  std::string engine = "compiled";
  std::string memoryBudget;       ///< "" = none; else bytes with an optional k/M/G suffix
  int64_t blockSize = 0;          ///< static tiling's block size (0: the cost model's)
  std::string matmul = "f32";     ///< compiled engine's f32 matmul accumulation: f32 (sgemm) or f64
  std::string memoryProfile;      ///< "" = none; else write the run's memory profile (JSON) there
  std::string transform;          ///< "" = none; else schedule transforms (ScheduleTransform) for the compiled engine
};

/// Registers the `run` subcommand on `app`, filling `options` when parsed.
CLI::App* addRunCommand(CLI::App& app, RunOptions& options);

/// Parses `NAME=INT` settings; nullopt with `error` set on the first bad one.
std::optional<std::map<std::string, int64_t>> parseSets(const std::vector<std::string>& sets, std::string& error);

/// The bounds of `g` with `sets` (NAME=INT) over its defaults; nullopt with `error` set on a bad
/// setting or a name that is not a bound.
std::optional<SymbolEnv> boundsFromSets(const Graph& g, const std::vector<std::string>& sets, std::string& error);

/// Runs the command; returns the exit code (see Cli.h).
int runRun(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
