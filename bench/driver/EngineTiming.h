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
  double predictSeconds = 0;     ///< compiled only: the prediction's walk, made once, untimed in the runs
  int64_t work = 0;              ///< statements executed (compiled) or points evaluated (reference)
  int64_t nativeCalls = 0;       ///< compiled: statements a generated kernel computed
  int64_t boxedExecs = 0;        ///< compiled: array points recorded a box at a time
  std::vector<std::pair<std::string, Tensor>> outputs;  ///< of the last repetition
};

/// How the compiled engine is built and run for timing.
struct CompiledKnobs {
  cpu::MatmulAccumulation matmul = cpu::MatmulAccumulation::F32;  ///< f32 matmul accumulation
  bool generatedKernels = true;             ///< false: the library kernels only
  bool trace = false;                       ///< collect the run's trace (its overhead)
  std::vector<std::string> disabledPasses;  ///< passes left out of the default pipeline
  bool inputsReady = false;  ///< whole-array sources built once before the timed runs and handed to each
  std::string scheduler;     ///< "fusion", "isl" or "fallback" ("": the compiler's default)
};

/// Compiles `g` with the default pipeline as `knobs` say, then times runCompiled at `bounds`.
/// Throws PassError, ExecError or std::runtime_error.
EngineTimings timeCompiled(const Graph& g, const SymbolEnv& bounds, const TimingPlan& plan, const CompiledKnobs& knobs);

/// Times a fresh ReferenceInterpreter evaluating every output. Throws EvalError.
EngineTimings timeReference(const Graph& g, const SymbolEnv& bounds, const TimingPlan& plan);

/// Seconds to build every whole-array source (load, hash, random) of `g` once at `bounds`.
double sourceInitSeconds(const Graph& g, const SymbolEnv& bounds);

}  // namespace tempo::bench
