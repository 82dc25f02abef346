// tempo_bench: times one .tpo program with one engine and prints one JSON line.
//
// See BenchOptions.h for the command line and EngineTiming.h for what is
// timed; bench/run_bench.py drives it next to the PyTorch peers. The record
// holds the bounds, compile time (compiled engine), per-repetition run times
// (median/min/max, and per unit of work with --unit), the executor's
// MemoryTracker peak and the process's peak RSS, the output checksums and
// the --expect results.
#include "driver/BenchOptions.h"
#include "driver/EngineTiming.h"
#include "driver/OutputChecksum.h"
#include "driver/ProcessMemory.h"
#include "driver/SyntheticSources.h"
#include "executor/ExecError.h"
#include "interp/ReferenceInterpreter.h"
#include "kernels/cpu/Matmul.h"
#include "pass/Pipeline.h"
#include "tempo/CommandSupport.h"
#include "tempo/RunCommand.h"

#include <nlohmann/json.hpp>
#include <omp.h>

#include <iostream>

namespace tempo::bench {
namespace {

nlohmann::json toJson(const Summary& s) {
  return {{"median", s.median}, {"min", s.min}, {"max", s.max}, {"n", s.n}};
}

std::vector<double> scaled(const std::vector<double>& xs, double factor) {
  std::vector<double> out;
  for (double x : xs) out.push_back(x * factor);
  return out;
}

/// The resolved bounds and the parsed expectations (prepare() prints why when it has none).
struct Inputs {
  SymbolEnv bounds;
  std::vector<Expectation> expectations;
};

std::optional<Inputs> prepare(const BenchOptions& o, const FrontendResult& program) {
  std::string error;
  Inputs in;
  for (const std::string& text : o.expectations) {
    std::optional<Expectation> e = parseExpectation(text, error);
    if (!e) {
      std::cerr << "tempo_bench: " << error << "\n";
      return std::nullopt;
    }
    in.expectations.push_back(*e);
  }
  std::optional<std::map<std::string, int64_t>> overrides = cli::parseSets(o.sets, error);
  std::optional<SymbolEnv> bounds;
  if (overrides) bounds = resolveBounds(program.graph, *overrides, error);
  if (!bounds) {
    std::cerr << "tempo_bench: " << error << "\n";
    return std::nullopt;
  }
  if (!o.unit.empty() && !bounds->count(o.unit)) {
    std::cerr << "tempo_bench: --unit '" << o.unit << "' is not a bound of the program\n";
    return std::nullopt;
  }
  in.bounds = *bounds;
  return in;
}

nlohmann::json record(const BenchOptions& o, const Inputs& in, const EngineTimings& t, double baseRss) {
  nlohmann::json j = {{"program", o.program}, {"label", o.label}, {"engine", t.engine},
                      {"bounds", in.bounds}, {"synthetic", o.synthetic}, {"warmup", o.warmup},
                      {"reps", o.reps}, {"threads", omp_get_max_threads()}, {"matmul", o.matmul}, {"kernels", o.kernels}, {"trace", o.trace}, {"disabled_passes", o.disabledPasses}, {"inputs_ready", o.inputsReady}, {"scheduler", o.scheduler.empty() ? "default" : o.scheduler}};
  j["run_s"] = toJson(summarise(t.runSeconds));
  if (!o.unit.empty()) {
    j["unit"] = o.unit;
    j["units"] = in.bounds.at(o.unit);
    j["run_per_unit_ms"] = toJson(summarise(scaled(t.runSeconds, 1e3 / static_cast<double>(in.bounds.at(o.unit)))));
  }
  if (t.engine == "compiled") {
    j["compile_s"] = t.compileSeconds;
    nlohmann::json phases = nlohmann::json::array();  // in the order they ran
    for (const auto& [name, seconds] : t.compilePhases) phases.push_back({name, seconds});
    j["compile_phases_s"] = phases;
    // The runs alone, from a peak mark reset after the compile: comparable to a
    // peer's peak above its imports (the compile's isl memory is not in it).
    j["run_base_rss_mb"] = t.runBaseRssMiB;
    j["run_peak_rss_mb"] = t.runPeakRssMiB;
    j["exec_s"] = toJson(summarise(t.execSeconds));
    j["peak_bytes"] = t.peakBytes;
    j["predicted_bytes"] = t.predictedBytes;
    j["predict_s"] = t.predictSeconds;
    j["statements"] = t.work;
    j["native_calls"] = t.nativeCalls;
    j["boxed_execs"] = t.boxedExecs;
  } else {
    j["points"] = t.work;
  }
  j["base_rss_mb"] = baseRss;
  j["peak_rss_mb"] = peakRssMiB();
  nlohmann::json sums = nlohmann::json::object();
  for (const auto& [name, value] : t.outputs) sums[name] = toJson(checksumOf(value));
  j["checksums"] = sums;
  return j;
}

int run(const BenchOptions& o) {
  double baseRss = currentRssMiB();
  FrontendResult program = cli::compileReporting(o.program, std::cerr);
  if (!program.ok()) return kBenchProgramErrors;
  std::optional<Inputs> in = prepare(o, program);
  if (!in) return kBenchUsage;
  if (o.synthetic)
    replaceLoadsWithHash(program.graph);
  else if (!cli::checkDataFiles(program, in->bounds, std::cerr))
    return kBenchProgramErrors;

  TimingPlan plan{o.warmup, o.reps};
  CompiledKnobs knobs{*cpu::parseMatmulAccumulation(o.matmul), o.kernels == "generated", o.trace,
                      o.disabledPasses, o.inputsReady, o.scheduler};
  EngineTimings t = o.engine == "compiled" ? timeCompiled(program.graph, in->bounds, plan, knobs)
                                           : timeReference(program.graph, in->bounds, plan);
  nlohmann::json j = record(o, *in, t, baseRss);
  j["source_init_s"] = sourceInitSeconds(program.graph, in->bounds);

  std::vector<std::pair<std::string, OutputChecksum>> sums;
  for (const auto& [name, value] : t.outputs) sums.emplace_back(name, checksumOf(value));
  bool ok = true;
  j["expect"] = nlohmann::json::array();
  for (const ExpectationResult& r : checkExpectations(in->expectations, sums, o.rtol)) {
    j["expect"].push_back(toJson(r));
    ok = ok && r.ok;
    if (!r.actual)
      std::cerr << "tempo_bench: --expect names '" << r.expected.output << "', which is not an output\n";
    else if (!r.ok)
      std::cerr << "tempo_bench: a checksum differs from --expect by more than rtol " << o.rtol << ": "
                << r.expected.output << "." << r.expected.field << " = " << *r.actual << ", expected "
                << r.expected.value << "\n";
  }
  j["ok"] = ok;
  std::cout << j.dump() << std::endl;
  return ok ? kBenchOk : kBenchMismatch;
}

}  // namespace
}  // namespace tempo::bench

int main(int argc, char** argv) {
  using namespace tempo;
  CLI::App app{"tempo_bench: time a .tpo program with one engine; prints one JSON line"};
  bench::BenchOptions options;
  bench::addBenchOptions(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : bench::kBenchUsage;
  }
  try {
    return bench::run(options);
  } catch (const EvalError& e) {
    std::cerr << "tempo_bench: evaluation failed: " << e.what() << "\n";
  } catch (const ExecError& e) {
    std::cerr << "tempo_bench: execution failed: " << e.what() << "\n";
  } catch (const PassError& e) {
    std::cerr << "tempo_bench: compilation failed: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "tempo_bench: " << e.what() << "\n";
  }
  return bench::kBenchRuntime;
}
