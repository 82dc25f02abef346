#include "tempo/ProfileCommand.h"

#include "executor/CompiledEngine.h"
#include "pass/PassRegistry.h"
#include "runstore/RunRecorder.h"
#include "runstore/RunStore.h"
#include "tempo/Cli.h"
#include "tempo/CommandSupport.h"
#include "tempo/RunCommand.h"
#include "trace/ProfileSummary.h"

#include <filesystem>
#include <memory>
#include <ostream>

namespace tempo::cli {

CLI::App* addProfileCommand(CLI::App& app, ProfileOptions& options) {
  CLI::App* cmd = app.add_subcommand("profile", "Run a program once, traced, and print where the time went by node and source line");
  cmd->add_option("FILE", options.file, "The .tpo program")->required();
  cmd->add_option("--set", options.sets, "Override a bound, e.g. --set T=32 (repeatable)")
      ->type_name("NAME=INT")
      ->allow_extra_args(false);
  cmd->add_option("--top", options.top, "Rows of the node table")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--block-size", options.blockSize, "Static tiling's block size (default: the cost model's)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--kernels", options.kernels, "generated (LLVM) kernels where formed, or the library kernels only")
      ->check(CLI::IsMember({"generated", "library"}))
      ->capture_default_str();
  cmd->add_option("--db", options.db, "The run store to record into (default: .tempo/runs.db next to FILE)");
  cmd->add_option("--label", options.label, "A label for the stored run (shown by tempo runs list)");
  cmd->add_flag("--no-store", options.noStore, "Print the profile only; record nothing");
  cmd->add_flag("--store-outputs", options.storeOutputs, "Keep the outputs' .npy bytes in the run store");
  return cmd;
}

int runProfile(const ProfileOptions& options, std::ostream& out, std::ostream& err) {
  std::string error;
  auto overrides = parseSets(options.sets, error);
  if (!overrides) {
    err << "tempo profile: " << error << "\n";
    return kExitUsage;
  }
  FrontendResult program = compileReporting(options.file, err);
  if (!program.ok()) return kExitProgramErrors;
  std::optional<SymbolEnv> bounds = resolveBounds(program.graph, *overrides, error);
  if (!bounds) {
    err << "tempo profile: " << error << "\n";
    return kExitUsage;
  }
  if (!checkDataFiles(program, *bounds, err)) return kExitProgramErrors;
  std::unique_ptr<RunStore> store;
  int64_t runId = 0;
  if (!options.noStore) {
    try {
      store = std::make_unique<RunStore>(options.db.empty() ? defaultRunStorePath(options.file) : options.db);
      nlohmann::json settings = {{"kernels", options.kernels}, {"blockSize", options.blockSize}};
      runId = store->beginRun(runHeader(options.file, program.source, *bounds, options.label, settings));
    } catch (const std::exception& e) {
      err << "tempo profile: " << e.what() << "\n";
      return kExitRuntime;
    }
  }
  try {
    PassContext context = passContextFor(options.blockSize);
    CompiledProgram compiled = compileProgram(program.graph, defaultPipeline(), context);
    TraceCollector trace;
    CompiledRunOptions run;
    run.trace = &trace;
    run.generatedKernels = options.kernels == "generated";
    CompiledRunResult result = runCompiled(compiled, *bounds, run);
    std::string where;
    for (const auto& [name, value] : *bounds) where += (where.empty() ? "" : " ") + name + "=" + std::to_string(value);
    double compileSeconds = 0;
    for (const auto& [phase, seconds] : compiled.compilePhases) compileSeconds += seconds;
    out << "profile of " << options.file << " (compiled engine" << (where.empty() ? "" : ", " + where)
        << "): compiled in " << static_cast<int64_t>(compileSeconds * 1e3) << " ms, "
        << compiled.kernels.count(KernelKind::Generated) << " generated kernels, " << result.stats.nativeCalls
        << " of " << result.stats.execs << " statements computed by them\n";
    ProfileSummary summary = summariseProfile(compiled.graph, trace, &compiled.kernels);
    out << printProfileSummary(summary, program.source, std::filesystem::path(options.file).filename().string(),
                               options.top);
    std::vector<std::string> loopVars;
    topLevelLoopVars(compiled.loops.body, loopVars);
    out << printStepSummary(summariseSteps(trace.steps(), loopVars), trace.runNs());
    if (store) {
      store->finishRun(runId, recordRun(compiled, *bounds, result, trace, program.source, options.storeOutputs));
      out << "\nstored as run " << runId << " in " << store->path() << "\n";
    }
  } catch (const RunStoreError& e) {
    err << "tempo profile: " << e.what() << "\n";
    return kExitRuntime;
  } catch (const std::exception& e) {
    err << "tempo profile: " << e.what() << "\n";
    if (store) {
      try {
        store->failRun(runId, e.what());
      } catch (const std::exception& e2) {
        err << "tempo profile: " << e2.what() << "\n";
      }
    }
    return kExitRuntime;
  }
  return kExitOk;
}

}  // namespace tempo::cli
