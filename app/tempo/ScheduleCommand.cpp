#include "tempo/ScheduleCommand.h"

#include "lowering/Lowering.h"

#include "memory/SwapPlacement.h"
#include "pass/PassRegistry.h"
#include "schedule/LoopAstJson.h"
#include "schedule/Scheduler.h"
#include "tempo/Cli.h"
#include "tempo/CommandSupport.h"
#include "tempo/IterationSpaceOutput.h"

#include <ostream>

namespace tempo::cli {

namespace {

/// `[{"root": 7, "members": [3, 5, 7]}, ...]`: the statements isl scheduled as one.
nlohmann::json clustersJson(const StatementClusters& clusters) {
  nlohmann::json out = nlohmann::json::array();
  for (const StatementCluster& c : clusters.clusters) out.push_back({{"root", c.root}, {"members", c.members}});
  return out;
}

nlohmann::json scheduleToJson(const Graph& g, const ScheduleResult& r) {
  nlohmann::json statements = nlohmann::json::array();
  for (const ScheduleStatement& s : r.relations.statements) {
    const Node& n = g.node(s.node);
    statements.push_back({{"node", s.node},
                          {"statement", s.name},
                          {"label", n.name.empty() ? std::string(opName(n.op)) : n.name},
                          {"dims", s.dims},
                          {"domain", s.domain}});
  }
  nlohmann::json deps = nlohmann::json::array();
  for (const EdgeDependence& d : r.relations.dependences)
    deps.push_back({{"edge", d.edge},
                    {"producer", d.producer},
                    {"consumer", d.consumer},
                    {"relation", d.validity},
                    {"newestForward", d.newestForward},
                    {"newestBackward", d.newestBackward}});
  nlohmann::json params = nlohmann::json::array();
  for (const std::string& p : r.relations.params)
    params.push_back({{"isl", p}, {"bound", r.relations.boundOfParam.at(p)}});
  return {{"file", g.file},
          {"params", params},
          {"context", r.relations.paramContext()},
          {"statements", statements},
          {"dependences", deps},
          {"newestElement", r.newestElement == TimeDirection::Forward ? "forward" : "backward"},
          {"scheduler", algorithmName(r.used)},
          {"fusionFailure", r.fusionFailure},
          {"usedFallback", r.usedFallback},
          {"fallbackReason", r.fallbackReason},
          {"clusters", clustersJson(r.clusters)},
          {"scheduleTree", r.scheduleTree},
          {"scheduleMap", r.scheduleMap},
          {"transforms", r.transforms},
          {"untransformedMap", r.untransformedMap},
          {"loops", loopProgramToJson(g, r.program)},
          {"text", printLoopProgram(g, r.program)}};
}

}  // namespace

CLI::App* addScheduleCommand(CLI::App& app, ScheduleOptionsCli& options) {
  CLI::App* cmd = app.add_subcommand("schedule", "Schedule a program (the fusion schedule, or isl's scheduler where it fails) and print its loops with alloc / free statements");
  cmd->add_option("FILE", options.file, "The .tpo program")->required();
  cmd->add_option("--format", options.format,
                  "Output format: text (loops) or json (relations, schedule, loops); svg or png with --iteration-space")
      ->check(CLI::IsMember({"text", "json", "svg", "png"}))
      ->capture_default_str();
  cmd->add_option("--scheduler", options.scheduler,
                  "fusion (loops distributed and fused along the dependences; isl's scheduler where that fails), "
                  "isl (isl's scheduler), or fallback (components in order, one loop nest each)")
      ->check(CLI::IsMember({"fusion", "isl", "fallback"}))
      ->capture_default_str();
  cmd->add_flag("--fallback", options.fallback, "Use the simple fallback schedule (same as --scheduler fallback)");
  cmd->add_option("--iteration-space", options.iterationSpace,
                  "Draw every statement instance over dimensions X[,Y] at small bounds (with --format svg|png)")
      ->type_name("X[,Y]");
  cmd->add_option("--set", options.sets, "Bound for the drawing, e.g. --set T=8 (repeatable)")->type_name("NAME=INT");
  cmd->add_option("--block-size", options.blockSize,
                  "Static tiling's block size for --iteration-space and --optimized (default: the cost model's); tiles are shaded")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--output,-o", options.output, "Write to FILE instead of stdout (required for png)")
      ->type_name("FILE");
  cmd->add_option("--memory-budget", options.memoryBudget,
                  "Add swap_out / swap_in statements to stay under BYTES (k/M/G suffixes) at the default bounds")
      ->type_name("BYTES");
  cmd->add_flag("--optimized", options.optimized,
                "Schedule the program after the pass pipeline: the loops and stores `tempo run` executes "
                "(--block-size applies)");
  cmd->add_option("--transform", options.transform,
                  "Change the schedule and check it against the dependences: `shift S by N along D`, "
                  "`interchange D1, D2 [in S]`, `skew D1 by D2 [factor N] [in S]`, `reverse D [in S]`, "
                  "separated by ';' (S: a tensor name, %N or S_N); exit 1 naming each violated dependence")
      ->type_name("TEXT");
  return cmd;
}

int runSchedule(const ScheduleOptionsCli& options, std::ostream& out, std::ostream& err) {
  const bool picture = options.format == "svg" || options.format == "png";
  if (picture != !options.iterationSpace.empty()) {
    err << "error: --iteration-space and --format svg|png go together (the loops print as text or json)\n";
    return kExitUsage;
  }
  if (picture)
    return writeIterationSpace(
        {options.file, options.iterationSpace, options.sets, options.format, options.output, options.blockSize,
         options.transform}, out, err);
  std::optional<int64_t> budget;
  if (!options.memoryBudget.empty() && !(budget = parseByteSize(options.memoryBudget))) {
    err << "tempo schedule: --memory-budget '" << options.memoryBudget
        << "': expected bytes, e.g. 4096, 64k, 1.5M, 2G\n";
    return kExitUsage;
  }
  FrontendResult program = compileReporting(options.file, err);
  if (!program.ok()) return kExitProgramErrors;
  Graph g = program.graph;
  if (options.optimized) {
    PassContext context = passContextFor(options.blockSize);
    try {
      defaultPipeline().run(g, context);
    } catch (const PassError& e) {
      err << options.file << ": error: the pass pipeline failed: " << e.what() << "\n";
      return kExitRuntime;
    }
  }
  IslContext ctx;
  ScheduleOptions scheduleOptions;
  scheduleOptions.algorithm = *parseAlgorithm(options.fallback ? "fallback" : options.scheduler);
  if (!options.transform.empty()) {
    try {
      scheduleOptions.transforms = parseScheduleTransforms(options.transform);
    } catch (const ScheduleTransformError& e) {
      err << "tempo schedule: --transform: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  LoweredProgram lowered;
  try {
    lowered = lowerProgram(g, ctx, LoweringOptions{scheduleOptions, false, false});
  } catch (const ScheduleTransformError& e) {
    err << "tempo schedule: --transform: " << e.what() << "\n";
    return kExitUsage;
  } catch (const IllegalScheduleError& e) {
    return reportIllegalSchedule(options.file, e, err);
  } catch (const IslError& e) {
    err << options.file << ": error: cannot schedule the program: " << e.what() << "\n";
    return kExitProgramErrors;
  } catch (const std::invalid_argument& e) {
    err << options.file << ": error: cannot schedule the program: " << e.what() << "\n";
    return kExitProgramErrors;
  }
  ScheduleResult& r = lowered.schedule;
  if (!r.fusionFailure.empty())
    err << options.file << ": note: the fusion schedule cannot order this program (" << r.fusionFailure
        << "); " << (r.usedFallback ? "trying isl's scheduler" : "printing isl's schedule") << "\n";
  if (r.usedFallback && scheduleOptions.algorithm != ScheduleOptions::Algorithm::Fallback)
    err << options.file << ": note: isl's scheduler was not used (" << r.fallbackReason
        << "); printing the fallback schedule\n";
  r.program = lowered.loops;  // printed with its memory statements
  std::optional<SwapPlan> swaps;
  if (budget) {
    std::string error;
    std::optional<SymbolEnv> bounds = resolveBounds(g, {}, error);
    if (!bounds) {
      err << "tempo schedule: --memory-budget needs a value for every bound: " << error << "\n";
      return kExitUsage;
    }
    swaps = placeSwaps(g, r.program, *bounds, *budget);
    if (!swaps->feasible()) {
      err << "tempo schedule: --memory-budget " << options.memoryBudget << ": " << swaps->infeasibility() << "\n";
      return kExitUsage;
    }
    r.program = swaps->program;
  }
  std::string text;
  if (options.format == "json") {
    nlohmann::json j = scheduleToJson(g, r);
    if (swaps)
      j["memoryBudget"] = {{"budget", swaps->budget},       {"floor", swaps->floor},
                           {"met", swaps->met()},           {"predictedPeak", swaps->predictedPeak},
                           {"swaps", swaps->swaps},         {"recomputes", swaps->recomputes},
                           {"unmet", swaps->unmet}};
    text = j.dump(2) + "\n";
  } else {
    text = printLoopProgram(g, r.program);
    if (swaps) {
      std::string report = swaps->report();
      for (size_t at = 0; at < report.size();) {
        size_t end = report.find('\n', at);
        text += "# " + report.substr(at, end - at) + "\n";
        at = end + 1;
      }
    }
  }
  if (swaps && !swaps->met())
    err << options.file << ": warning: the planned swaps do not meet the memory budget at the default bounds"
        << " (a run pages the rest at run time)\n";
  return writeResult(text, options.output, out, err);
}

}  // namespace tempo::cli
