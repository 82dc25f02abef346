// EngineTiming: repeated, timed runs of one program with one engine.
//
// A benchmark run evaluates every output of a checked graph at fixed bounds,
// `warmup` times untimed and then `reps` times timed (wall clock around the
// whole evaluation), and keeps the last outputs for checksums. The two
// engines are timed the way a user runs them:
// - compiled: compileProgram (pass pipeline + parametric isl schedule) once,
//   timed apart as the compile time, then runCompiled at the bounds per
//   repetition (storage plan, executor set-up, run, output assembly); the
//   executor's own run time, statements executed and MemoryTracker peak bytes
//   (with the storage plan's prediction) come from its statistics;
// - reference: a fresh ReferenceInterpreter per repetition (its memo would
//   otherwise answer the second run), evaluating every output.
// Both engines build their source arrays (load, hash, random) inside the run;
// `sourceInitSeconds` times building them once on their own, so a reader can
// tell how much of a run is initialisation that the peers do before timing.
#pragma once

#include "graph/Graph.h"
#include "kernels/cpu/Matmul.h"
#include "pass/PhaseClock.h"
#include "symbolic/IndexExpr.h"
#include "tensor/Tensor.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tempo::bench {

struct TimingPlan {
  int warmup = 1;
  int reps = 3;
};

struct Summary {
  double median = 0, min = 0, max = 0;
  int n = 0;
};
Summary summarise(std::vector<double> values);

struct EngineTimings {
  std::string engine;            ///< "compiled" or "reference"
  double compileSeconds = 0;     ///< compiled only: passes + schedule
  PhaseSeconds compilePhases;    ///< compiled only: compileSeconds by phase
  double runBaseRssMiB = 0;      ///< compiled only: resident MiB after compiling (heap trimmed)
  double runPeakRssMiB = 0;      ///< compiled only: peak resident MiB of the runs alone (NaN if unmeasured)
  std::vector<double> runSeconds;   ///< wall time of each timed repetition
  std::vector<double> execSeconds;  ///< compiled only: the executor's run() time per repetition
  int64_t peakBytes = 0;         ///< compiled only: MemoryTracker peak (last repetition)
  int64_t predictedBytes = 0;    ///< compiled only: the storage plan's prediction
  int64_t work = 0;              ///< statements executed (compiled) or points evaluated (reference)
  int64_t nativeCalls = 0;       ///< compiled: statements a generated kernel computed
  std::vector<std::pair<std::string, Tensor>> outputs;  ///< of the last repetition
};

/// Compiles `g` with the default pipeline (less `disabledPasses`), then times runCompiled at `bounds`
/// with f32 matmuls accumulated as `matmul` says. `inputsReady`: the whole-array sources are built
/// once before the timed runs and handed to each (the peers make their inputs before timing).
/// Throws PassError, ExecError or std::runtime_error.
EngineTimings timeCompiled(const Graph& g, const SymbolEnv& bounds, const TimingPlan& plan,
                           cpu::MatmulAccumulation matmul, bool generatedKernels = true, bool trace = false,
                           const std::vector<std::string>& disabledPasses = {}, bool inputsReady = false);

/// Times a fresh ReferenceInterpreter evaluating every output. Throws EvalError.
EngineTimings timeReference(const Graph& g, const SymbolEnv& bounds, const TimingPlan& plan);

/// Seconds to build every whole-array source (load, hash, random) of `g` once at `bounds`.
double sourceInitSeconds(const Graph& g, const SymbolEnv& bounds);

}  // namespace tempo::bench
