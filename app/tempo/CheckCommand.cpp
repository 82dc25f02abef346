#include "tempo/CheckCommand.h"

#include "tempo/Cli.h"
#include "tempo/CommandSupport.h"

#include <ostream>

namespace tempo::cli {

CLI::App* addCheckCommand(CLI::App& app, CheckOptions& options) {
  CLI::App* cmd = app.add_subcommand("check", "Check a program and its data files, print diagnostics");
  cmd->add_option("FILE", options.file, "The .tpo program")->required();
  return cmd;
}

int runCheck(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  FrontendResult program = compileReporting(options.file, err);
  if (!program.ok()) return kExitProgramErrors;
  std::string unresolved;
  if (std::optional<SymbolEnv> bounds = resolveBounds(program.graph, {}, unresolved)) {
    if (!checkDataFiles(program, *bounds, err)) return kExitProgramErrors;
  } else {
    err << options.file << ": note: data files not checked: " << unresolved << "\n";
  }
  out << options.file << ": ok (" << graphSize(program.graph) << ")\n";
  return kExitOk;
}

}  // namespace tempo::cli
