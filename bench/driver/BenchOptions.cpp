#include "driver/BenchOptions.h"

namespace tempo::bench {

void addBenchOptions(CLI::App& app, BenchOptions& o) {
  app.add_option("PROGRAM", o.program, "The .tpo program")->required();
  app.add_option("--set", o.sets, "Override a bound, e.g. --set T=128 (repeatable)")
      ->type_name("NAME=INT")
      ->allow_extra_args(false);
  app.add_option("--engine", o.engine, "compiled (passes + schedule + executor) or reference (the interpreter)")
      ->check(CLI::IsMember({"compiled", "reference"}))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed runs first")->check(CLI::NonNegativeNumber)->capture_default_str();
  app.add_option("--reps", o.reps, "Timed runs")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--unit", o.unit, "Bound counting the units of work (times are also given per unit)")
      ->type_name("BOUND");
  app.add_flag("--synthetic", o.synthetic, "Replace load() sources by hash initialisers (any bounds; values meaningless)");
  app.add_option("--expect", o.expectations, "Checksum an output must match, e.g. y.sum=-28.91703 (repeatable)")
      ->type_name("OUTPUT.FIELD=VALUE")
      ->allow_extra_args(false);
  app.add_option("--rtol", o.rtol, "Relative tolerance of --expect")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--matmul", o.matmul, "Accumulation of the compiled engine's f32 matmuls: f32 (default, sgemm) or f64 (the reference's numerics)")
      ->check(CLI::IsMember({"f64", "f32"}))
      ->capture_default_str();
  app.add_option("--kernels", o.kernels, "Compiled engine: generated (LLVM) kernels where formed, or the library kernels only")
      ->check(CLI::IsMember({"generated", "library"}))
      ->capture_default_str();
  app.add_flag("--inputs-ready", o.inputsReady,
               "Compiled engine: build the whole-array sources (load, hash, random) before timing and hand them "
               "to every run, as the peers make their inputs before timing");
  app.add_flag("--trace", o.trace, "Compiled engine: collect the run's trace (runtime/trace), to measure its overhead");
  app.add_option("--disable", o.disabledPasses, "Compiled engine: leave this pass out of the pipeline (repeatable)");
  app.add_option("--scheduler", o.scheduler,
                 "Compiled engine: the scheduling method (default: fusion, then isl's scheduler if it fails)")
      ->check(CLI::IsMember({"fusion", "isl", "fallback"}));
  app.add_option("--label", o.label, "Free text copied into the JSON record");
}

}  // namespace tempo::bench
