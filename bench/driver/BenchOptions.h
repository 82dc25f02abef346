// BenchOptions: the command line of tempo_bench.
//
//   tempo_bench PROGRAM [--set NAME=INT]... [--engine compiled|reference]
//               [--warmup N] [--reps N] [--unit BOUND] [--synthetic]
//               [--expect OUTPUT.FIELD=VALUE]... [--rtol X] [--matmul f64|f32]
//               [--kernels generated|library] [--trace] [--disable PASS]...
//               [--inputs-ready] [--scheduler fusion|isl|fallback] [--label TEXT]
//
// One engine per process, so the process's peak RSS belongs to that engine
// (the PyTorch peers also run one configuration per process). --unit names
// the bound that counts the units of work (T: per step or token), and times
// are also reported divided by its value. --synthetic replaces load()
// sources by hash initialisers so the examples run at any bounds.
// --expect compares an output's checksum with a peer's value (exit code 4
// when one does not hold). --matmul f64 switches the compiled engine's f32
// matmuls from the default f32 accumulation (sgemm, as PyTorch computes them)
// to f64 (widened operands and dgemm, the reference's numerics). --kernels
// library runs the library kernels where generated ones exist (codegen's A/B);
// --disable PASS leaves a pass out of the pipeline (a pass's A/B).
// --inputs-ready builds the whole-array sources (load, hash, random) once
// before the timed runs and hands them to each run, as the peers create their
// inputs before timing; without it a run's time includes building them.
// --scheduler picks the scheduling method (the compiler's default: fusion,
// then isl's scheduler where the fusion schedule cannot order the program).
#pragma once

#include "driver/OutputChecksum.h"

#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <vector>

namespace tempo::bench {

enum BenchExit : int {
  kBenchOk = 0,
  kBenchProgramErrors = 1,  ///< the program or its data files have errors
  kBenchUsage = 2,
  kBenchRuntime = 3,        ///< compilation or evaluation failed
  kBenchMismatch = 4,       ///< an --expect checksum does not hold
};

struct BenchOptions {
  std::string program;
  std::vector<std::string> sets;          ///< `NAME=INT`, as given
  std::string engine = "compiled";
  int warmup = 1;
  int reps = 3;
  std::string unit;                       ///< a bound name, or "" (per run)
  bool synthetic = false;
  std::vector<std::string> expectations;  ///< `OUTPUT.FIELD=VALUE`, as given
  double rtol = 1e-4;
  std::string matmul = "f32";             ///< f32 matmul accumulation of the compiled engine
  std::string kernels = "generated";      ///< generated (LLVM) kernels where formed, or library ones only
  bool trace = false;                     ///< run the compiled engine with a TraceCollector (its overhead;
                                          ///< TEMPO_TRACE_SPANS=N caps the spans kept, 0: aggregates only)
  std::vector<std::string> disabledPasses;  ///< passes left out of the pipeline (a pass's A/B)
  bool inputsReady = false;               ///< compiled: sources built before timing and handed to every run
  std::string scheduler;                  ///< compiled: fusion, isl or fallback ("": the compiler's default)
  std::string label;
};

/// Declares the options on `app` (CLI11), filling `options` when parsed.
void addBenchOptions(CLI::App& app, BenchOptions& options);

}  // namespace tempo::bench
