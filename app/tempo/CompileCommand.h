// CompileCommand: `tempo compile FILE [--passes] [--print-after=PASS|all]
// [--stop-after=PASS] [--disable=PASS]... [--device cpu|cuda[:N]]
// [--emit kernels|llvm|asm|cuda|ptx [--kernel NAME]]`.
//
// Runs the compiler's pass pipeline on a program and shows what each pass
// did. `--passes` lists the pipeline (name and description) without
// compiling. `--print-after` prints, for the chosen pass or all of them, a
// header with the pass's name and description, what changed (counts and the
// pass's notes, or "no change") and the SDG after it. Without it, a table
// with one line per pass (changed nodes, time) is followed by the final SDG.
// `--emit` prints the generated code instead: the kernel table (`kernels`),
// the LLVM IR after -O3 (`llvm`) or the assembly (`asm`), of the whole module
// or of one kernel (`--kernel k7_h` or `--kernel %7`), the way Compiler
// Explorer shows one function; with `--device cuda`, the kernels' CUDA C++
// (`cuda`) or NVRTC's PTX for sm_90 (`ptx`), which need no GPU. An unknown
// pass or kernel name is a usage error (exit 2) that lists the valid names.
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace tempo::cli {

struct CompileOptions {
  std::string file;
  bool listPasses = false;
  std::string printAfter;  ///< a pass name, "all", or "" for the summary table
  std::string stopAfter;
  std::vector<std::string> disabled;
  int64_t blockSize = 0;  ///< static tiling's block size (0: the cost model's)
  std::string device = "cpu";  ///< cpu, cuda or cuda:N: the device the code is for
  std::string emit;       ///< "kernels", "llvm", "asm" (cpu), "cuda", "ptx" (cuda) or "" (no code printed)
  std::string kernel;     ///< with emit: one kernel's name or node (`%7`)
  std::vector<std::string> sets;  ///< NAME=INT: the bounds the cost models size for (the program stays parametric)
};

/// Registers the `compile` subcommand on `app`, filling `options` when parsed.
CLI::App* addCompileCommand(CLI::App& app, CompileOptions& options);

/// Runs the command; returns the exit code (see Cli.h).
int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
