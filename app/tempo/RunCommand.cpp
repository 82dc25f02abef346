#include "tempo/RunCommand.h"

#include "autodiff/Optimize.h"
#include "device/DeviceSpec.h"
#include "device/DeviceSupport.h"
#include "executor/CompiledEngine.h"
#include "executor/MemoryProfile.h"
#include "interp/ReferenceInterpreter.h"
#include "kernels/cpu/Matmul.h"
#include "pass/PassRegistry.h"
#include "npy/Npy.h"
#include "tempo/Cli.h"
#include "tempo/CommandSupport.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <ostream>

namespace tempo::cli {

namespace {

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::optional<int64_t> parseInt(const std::string& s) {
  int64_t value = 0;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (s.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

using Outputs = std::vector<std::pair<std::string, Tensor>>;

/// `t: stopped at step 37 (38 of 512 steps)` per until dimension.
void printReached(const std::vector<ReachedExtent>& reached, const Graph& g, std::ostream& out) {
  for (const std::string& line : reachedLines(g, reached)) out << line << "\n";
}

/// Compiles (passes + schedule + memory placement) and runs with the executor;
/// prints the outputs, the memory budget's plan if any, and one line of
/// statistics with the measured and the predicted peak.
Outputs evaluateCompiled(const Graph& g, const SymbolEnv& bounds, const RunOptions& options,
                         std::optional<int64_t> budget, std::ostream& out, std::ostream& err) {
  PassContext context = passContextFor(options.blockSize);
  if (!options.transform.empty()) context.options["schedule-transform"] = options.transform;
  context.boundHints = bounds;  // the cost models size for the bounds of this run
  CompiledProgram program = compileProgram(g, defaultPipeline(), context);
  CompiledRunOptions runOptions{true, budget};
  runOptions.matmul = *cpu::parseMatmulAccumulation(options.matmul);  // checked by runRun
  CompiledRunResult r = runCompiled(program, bounds, runOptions);
  for (const auto& [name, value] : r.outputs) out << name << " : " << value.summary() << "\n";
  printReached(r.reached, program.graph, out);
  if (r.runs > 1)
    for (const UntilLoop& u : planUntilLoops(program.graph, program.loops))
      if (u.topStatement < 0) out << "until " << u.dim << ": ran the program " << r.runs << " times: " << u.whyNot << "\n";
  if (r.swapPlan) {
    out << r.swapPlan->report();
    if (r.paging) out << r.paging->report(program.graph);
    if (r.stats.peakBytes > *budget)
      err << "tempo run: warning: the memory budget of " << *budget << " bytes was not met: the peak was "
          << r.stats.peakBytes << " bytes (see above)\n";
  }
  out << "engine compiled: " << r.stats.execs << " statements";
  if (r.stats.nativeCalls > 0) out << " (" << r.stats.nativeCalls << " by generated kernels)";
  out << ", peak " << r.stats.peakBytes << " bytes measured, "
      << r.predictedBytes << " predicted" << (r.paging && r.paging->pageOuts() > 0 ? " before paging" : "");
  if (r.swapPlan) out << ", " << r.stats.peakSwappedBytes << " swapped";
  out << ", " << r.stats.seconds * 1e3 << " ms\n";
  if (!options.memoryProfile.empty()) {
    std::ofstream file(options.memoryProfile);
    file << memoryProfileJson(program, program.graph.withDerivedBounds(bounds), r).dump(1) << "\n";
    if (!file) throw std::filesystem::filesystem_error("cannot write the memory profile", options.memoryProfile,
                                                       std::make_error_code(std::errc::io_error));
    out << "wrote " << options.memoryProfile << "\n";
  }
  return r.outputs;
}

/// Evaluates every output, printing each as soon as it is known.
Outputs evaluateAll(const Graph& g, const SymbolEnv& bounds, std::ostream& out) {
  ReferenceInterpreter interp(g, InterpreterOptions{bounds});
  Outputs results;
  for (const GraphOutput& o : g.outputs) {
    Tensor value = interp.evaluateOutput(o);
    out << o.name << " : " << value.summary() << "\n" << std::flush;
    results.emplace_back(o.name, std::move(value));
  }
  printReached(interp.reachedExtents(), g, out);
  return results;
}

/// Writes DIR/NAME.npy for each output; throws NpyError or filesystem_error.
void writeOutputs(const Outputs& results, const std::string& dir, std::ostream& out) {
  std::filesystem::create_directories(dir);
  for (const auto& [name, value] : results) {
    std::string path = (std::filesystem::path(dir) / (name + ".npy")).string();
    writeNpy(path, value);
    out << "wrote " << path << "\n";
  }
}

/// Moves the final values of the trained params (`W.final`) out of `results`
/// and writes them as DIR/W.npy; throws NpyError or filesystem_error.
void saveParams(Outputs& results, const std::vector<TrainedParam>& params, const std::string& dir, std::ostream& out) {
  Outputs finals;
  for (const TrainedParam& p : params) {
    auto it = std::find_if(results.begin(), results.end(),
                           [&](const auto& r) { return r.first == finalParamOutputName(p.name); });
    finals.emplace_back(p.name, std::move(it->second));
    results.erase(it);
  }
  writeOutputs(finals, dir, out);
}

/// The resolved bounds, or nullopt after printing a usage error.
std::optional<SymbolEnv> boundsFor(const RunOptions& options, const Graph& g, std::ostream& err) {
  std::string error;
  std::optional<SymbolEnv> bounds = boundsFromSets(g, options.sets, error);
  if (!bounds) err << "tempo run: " << error << "\n";
  return bounds;
}

}  // namespace

CLI::App* addRunCommand(CLI::App& app, RunOptions& options) {
  CLI::App* cmd = app.add_subcommand("run", "Evaluate every output of a program (compiled engine by default)");
  cmd->add_option("FILE", options.file, "The .tpo program")->required();
  cmd->add_option("--set", options.sets, "Override a bound, e.g. --set T=32 (repeatable)")
      ->type_name("NAME=INT")
      ->allow_extra_args(false);
  cmd->add_option("--out", options.outDir, "Write each output to DIR/NAME.npy (DIR is created)")->type_name("DIR");
  cmd->add_option("--save-params", options.saveParamsDir,
                  "Write the params trained by `optimize`, after the last update, to DIR/NAME.npy (DIR is created)")
      ->type_name("DIR");
  cmd->add_option("--block-size", options.blockSize, "Static tiling's block size (compiled engine; default: the cost model's)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--device", options.device, "Where to run: cpu (default), cuda or cuda:N")->type_name("cpu|cuda[:N]");
  cmd->add_option("--engine", options.engine, "Execution engine: compiled (passes + isl schedule + executor) or reference (the point-by-point oracle)")
      ->capture_default_str();
  cmd->add_option("--memory-budget", options.memoryBudget,
                  "Compiled engine: keep live tensor bytes under BYTES (k/M/G suffixes) by swapping stores to host memory "
                  "or computing them again; refused (exit 2) below what any schedule needs")
      ->type_name("BYTES");
  cmd->add_option("--matmul", options.matmul,
                  "Compiled engine: accumulate f32 matmuls in f32 (sgemm, fast) or f64 (the reference's numerics)")
      ->type_name("f32|f64")
      ->capture_default_str();
  cmd->add_option("--transform", options.transform,
                  "Compiled engine: change the schedule of the optimised program (as `tempo schedule --transform`; "
                  "exit 1 naming each violated dependence)")
      ->type_name("TEXT");
  cmd->add_option("--memory-profile", options.memoryProfile,
                  "Compiled engine: write the run's memory (per node, and live bytes after every memory statement, "
                  "measured beside predicted) as JSON to FILE")
      ->type_name("FILE");
  return cmd;
}

std::optional<std::map<std::string, int64_t>> parseSets(const std::vector<std::string>& sets, std::string& error) {
  std::map<std::string, int64_t> values;
  for (const std::string& s : sets) {
    size_t eq = s.find('=');
    std::string name = s.substr(0, eq);
    std::optional<int64_t> value = eq == std::string::npos ? std::nullopt : parseInt(s.substr(eq + 1));
    if (!isIdentifier(name) || !value) {
      error = "--set '" + s + "': expected NAME=INT, e.g. --set T=32";
      return std::nullopt;
    }
    values[name] = *value;
  }
  return values;
}

std::optional<SymbolEnv> boundsFromSets(const Graph& g, const std::vector<std::string>& sets, std::string& error) {
  std::optional<std::map<std::string, int64_t>> overrides = parseSets(sets, error);
  return overrides ? resolveBounds(g, *overrides, error) : std::nullopt;
}

int runRun(const RunOptions& options, std::ostream& out, std::ostream& err) {
  if (options.engine != "reference" && options.engine != "compiled") {
    err << "tempo run: unknown engine '" << options.engine << "' (available: compiled, reference)\n";
    return kExitUsage;
  }
  std::optional<DeviceSpec> device = deviceOption(options.device, "run", err);
  if (!device) return kExitUsage;
  if (device->isCuda() && options.engine != "compiled") {
    err << "tempo run: --device " << options.device << " needs the compiled engine (the reference runs on the CPU)\n";
    return kExitUsage;
  }
  if (std::string why = whyProgramsCannotRunOn(*device); !why.empty()) {
    err << "tempo run: --device " << options.device << ": " << why << "\n";
    return kExitRuntime;
  }
  if (!cpu::parseMatmulAccumulation(options.matmul)) {
    err << "tempo run: --matmul '" << options.matmul << "': expected f32 or f64\n";
    return kExitUsage;
  }
  if (options.matmul != "f32" && options.engine != "compiled") {
    err << "tempo run: --matmul needs the compiled engine (the reference always accumulates in f64)\n";
    return kExitUsage;
  }
  if (!options.transform.empty() && options.engine != "compiled") {
    err << "tempo run: --transform changes the compiled engine's schedule (the reference has none)\n";
    return kExitUsage;
  }
  if (!options.memoryProfile.empty() && options.engine != "compiled") {
    err << "tempo run: --memory-profile needs the compiled engine\n";
    return kExitUsage;
  }
  std::optional<int64_t> budget;
  if (!options.memoryBudget.empty()) {
    budget = parseByteSize(options.memoryBudget);
    if (!budget) {
      err << "tempo run: --memory-budget '" << options.memoryBudget << "': expected bytes, e.g. 4096, 64k, 1.5M, 2G\n";
      return kExitUsage;
    }
    if (options.engine != "compiled") {
      err << "tempo run: --memory-budget needs the compiled engine\n";
      return kExitUsage;
    }
  }
  std::string setError;
  if (!parseSets(options.sets, setError)) {
    err << "tempo run: " << setError << "\n";
    return kExitUsage;
  }
  FrontendResult program = compileReporting(options.file, err);
  if (!program.ok()) return kExitProgramErrors;
  std::optional<SymbolEnv> bounds = boundsFor(options, program.graph, err);
  if (!bounds) return kExitUsage;
  if (!checkDataFiles(program, *bounds, err)) return kExitProgramErrors;
  Graph graph = program.graph;
  if (!options.saveParamsDir.empty()) {
    if (graph.trainedParams.empty()) {
      err << "tempo run: --save-params: " << options.file << " has no optimize statement, so it trains no params\n";
      return kExitUsage;
    }
    addFinalParamOutputs(graph);
  }
  try {
    Outputs results = options.engine == "compiled" ? evaluateCompiled(graph, *bounds, options, budget, out, err)
                                                   : evaluateAll(graph, *bounds, out);
    if (!options.saveParamsDir.empty()) saveParams(results, graph.trainedParams, options.saveParamsDir, out);
    if (!options.outDir.empty()) writeOutputs(results, options.outDir, out);
  } catch (const ScheduleTransformError& e) {
    err << "tempo run: --transform: " << e.what() << "\n";
    return kExitUsage;
  } catch (const IllegalScheduleError& e) {
    return reportIllegalSchedule(options.file, e, err);
  } catch (const MemoryBudgetError& e) {
    err << "tempo run: --memory-budget " << options.memoryBudget << ": " << e.what() << "\n";
    return kExitUsage;
  } catch (const EvalError& e) {
    err << "tempo run: evaluation failed: " << e.what() << "\n";
    return kExitRuntime;
  } catch (const ExecError& e) {
    err << "tempo run: execution failed: " << e.what() << "\n";
    return kExitRuntime;
  } catch (const PassError& e) {
    err << "tempo run: compilation failed: " << e.what() << "\n";
    return kExitRuntime;
  } catch (const NpyError& e) {
    err << "tempo run: " << e.what() << "\n";
    return kExitRuntime;
  } catch (const std::filesystem::filesystem_error& e) {
    err << "tempo run: " << e.what() << "\n";
    return kExitRuntime;
  } catch (const std::exception& e) {  // the compiled engine's scheduler (isl) or another engine failure
    err << "tempo run: the compiled engine failed: " << e.what() << " (try --engine reference)\n";
    return kExitRuntime;
  }
  return kExitOk;
}

}  // namespace tempo::cli
