#include "tempo/Cli.h"

#include "tempo/CheckCommand.h"
#include "tempo/CompileCommand.h"
#include "tempo/DevicesCommand.h"
#include "tempo/GraphCommand.h"
#include "tempo/ProfileCommand.h"
#include "tempo/RunCommand.h"
#include "tempo/RunsCommand.h"
#include "tempo/ScheduleCommand.h"

#include <CLI/CLI.hpp>

#include <exception>
#include <ostream>

namespace tempo::cli {

namespace {

const char* const kFooter =
    "Exit codes:\n"
    "  0  success\n"
    "  1  the program has errors (diagnostics printed)\n"
    "  2  usage error (bad arguments, --set or --engine, a --memory-budget no schedule can meet)\n"
    "  3  runtime failure (evaluation or I/O)\n"
    "  (tempo runs diff: 1 when run B regressed against run A)";

/// Prints help/version (exit 0) or a parse error (exit 2).
int reportParseOutcome(const CLI::App& app, const CLI::ParseError& e, std::ostream& out, std::ostream& err) {
  int code = app.exit(e, out, err);
  return code == 0 ? kExitOk : kExitUsage;
}

struct Commands {
  CheckOptions check;
  RunOptions run;
  GraphOptions graph;
  CompileOptions compile;
  ScheduleOptionsCli schedule;
  ProfileOptions profile;
  RunsOptions runs;
  DevicesOptions devices;
};

int parseAndDispatch(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app("tempo: check, run and inspect Tempo (.tpo) programs", "tempo");
  app.footer(kFooter);
  app.set_version_flag("--version", std::string("tempo ") + TEMPO_VERSION);
  app.require_subcommand(1);
  Commands c;
  CLI::App* check = addCheckCommand(app, c.check);
  CLI::App* run = addRunCommand(app, c.run);
  CLI::App* graph = addGraphCommand(app, c.graph);
  CLI::App* compile = addCompileCommand(app, c.compile);
  CLI::App* schedule = addScheduleCommand(app, c.schedule);
  CLI::App* profile = addProfileCommand(app, c.profile);
  CLI::App* runs = addRunsCommand(app, c.runs);
  CLI::App* devices = addDevicesCommand(app, c.devices);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return reportParseOutcome(app, e, out, err);
  }
  if (check->parsed()) return runCheck(c.check, out, err);
  if (run->parsed()) return runRun(c.run, out, err);
  if (graph->parsed()) return runGraph(c.graph, out, err);
  if (compile->parsed()) return runCompile(c.compile, out, err);
  if (schedule->parsed()) return runSchedule(c.schedule, out, err);
  if (profile->parsed()) return runProfile(c.profile, out, err);
  if (runs->parsed()) return runRuns(c.runs, out, err);
  if (devices->parsed()) return runDevices(c.devices, out, err);
  err << "tempo: no command given (try tempo --help)\n";
  return kExitUsage;
}

}  // namespace

int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  try {
    return parseAndDispatch(argc, argv, out, err);
  } catch (const std::exception& e) {
    err << "tempo: internal error: " << e.what() << "\n";
  } catch (...) {
    err << "tempo: internal error (unknown exception)\n";
  }
  return kExitRuntime;
}

}  // namespace tempo::cli
