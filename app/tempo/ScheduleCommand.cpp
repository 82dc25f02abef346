#include "tempo/ScheduleCommand.h"

#include "schedule/LoopAstJson.h"
#include "schedule/Scheduler.h"
#include "tempo/Cli.h"
#include "tempo/CommandSupport.h"

#include <ostream>

namespace tempo::cli {

namespace {

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
          {"usedFallback", r.usedFallback},
          {"fallbackReason", r.fallbackReason},
          {"scheduleTree", r.scheduleTree},
          {"scheduleMap", r.scheduleMap},
          {"loops", loopProgramToJson(g, r.program)},
          {"text", printLoopProgram(g, r.program)}};
}

}  // namespace

CLI::App* addScheduleCommand(CLI::App& app, ScheduleOptionsCli& options) {
  CLI::App* cmd = app.add_subcommand("schedule", "Schedule a program with isl and print its loops");
  cmd->add_option("FILE", options.file, "The .tpo program")->required();
  cmd->add_option("--format", options.format, "Output format: text (loops) or json (relations, schedule, loops)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_flag("--fallback", options.fallback, "Use the simple fallback schedule instead of isl's scheduler");
  return cmd;
}

int runSchedule(const ScheduleOptionsCli& options, std::ostream& out, std::ostream& err) {
  FrontendResult program = compileReporting(options.file, err);
  if (!program.ok()) return kExitProgramErrors;
  const Graph& g = program.graph;
  IslContext ctx;
  ScheduleOptions scheduleOptions;
  if (options.fallback) scheduleOptions.algorithm = ScheduleOptions::Algorithm::Fallback;
  ScheduleResult r;
  try {
    r = computeSchedule(g, ctx, scheduleOptions);
  } catch (const IslError& e) {
    err << options.file << ": error: cannot schedule the program: " << e.what() << "\n";
    return kExitProgramErrors;
  } catch (const std::invalid_argument& e) {
    err << options.file << ": error: cannot schedule the program: " << e.what() << "\n";
    return kExitProgramErrors;
  }
  if (r.usedFallback && !options.fallback)
    err << options.file << ": note: isl's scheduler was not used (" << r.fallbackReason
        << "); printing the fallback schedule\n";
  if (options.format == "json") out << scheduleToJson(g, r).dump(2) << "\n";
  else out << printLoopProgram(g, r.program);
  out << std::flush;
  return kExitOk;
}

}  // namespace tempo::cli
